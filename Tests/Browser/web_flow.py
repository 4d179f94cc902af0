#!/usr/bin/env python3
"""The web player in a real headless Chromium, driven by Selenium, against the real demo server.

Three `screenplay serve` processes (the debug build the suite just made) on free loopback ports,
each with a fresh data folder, started once for the whole file:
- `plain`: as a user runs it;
- `slow`: screens answered 700 ms late and commands 1.2 s late (`--test-…` hooks), so what the
  page shows before an answer can be checked;
- `failing`: `favorites/add` fails with a 500 (after 0.8 s), so a rollback can be checked.

With JavaScript on: the carried header before the body, the player across pages (a Range answer
for a seek), optimistic hearts and their rollback, dialogs, share, the keyed refresh, Back and
Forward. With JavaScript off: the same flows as links and forms, history-safe. axe-core (the
release axe-playwright-python ships, injected as a file) on every screen, dialog and the player,
light and dark; the phone width with the longest names a user may give.

Run by scripts/test.sh; alone: `python3 Tests/Browser/web_flow.py` (after `swift build`).
Screenshots of every screen (phone and desktop, light and dark) go to $SCREENSHOTS (default: a
temporary folder, printed).
"""
import axe
import faulthandler
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import unittest

from demo_server import DemoServer, start_clean
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

SHOTS = os.environ.get("SCREENSHOTS") or tempfile.mkdtemp(prefix="screenplay-web-shots-")
LONGEST_NAME = "W" * 100  # the longest playlist name the server takes, with no place to break


SERVERS = {}


def setUpModule():
    # Started side by side: each seeds its own database.
    def start(name, *arguments):
        SERVERS[name] = DemoServer(*arguments, prefix="screenplay-web-browser-")

    threads = [
        threading.Thread(target=start, args=("plain",)),
        threading.Thread(target=start, args=("slow", "--test-screen-delay-ms", "700", "--test-command-delay-ms", "1200")),
        threading.Thread(target=start, args=("failing", "--test-failing-command", "favorites/add", "--test-command-delay-ms", "800")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    missing = {"plain", "slow", "failing"} - SERVERS.keys()
    if missing:
        tearDownModule()
        raise RuntimeError(f"servers did not start: {missing}")


def tearDownModule():
    for server in SERVERS.values():
        server.stop()
    print(f"screenshots: {SHOTS}", file=sys.stderr)


def chromium(javascript=True):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                     "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    browser = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    browser.set_page_load_timeout(60)
    return browser


class Page:
    """Helpers over one browser."""

    def __init__(self, browser, server):
        self.browser = browser
        self.server = server

    def open(self, path):
        self.browser.get(self.server.root + path)
        self.wait(lambda: self.js("return document.readyState") == "complete")

    def js(self, script, *arguments):
        return self.browser.execute_script(script, *arguments)

    def wait(self, condition, timeout=20, message=""):
        WebDriverWait(self.browser, timeout, poll_frequency=0.05).until(lambda _: condition(), message)

    def find(self, selector):
        return self.browser.find_element(By.CSS_SELECTOR, selector)

    def settled(self, timeout=20):
        """Waits until the script's navigation or refresh is done (main no longer busy)."""
        self.wait(lambda: self.js("return !document.getElementById('main').hasAttribute('aria-busy')"), timeout)

    def path(self):
        return self.browser.current_url[len(self.server.root):]

    def announced(self):
        return self.js("return document.getElementById('sp-announcer').textContent")

    def watch_pressed(self, selector):
        """Marks this page (`window.stillHere`, gone if it reloads) and records in `window.changedAt`
        when the button at `selector` first shows pressed: how a test sees a change arrive from
        another tab, in place."""
        self.js("""window.stillHere = true;
            const selector = arguments[0];
            new MutationObserver(() => {
              const button = document.querySelector(selector);
              if (button && button.getAttribute('aria-pressed') === 'true' && !window.changedAt) window.changedAt = Date.now();
            }).observe(document.getElementById('main'), { subtree: true, attributes: true, childList: true });""", selector)

    def is_site_page(self):
        """Our page, not Chromium's error page ("Confirm Form Resubmission", ERR_CACHE_MISS): read
        from the page's title and Chromium's own error element."""
        title = self.browser.title
        if "Resubmission" in title or "ERR_" in title or not title.endswith("Screenplay Classical"):
            return False
        return self.js("return !!document.getElementById('main') && !document.getElementById('main-frame-error')")

    def dark(self, on=True):
        self.browser.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})

    def width(self, width, height=900):
        self.browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})

    def shot(self, name):
        metrics = self.browser.execute_cdp_cmd("Page.getLayoutMetrics", {})
        height = min(int(metrics["cssContentSize"]["height"]), 6000)
        width = int(metrics["cssLayoutViewport"]["clientWidth"])
        self.browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": width, "height": max(height, 600), "deviceScaleFactor": 1, "mobile": width < 600})
        self.browser.save_screenshot(os.path.join(SHOTS, name + ".png"))
        self.width(width)

    def shots(self, name):
        """Screenshots at desktop and phone widths, light and dark (`name-phone-dark`, …), then
        back to a light desktop."""
        for width, size in ((1280, "desktop"), (390, "phone")):
            for dark in (False, True):
                self.dark(dark)
                self.width(width)
                self.shot(f"{name}-{size}-{'dark' if dark else 'light'}")
        self.dark(False)
        self.width(1280)

    def new_playlist(self, name):
        """Creates a playlist through home's menu (a dialog with JavaScript, a page without); returns its path."""
        self.open("/")
        self.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'New playlist')]").click()
        self.wait(lambda: self.js("return !!document.querySelector('#prompt-value')"))
        field = self.find("#prompt-value")
        field.clear()
        field.send_keys(name)
        field.send_keys(Keys.ENTER)
        self.wait(lambda: self.path().startswith("/screens/playlist/") and self.js("return !!document.querySelector('form[data-toggle]')"))
        self.settled()
        return self.path()

    def axe(self):
        """Serious and critical axe-core violations on the page as it is now, as text."""
        return axe.serious_violations(self.browser)


def contrast(foreground, background):
    """WCAG contrast of two `rgb(…)` colors."""
    def luminance(color):
        channels = [int(float(part)) for part in color[color.index("(") + 1:color.index(")")].split(",")[:3]]
        def linear(channel):
            value = channel / 255
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
        red, green, blue = (linear(channel) for channel in channels)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue
    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


class WithJavaScript(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = chromium()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()

    def setUp(self):
        start_clean(self.browser)
        # What the site keeps in the browser (the player, app values) is forgotten too.
        for server in SERVERS.values():
            self.browser.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": server.root, "storageTypes": "local_storage"})
        self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.page = Page(self.browser, SERVERS["plain"])
        self.page.dark(False)

    def using(self, name):
        self.page = Page(self.browser, SERVERS[name])
        return self.page

    def test_the_carried_header_shows_before_the_body(self):
        page = self.using("slow")
        page.open("/")
        page.find("#section-all-composers .row a[href='/screens/composer/mozart']").click()
        # The header the link carried, at once; the body not yet (the server waits 700 ms).
        page.wait(lambda: page.js("return document.querySelector('#main h1')?.textContent") == "Wolfgang Amadeus Mozart", timeout=0.5)
        self.assertEqual(page.js("return document.getElementById('main').getAttribute('aria-busy')"), "true")
        self.assertEqual(page.js("return document.querySelectorAll('#main section').length"), 0)
        self.assertTrue(page.js("return document.querySelector('#main .hero img').getAttribute('src')").endswith("mozart-low.svg"))
        self.assertEqual(page.path(), "/screens/composer/mozart")
        page.settled()
        self.assertGreater(page.js("return document.querySelectorAll('#main section').length"), 1)
        page.find("#section-works .row a").click()
        page.wait(lambda: page.js("return document.querySelector('#main .hero h1')?.textContent") == "Serenade No. 13 \"Eine kleine Nachtmusik\"",
                  timeout=0.5)
        self.assertEqual(page.js("return document.querySelectorAll('#main section').length"), 0)
        page.settled()
        self.assertTrue(page.js("return !!document.querySelector('a[data-play]')"))
        # Back restores the composer's page.
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/composer/mozart")
        page.settled()
        self.assertEqual(page.js("return document.querySelector('#main .hero h1').textContent"), "Wolfgang Amadeus Mozart")

    def test_the_carried_header_shows_the_full_image_when_the_browser_has_it(self):
        page = self.using("slow")
        page.open("/")
        # The full portrait already on this page (so in the browser's cache): shown at once,
        # with no low-resolution step.
        page.js("const probe = new Image(); probe.id = 'probe'; probe.src = '/images/composer/mozart.svg'; document.body.append(probe);")
        page.wait(lambda: page.js("const p = document.getElementById('probe'); return p.complete && p.naturalWidth > 0"))
        page.find("#section-all-composers .row a[href='/screens/composer/mozart']").click()
        page.wait(lambda: page.js("return document.querySelector('#main h1')?.textContent") == "Wolfgang Amadeus Mozart", timeout=0.5)
        self.assertEqual(page.js("return document.getElementById('main').getAttribute('aria-busy')"), "true")
        self.assertTrue(page.js("return document.querySelector('#main .hero img').getAttribute('src')").endswith("/mozart.svg"))
        page.settled()
        # The page's own hero: the full image over its low-resolution stand-in.
        hero = page.find("#main .hero img")
        self.assertTrue(hero.get_attribute("src").endswith("/mozart.svg"))
        self.assertIn("mozart-low.svg", hero.get_attribute("style"))

    def test_a_track_row_plays_when_tapped_anywhere_and_its_play_button_answers_space(self):
        page = self.page
        page.open("/screens/work/1")
        title = "return document.querySelector('#sp-player [data-slot=title]').textContent"
        # A tap on the row's title, not on its Play (a real pointer at the title's place): the row plays.
        rows = self.browser.find_elements(By.CSS_SELECTOR, "section[id^='section-recording-'] .row")
        ActionChains(self.browser).move_to_element(rows[1].find_element(By.CSS_SELECTOR, ".title")).click().perform()
        page.wait(lambda: not page.js("return document.getElementById('sp-player').hidden"))
        page.wait(lambda: page.js(title).startswith("II."), message="the tapped row did not play")
        self.assertEqual(page.js("return location.pathname"), "/screens/work/1", "it played; nothing opened")
        # The keyboard: the third row's Play is a button; Space plays it and does not scroll.
        play = rows[2].find_element(By.CSS_SELECTOR, "a.play")
        self.assertEqual(play.get_attribute("role"), "button")
        page.js("arguments[0].focus(); window.scrollTo(0, 0)", play)
        before = page.js("return window.scrollY")
        play.send_keys(Keys.SPACE)
        page.wait(lambda: page.js(title).startswith("III."), message="Space did not play")
        self.assertEqual(page.js("return window.scrollY"), before, "Space scrolled the page")
        page.find("#sp-player [data-player=toggle]").click()

    def test_the_first_track_a_page_plays_is_reported_too(self):
        """The first play on a page loads the player's module after the tap started the audio:
        its play event came before the module, and the track heard is reported all the same."""
        page = self.page
        queued = "return JSON.parse(localStorage.spReports || '[]')"
        audio = "document.getElementById('sp-audio')"
        page.open("/screens/work/1")
        page.settled()
        self.assertFalse(page.js("return !!document.querySelector('[data-visible]')"), "nothing else on the page loads the reports")
        row = page.browser.find_elements(By.CSS_SELECTOR, "#main .row a[data-play]")[1]
        heard = row.get_attribute("data-play")
        row.click()
        page.wait(lambda: page.js(f"return {audio}.dataset.track") == heard and page.js(f"return !{audio}.paused"))
        page.js(f"{audio}.playbackRate = 16")
        page.wait(lambda: any(e["kind"] == "played" for e in page.js(queued)), timeout=30, message="the first track heard was not reported")
        page.js(f"{audio}.pause(); {audio}.playbackRate = 1")
        self.assertEqual([e["key"] for e in page.js(queued) if e["kind"] == "played"], [heard])

    def test_plays_and_what_was_seen_are_reported_and_home_continues_listening(self):
        """Reports (v6) from a real page to the real server: a seek forward is not listening; a
        track heard for 30 seconds (at 16x, 30 heard seconds in two) is reported once; offline the
        events wait in the browser and go when it is back; home then shows Continue listening, whose
        impression is reported once per view, and which plays the movement last heard."""
        page = self.page
        queued = "return JSON.parse(localStorage.spReports || '[]')"
        audio = "document.getElementById('sp-audio')"
        page.open("/screens/work/1")
        page.settled()
        rows = page.browser.find_elements(By.CSS_SELECTOR, "#main .row a[data-play]")
        skipped, heard = rows[0].get_attribute("data-play"), rows[1].get_attribute("data-play")
        rows[0].click()
        page.wait(lambda: page.js(f"return Number.isFinite({audio}.duration) && {audio}.currentTime > 0.3"))
        page.js("const s = document.querySelector('#sp-player [data-player=seek]'); s.value = '35'; s.dispatchEvent(new Event('input'))")
        page.wait(lambda: page.js(f"return {audio}.currentTime") >= 36)
        time.sleep(0.5)
        self.assertEqual([e for e in page.js(queued) if e["kind"] == "played"], [], "a seek is not listening")

        page.js("arguments[0].scrollIntoView({block: 'center'})", rows[1])
        rows[1].click()
        page.wait(lambda: page.js(f"return {audio}.dataset.track") == heard and page.js(f"return !{audio}.paused"))
        page.js(f"{audio}.playbackRate = 16")
        page.wait(lambda: any(e["kind"] == "played" for e in page.js(queued)), timeout=30, message="no played event")
        time.sleep(1)
        page.js(f"{audio}.pause(); {audio}.playbackRate = 1")
        played = [e for e in page.js(queued) if e["kind"] == "played"]
        self.assertEqual([e["key"] for e in played], [heard], "once, for the track heard")
        self.assertRegex(played[0]["at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

        # Offline: a flush keeps everything; back online, the queue is sent and emptied.
        page.browser.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        page.browser.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        try:
            page.js("window.dispatchEvent(new Event('pagehide'))")
            time.sleep(0.7)
            self.assertEqual([e["key"] for e in page.js(queued) if e["kind"] == "played"], [heard], "kept while offline")
        finally:
            page.browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        page.wait(lambda: page.js(queued) == [], timeout=20, message="the queue was not sent once back online")

        # Home continues where the listener was, and says so once per view.
        page.find(".site-header .brand").click()
        page.settled()
        section = page.find("#section-continue-listening")
        self.assertEqual(section.find_element(By.CSS_SELECTOR, "h2").text, "Continue listening")
        item = section.find_element(By.CSS_SELECTOR, "a[data-play]")
        self.assertEqual(item.get_attribute("data-play"), heard)
        impressions = f"return JSON.parse(localStorage.spReports || '[]').filter(e => e.kind == 'visible' && e.key == 'home/continue-listening').length"
        page.wait(lambda: page.js(impressions) == 1, timeout=10, message="the section's impression was not reported")
        page.js("window.scrollTo(0, document.body.scrollHeight)")
        time.sleep(0.4)
        page.js("window.scrollTo(0, 0)")
        time.sleep(1.5)
        self.assertEqual(page.js(impressions), 1, "once per view")
        page.shots("home-continue-listening")
        item.click()
        page.wait(lambda: page.js(f"return {audio}.dataset.track") == heard and not page.js(f"return {audio}.paused"))
        page.js(f"{audio}.pause()")

    def add_works(self, page, playlist, works):
        """Adds `works` to the playlist at `playlist` as its owner (the page's cookie, from the page)."""
        playlist_id = int(playlist.rsplit("/", 1)[1])
        for work in works:
            status = page.js(
                "return fetch('/api/v6/commands/playlists/add-work', {method: 'POST', headers: {'Content-Type': 'application/json'},"
                " body: JSON.stringify({playlistId: arguments[0], workId: arguments[1]})}).then(r => r.status)", playlist_id, work)
            self.assertEqual(status, 200)
        page.open(playlist)
        page.settled()

    def test_a_playlists_works_are_reordered_by_keyboard_and_by_drag(self):
        """The reorderable list (v6): the arrow keys on a row's handle move it at once and send one
        order; a drag by the handle does the same; the server's order is what a reload shows; focus
        stays on the moved row's handle; the playlist plays in its new order."""
        page = self.page
        playlist = page.new_playlist("Reorder by hand")
        self.add_works(page, playlist, [1, 5, 9])
        titles = "return [...document.querySelectorAll('ol.reorder > li .title')].map(t => t.textContent)"
        first = page.js(titles)
        self.assertEqual(len(first), 3)
        a, b, c = first
        page.wait(lambda: page.js("return [...document.querySelectorAll('.reorder-handle')].every(h => h.offsetWidth > 0)"), message="no handles")

        # The keyboard: the third row up twice, shown at once, one command.
        handle = page.browser.find_elements(By.CSS_SELECTOR, "ol.reorder > li .reorder-handle")[2]
        handle.send_keys(Keys.ARROW_UP)
        self.assertEqual(page.js(titles), [a, c, b], "moved at once")
        page.browser.switch_to.active_element.send_keys(Keys.ARROW_UP)
        self.assertEqual(page.js(titles), [c, a, b])
        self.assertIn("1 of 3", page.announced() or page.js("return document.getElementById('sp-announcer').textContent") or "1 of 3")
        page.wait(lambda: "New order" in (page.js("return document.querySelector('[data-notice]')?.textContent") or ""), message="no confirmation")
        focused = page.js("return document.activeElement.closest('li')?.querySelector('.title')?.textContent")
        self.assertEqual(focused, c, "focus stays on the moved row")
        page.open(playlist)
        page.settled()
        self.assertEqual(page.js(titles), [c, a, b], "the server's order")

        # A drag by the handle: the first row to the bottom.
        page.wait(lambda: page.js("return [...document.querySelectorAll('.reorder-handle')].every(h => h.offsetWidth > 0)"))
        rows = page.browser.find_elements(By.CSS_SELECTOR, "ol.reorder > li")
        handle = rows[0].find_element(By.CSS_SELECTOR, ".reorder-handle")
        page.js("arguments[0].scrollIntoView({block: 'center'})", rows[1])
        last = rows[2].rect
        ActionChains(page.browser).click_and_hold(handle).move_by_offset(0, 10).move_by_offset(
            0, int(last["y"] + last["height"] * 0.75 - handle.rect["y"] - handle.rect["height"] / 2) - 10).release().perform()
        self.assertEqual(page.js(titles), [a, b, c], "dropped last")
        page.wait(lambda: "New order" in (page.js("return document.querySelector('[data-notice]')?.textContent") or ""))
        page.open(playlist)
        page.settled()
        self.assertEqual(page.js(titles), [a, b, c])
        self.assertEqual(page.axe(), [])
        page.shots("playlist-reorderable")

        # It plays in its order.
        page.find("#section-about a.play").click()
        page.wait(lambda: a in page.js("return document.querySelector('#sp-player [data-slot=subtitle]').textContent"))
        page.find("#sp-player [data-player=toggle]").click()

    def test_a_track_rows_more_menu_hearts_its_recording_and_leads_to_the_composer(self):
        """Row actions (v6): a track row's "⋯" opens its secondary actions without playing it; one
        hearts its recording (the recording's heart flips, where it is); another opens the
        composer. The row itself still plays on a tap."""
        page = self.page
        page.open("/screens/work/1")
        page.settled()
        row = page.browser.find_elements(By.CSS_SELECTOR, "section[id^='section-recording-'] .row")[1]
        toggle = row.find_element(By.CSS_SELECTOR, "details.more > summary")
        self.assertEqual(toggle.get_attribute("aria-label"), "More for II. Allemande")
        page.js("arguments[0].scrollIntoView({block: 'center'})", row)
        toggle.click()
        panel = row.find_element(By.CSS_SELECTOR, ".more-panel")
        self.assertTrue(panel.is_displayed())
        self.assertTrue(page.js("return document.getElementById('sp-player').hidden"), "opening the menu plays nothing")
        heart = "return document.querySelector('section[id^=section-recording-] form[data-toggle] button').getAttribute('aria-pressed')"
        self.assertEqual(page.js(heart), "false")
        page.shots("work-row-menu")
        panel.find_element(By.XPATH, ".//button[contains(., 'Add this recording to favorites')]").click()
        page.wait(lambda: page.js(heart) == "true", message="the recording's heart did not flip")
        page.wait(lambda: "favorites" in (page.js("return document.querySelector('[data-notice]')?.textContent") or "").lower())
        page.settled()
        self.assertEqual(page.js("return [...document.querySelectorAll('details.more[open]')].length"), 0, "the menu closes once used")
        row = page.browser.find_elements(By.CSS_SELECTOR, "section[id^='section-recording-'] .row")[1]
        row.find_element(By.CSS_SELECTOR, "details.more > summary").click()
        row.find_element(By.XPATH, ".//a[contains(., 'Go to Johann Sebastian Bach')]").click()
        page.wait(lambda: page.path() == "/screens/composer/bach")

    def test_a_playlist_plays_all_its_works_in_order(self):
        page = self.page
        page.open("/screens/playlist/1")
        works = page.js("return [...document.querySelectorAll('#section-works .row .title')].map(t => t.textContent)")
        play_all = page.find("#section-about a.play")
        self.assertEqual(play_all.get_attribute("aria-label"), "Play all of Baroque Essentials")
        play_all.click()
        page.wait(lambda: not page.js("return document.getElementById('sp-player').hidden"))
        subtitle = "return document.querySelector('#sp-player [data-slot=subtitle]').textContent"
        self.assertIn(works[0], page.js(subtitle), "the playlist's first work first")
        # The queue goes on into the next work once the first one's tracks are done: its last
        # track, then Next.
        page.wait(lambda: page.js("return document.getElementById('sp-audio').currentTime") > 0.2)
        for _ in range(40):
            if works[1] in page.js(subtitle):
                break
            page.find("#sp-player [data-player=next]").click()
            time.sleep(0.05)
        self.assertIn(works[1], page.js(subtitle), "Next reached the playlist's second work")
        page.find("#sp-player [data-player=toggle]").click()

    def test_a_playlist_shuffles_its_queue_is_shown_and_a_row_of_it_plays(self):
        """Shuffle (v6): the playlist's whole queue once each, the first track first, the rest in
        a random order; the queue shown on demand, the track playing marked, a row of it played
        with the keyboard; shuffle off goes back to the listed order from the track playing;
        Escape closes the queue; a reload keeps the order and the shuffle."""
        page = self.page
        page.open("/screens/playlist/1")
        page.settled()
        self.assertFalse(page.js("return [...document.scripts].some(s => s.src.includes('player'))"), "no player module before a play")
        shuffle = page.find("#section-about a.play[aria-label='Shuffle Baroque Essentials']")
        play_all = page.find("#section-about a.play[aria-label='Play all of Baroque Essentials']")
        listed = page.js("return fetch(arguments[0]).then(r => r.json()).then(q => q.tracks.map(t => t.title + '|' + t.work))",
                         play_all.get_attribute("data-queue"))
        self.assertGreater(len(listed), 12, "a queue long enough that a shuffle in the listed order cannot happen by chance")
        first = shuffle.get_attribute("data-track-title")
        shuffle.click()
        bar_title = "return document.querySelector('#sp-player [data-slot=title]').textContent"
        page.wait(lambda: not page.js("return document.getElementById('sp-player').hidden"))
        self.assertEqual(page.js(bar_title), first, "the server's first track plays first")
        button = page.find("#sp-player [data-player=shuffle]")
        page.wait(lambda: button.get_attribute("aria-pressed") == "true")
        queue_button = page.find("#sp-player [data-player=queue]")
        self.assertEqual(queue_button.get_attribute("aria-expanded"), "false")
        queue_button.click()
        rows = "return [...document.querySelectorAll('#sp-queue li .queue-row')].map(r => r.querySelector('.queue-title').textContent)"
        page.wait(lambda: len(page.js(rows)) == len(listed))
        self.assertEqual(queue_button.get_attribute("aria-expanded"), "true")
        self.assertTrue(page.js("return document.activeElement.matches('#sp-queue [aria-current=true]')"), "focus on the track playing")
        shown = page.js(rows)
        self.assertEqual(shown[0], first)
        self.assertEqual(sorted(shown), sorted(t.split("|")[0] for t in listed), "every track of the queue once")
        self.assertNotEqual(shown, [t.split("|")[0] for t in listed], "shuffled")
        self.assertEqual(page.axe(), [])
        page.shots("player-queue-shuffled")
        # A row of the queue plays at once (Tab to it, Enter); the rows before it are passed over.
        page.browser.switch_to.active_element.send_keys(Keys.TAB)
        page.browser.switch_to.active_element.send_keys(Keys.TAB)
        page.browser.switch_to.active_element.send_keys(Keys.ENTER)
        page.wait(lambda: page.js(bar_title) == shown[2])
        page.wait(lambda: page.js(rows)[0] == shown[2])
        self.assertEqual(page.js(rows), shown[2:], "the queue from the track playing")
        # Shuffle off: the listed order from the track playing.
        button.click()
        self.assertEqual(button.get_attribute("aria-pressed"), "false")
        now = page.js("return document.getElementById('sp-audio').dataset.track")
        titles = [t.split("|")[0] for t in listed]
        page.wait(lambda: page.js(rows)[0] == shown[2])
        after = page.js(rows)
        self.assertEqual(after, titles[len(titles) - len(after):], "the listed order after the track playing")
        # Shuffle on again, Escape closes the queue and gives the focus back to its button.
        button.click()
        page.js("document.querySelector('#sp-queue [aria-current=true]').focus()")
        page.browser.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.assertTrue(page.js("return document.getElementById('sp-queue').hidden"))
        self.assertEqual(queue_button.get_attribute("aria-expanded"), "false")
        self.assertTrue(page.js("return document.activeElement.dataset.player === 'queue'"))
        page.find("#sp-player [data-player=toggle]").click()
        page.wait(lambda: page.js("return document.getElementById('sp-audio').paused"))
        queue_button.click()
        kept = page.js(rows)
        # A reload: the same track, the same order, shuffle still on.
        self.browser.refresh()
        page.wait(lambda: page.js("return document.readyState") == "complete")
        page.wait(lambda: not page.js("return document.getElementById('sp-player').hidden"))
        self.assertEqual(page.js("return document.getElementById('sp-audio').dataset.track"), now)
        self.assertEqual(page.find("#sp-player [data-player=shuffle]").get_attribute("aria-pressed"), "true")
        page.find("#sp-player [data-player=queue]").click()
        page.wait(lambda: page.js(rows) == kept)

    def test_the_player_keeps_playing_across_pages_with_next_and_seek(self):
        page = self.page
        page.open("/screens/work/1")
        first = page.find("a[data-play]")
        title = first.get_attribute("data-track-title")
        first.click()
        page.wait(lambda: page.js("return !document.getElementById('sp-player').hidden"))
        page.wait(lambda: page.js("return document.getElementById('sp-audio').currentTime") > 0.5)
        self.assertEqual(page.js("return document.querySelector('#sp-player [data-slot=title]').textContent"), title)
        self.assertEqual(page.js("return navigator.mediaSession.metadata.title"), title)
        # Now playing names the composer, the work and the performers, with the composer's picture,
        # in the bar and in the system's now playing.
        self.assertEqual(page.js("return document.querySelector('#sp-player [data-slot=subtitle]').textContent"),
                         "Johann Sebastian Bach · Cello Suite No. 1 · Pablo Casals")
        self.assertEqual(page.js("return navigator.mediaSession.metadata.album"), "Johann Sebastian Bach: Cello Suite No. 1")
        self.assertEqual(page.js("return navigator.mediaSession.metadata.artist"), "Pablo Casals")
        self.assertTrue(page.js("return navigator.mediaSession.metadata.artwork[0].src").endswith("/images/recording/1.svg"))
        page.wait(lambda: page.js("const i = document.querySelector('#sp-player [data-slot=art]'); return !i.hidden && i.complete && i.naturalWidth > 0"),
                  message="the bar's picture did not load")
        page.shot("player-desktop-light")
        # Two other pages: the audio goes on, the page is never reloaded.
        page.js("window.stillHere = true")
        page.find("#section-composer .row a").click()
        page.settled()
        page.find(".site-header nav a[href='/']").click()
        page.settled()
        self.assertTrue(page.js("return window.stillHere === true"), "no page load")
        before = page.js("return document.getElementById('sp-audio').currentTime")
        page.wait(lambda: page.js("return document.getElementById('sp-audio').currentTime") > before + 0.5)
        self.assertFalse(page.js("return document.getElementById('sp-audio').paused"))
        # Next: the queue's second track (its audio requests are watched from here).
        self.browser.get_log("performance")
        page.find("#sp-player [data-player=next]").click()
        page.wait(lambda: page.js("return document.querySelector('#sp-player [data-slot=title]').textContent") != title)
        second = page.js("return document.querySelector('#sp-player [data-slot=title]').textContent")
        self.assertTrue(second.startswith("II."), second)
        self.assertEqual(page.js("return document.querySelector('#sp-player [data-slot=subtitle]').textContent"),
                         "Johann Sebastian Bach · Cello Suite No. 1 · Pablo Casals", "the queue's tracks carry what they belong to")
        # Seek to the middle: the browser reads the track in ranges (a 206 each; whether the seek
        # needs a new one depends on how much it had buffered), and plays from there.
        page.wait(lambda: page.js("return Number.isFinite(document.getElementById('sp-audio').duration)"))
        duration = page.js("return document.getElementById('sp-audio').duration")
        self.assertGreater(duration, 60, "as long as the row says")
        page.js("const s = document.querySelector('#sp-player [data-player=seek]'); s.value = String(Math.floor(arguments[0] / 2));"
                "s.dispatchEvent(new Event('input'))", duration)
        page.wait(lambda: abs(page.js("return document.getElementById('sp-audio').currentTime") - duration / 2) < 5)
        page.wait(lambda: page.js("return !document.getElementById('sp-audio').paused"))
        statuses = []
        deadline = time.time() + 10
        while time.time() < deadline and 206 not in statuses:
            for entry in self.browser.get_log("performance"):
                message = json.loads(entry["message"])["message"]
                if message["method"] == "Network.responseReceived" and "/media/audio/" in message["params"]["response"]["url"]:
                    statuses.append(message["params"]["response"]["status"])
            time.sleep(0.2)
        self.assertIn(206, statuses)
        self.assertNotIn(200, statuses, "every audio answer a range")

    def test_a_favorite_flips_at_once_and_everywhere_it_is_bound(self):
        page = self.using("slow")
        path = page.new_playlist("Quiet Hours")
        heart = page.find("form[data-toggle] button")
        self.assertEqual(heart.get_attribute("aria-pressed"), "false")
        heart.click()
        # Pressed before the answer (the command waits 1.2 s on this server).
        self.assertEqual(heart.get_attribute("aria-pressed"), "true")
        self.assertEqual(heart.get_attribute("aria-busy"), "true")
        page.wait(lambda: "Added “Quiet Hours” to favorites" in page.announced())
        self.assertEqual(page.find("form[data-toggle] button").get_attribute("aria-pressed"), "true")
        # Home's row for the same playlist shows it, with no page load.
        page.js("window.stillHere = true")
        page.find(".site-header nav a[href='/']").click()
        page.settled()
        self.assertTrue(page.js("return window.stillHere === true"))
        hearts = page.js("return [...document.querySelectorAll('form[data-toggle]')].map(f => [f.dataset.binding, f.querySelector('button').getAttribute('aria-pressed')])")
        playlist = path.rsplit("/", 1)[-1]
        self.assertIn([f"playlist/{playlist}.favorite", "true"], hearts)
        # Two quick taps end as the last tap asked, whatever order the answers come in.
        row_heart = page.find(f"form[data-binding='playlist/{playlist}.favorite'] button")
        row_heart.click()
        row_heart.click()
        page.wait(lambda: not page.js("return !!document.querySelector('[aria-busy=true]')"), timeout=15)
        page.settled()
        time.sleep(0.3)
        self.assertEqual(page.find(f"form[data-binding='playlist/{playlist}.favorite'] button").get_attribute("aria-pressed"), "true")
        page.open(path)
        self.assertEqual(page.find("form[data-toggle] button").get_attribute("aria-pressed"), "true", "the server agrees")

    def test_a_heart_stays_under_the_pointer_and_its_confirmation_is_a_toast(self):
        page = self.using("plain")
        page.new_playlist("Still Here")
        rect = "const r = document.querySelector('form[data-toggle] button').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]"
        before = page.js(rect)
        page.find("form[data-toggle] button").click()
        page.wait(lambda: "Added “Still Here” to favorites" in page.announced())
        page.settled()
        self.assertEqual(page.js(rect), before, "the heart moved when its confirmation came")
        toast = "const t = document.querySelector('#main [data-notice=confirmation]'); if (!t) return null; " \
            "const s = getComputedStyle(t); return [t.textContent, s.position, s.visibility, parseFloat(s.opacity)]"
        shown = page.js(toast)
        self.assertEqual(shown[:2], ["Added “Still Here” to favorites", "fixed"], "a toast over the page, not a banner in it")
        self.assertEqual(shown[2], "visible")
        # Gone by itself after the client core's 4 s, and taps pass through it meanwhile.
        page.wait(lambda: page.js(toast)[2] == "hidden", timeout=8, message="the toast never went away")
        self.assertEqual(page.js(rect), before)
        # The second tap's confirmation shows again, from the start, and the heart still has not moved.
        page.find("form[data-toggle] button").click()
        page.wait(lambda: "Removed “Still Here” from favorites" in page.announced())
        page.settled()
        page.wait(lambda: page.js(toast)[2] == "visible" and page.js(toast)[0].startswith("Removed"), timeout=3,
                  message="the second confirmation did not show")
        self.assertEqual(page.js(rect), before)

    def test_hearts_on_a_composer_a_work_and_a_recording_are_found_in_favorites(self):
        page = self.using("plain")
        hearts = "return [...document.querySelectorAll('form[data-toggle]')].map(f => [f.dataset.binding, f.querySelector('button').getAttribute('aria-pressed')])"
        page.open("/screens/composer/rachmaninoff")
        page.find("#section-favorite form[data-toggle] button").click()
        page.wait(lambda: "Added “Sergei Rachmaninoff” to favorites" in page.announced())
        page.settled()
        page.open("/screens/work/1")
        work_heart = page.find("#section-favorite form[data-toggle] button")
        self.assertEqual(work_heart.get_attribute("aria-pressed"), "false")
        work_heart.click()
        page.wait(lambda: "Added “Cello Suite No. 1” to favorites" in page.announced())
        page.settled()
        recording_heart = page.find("section[id^='section-recording-'] form[data-toggle] button")
        binding = page.find("section[id^='section-recording-'] form[data-toggle]").get_attribute("data-binding")
        self.assertTrue(binding.startswith("recording/"), binding)
        recording_heart.click()
        page.wait(lambda: "Added “Pablo Casals” to favorites" in page.announced())
        page.settled()
        # Reloaded: the server agrees.
        page.open("/screens/work/1")
        pressed = dict(page.js(hearts))
        self.assertEqual(pressed.get("work/1.favorite"), "true")
        self.assertEqual(pressed.get(binding), "true")
        # Favorites lists each kind, its heart pressed; un-hearting one there takes it out next time.
        page.open("/screens/favorites")
        main = page.find("#main").text
        for section, name in (("Composers", "Sergei Rachmaninoff"), ("Works", "Cello Suite No. 1"), ("Recordings", "Pablo Casals")):
            self.assertIn(section, main)
            self.assertIn(name, main)
        self.assertTrue(all(state == "true" for _, state in page.js(hearts)), page.js(hearts))
        page.shots("favorites-kinds")
        self.assertEqual([f"{v}" for v in page.axe()], [])
        page.find("#section-composers form[data-toggle] button").click()
        page.wait(lambda: "Removed “Sergei Rachmaninoff” from favorites" in page.announced())
        page.settled()
        page.open("/screens/favorites")
        self.assertNotIn("Sergei Rachmaninoff", page.find("#main").text)
        self.assertIn("Cello Suite No. 1", page.find("#main").text)

    def test_a_refused_favorite_flips_back_and_says_why(self):
        page = self.using("failing")
        page.new_playlist("Doomed")
        heart = page.find("form[data-toggle] button")
        heart.click()
        self.assertEqual(heart.get_attribute("aria-pressed"), "true", "flipped at once")
        page.wait(lambda: "failed" in page.announced())
        page.wait(lambda: page.find("form[data-toggle] button").get_attribute("aria-pressed") == "false")
        self.assertIn("failed", page.js("return document.querySelector('#main [data-notice=error]').textContent"))

    def test_dialogs_create_a_playlist_and_add_a_work(self):
        page = self.page
        page.open("/")
        opener = page.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'New playlist')]")
        opener.click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open]')"))
        self.assertEqual(page.js("return document.activeElement.id"), "prompt-value", "focus moves into the dialog")
        self.assertEqual(page.path(), "/", "a dialog is no page of its own")
        page.shot("dialog-prompt-desktop-light")
        self.assertEqual(page.axe(), [])
        # Too long: refused in place, with what was typed kept and the counter saying why.
        field = page.find("#prompt-value")
        field.send_keys("x" * 119)
        page.wait(lambda: "19 characters too many" in page.js("return document.querySelector('dialog .field-limit').textContent"))
        field.send_keys(Keys.ENTER)
        page.wait(lambda: page.js("return !!document.querySelector('dialog #prompt-value-error')"))
        self.assertEqual(len(page.find("dialog #prompt-value").get_attribute("value")), 119)
        # Escape closes, focus goes back where it was.
        page.find("dialog #prompt-value").send_keys(Keys.ESCAPE)
        page.wait(lambda: not page.js("return !!document.querySelector('dialog.sp-dialog[open]')"))
        self.assertIn("New playlist", page.js("return document.activeElement.textContent"))
        path = page.new_playlist("Road Trip")
        self.assertRegex(path, r"^/screens/playlist/\d+$", "created, and opened")
        # A work added through the choice.
        page.open("/screens/work/1")
        page.browser.find_element(By.XPATH, "//button[contains(., 'Add to playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        page.shot("dialog-choice-desktop-light")
        self.assertEqual(page.axe(), [])
        page.browser.find_element(By.XPATH, "//dialog//button[contains(., 'Road Trip')]").click()
        page.wait(lambda: "Added to “Road Trip”" in page.announced())
        self.assertFalse(page.js("return !!document.querySelector('dialog.sp-dialog[open]')"))
        page.open(path)
        self.assertIn("Cello Suite No. 1", page.js("return document.getElementById('main').textContent"))

    def test_a_recording_goes_into_a_new_playlist_and_plays_there(self):
        """Playlists of recordings: "Add to playlist" on a recording (not the work's first) makes a
        new playlist whose entry names its performers and plays that recording; adding the
        other recording from a track's ⋯ menu replaces it, and says so."""
        page = self.page
        page.open("/screens/work/6")
        page.settled()
        sections = page.browser.find_elements(By.CSS_SELECTOR, "#main section[id^='section-recording-']")
        self.assertEqual(len(sections), 2)
        first_section = sections[0].get_attribute("id")
        second = page.js("return arguments[0].querySelector('h2').textContent", sections[1])
        first = page.js("return arguments[0].querySelector('h2').textContent", sections[0])
        button = sections[1].find_element(By.XPATH, ".//button[contains(., 'Add to playlist')]")
        self.assertEqual(button.get_attribute("aria-label"), f"Add {second}'s recording to a playlist")
        page.shots("work-recording-actions")
        button.click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        page.browser.find_element(By.XPATH, "//dialog//button[contains(., 'New playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog #prompt-value')"))
        self.assertIn("The recording will be its first entry.", page.js("return document.querySelector('dialog.sp-dialog[open]').textContent"))
        field = page.find("#prompt-value")
        field.send_keys("Spring, twice")
        field.send_keys(Keys.ENTER)
        page.wait(lambda: page.path().startswith("/screens/playlist/"))
        page.settled()
        path = page.path()
        subtitle = "return document.querySelector('#section-works .row .subtitle').textContent"
        self.assertTrue(page.js(subtitle).endswith(second), page.js(subtitle))
        page.find("#section-about a.play[aria-label='Play all of Spring, twice']").click()
        bar = "return document.querySelector('#sp-player [data-slot=subtitle]').textContent"
        page.wait(lambda: not page.js("return document.getElementById('sp-player').hidden") and second in page.js(bar))
        page.find("#sp-player [data-player=toggle]").click()
        # The first recording, from a track row's ⋯: it replaces the second in the playlist.
        page.open("/screens/work/6")
        page.settled()
        more = page.find(f"#{first_section} details.more")
        more.find_element(By.CSS_SELECTOR, "summary").click()
        more.find_element(By.XPATH, ".//button[contains(., 'Add this recording to a playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        page.browser.find_element(By.XPATH, "//dialog//button[contains(., 'Spring, twice')]").click()
        page.wait(lambda: f"now plays {first}'s recording" in page.announced())
        page.open(path)
        self.assertTrue(page.js(subtitle).endswith(first), page.js(subtitle))
        self.assertEqual(len(page.browser.find_elements(By.CSS_SELECTOR, "#section-works .row")), 1, "a work is in a playlist once")

    def test_a_playlist_of_three_recordings_is_built_reordered_played_renamed_trimmed_and_deleted(self):
        """Three recordings (each its work's second, not the one a work plays by default), each
        added from its own section; the playlist names their performers, moves by the keyboard,
        plays the recording now first, is renamed, loses a row and is deleted after asking."""
        page = self.page
        path = page.new_playlist("Second takes")
        chosen = []
        for work in (1, 6, 11):
            page.open(f"/screens/work/{work}")
            page.settled()
            section = page.browser.find_elements(By.CSS_SELECTOR, "#main section[id^='section-recording-']")[1]
            chosen.append(page.js("return arguments[0].querySelector('h2').textContent", section))
            section.find_element(By.XPATH, ".//button[contains(., 'Add to playlist')]").click()
            page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
            page.browser.find_element(By.XPATH, "//dialog//button[contains(., 'Second takes')]").click()
            page.wait(lambda: "Added to “Second takes”" in page.announced())
        page.open(path)
        page.settled()
        rows = "return [...document.querySelectorAll('ol.reorder > li')].map(r => [r.querySelector('.title').textContent, r.querySelector('.subtitle').textContent])"
        shown = page.js(rows)
        self.assertEqual([subtitle.rsplit(" · ", 1)[1] for _, subtitle in shown], chosen, "each row names the recording chosen")
        # The third up twice, by the keyboard: it plays first.
        page.wait(lambda: page.js("return [...document.querySelectorAll('.reorder-handle')].every(h => h.offsetWidth > 0)"), message="no handles")
        page.browser.find_elements(By.CSS_SELECTOR, "ol.reorder > li .reorder-handle")[2].send_keys(Keys.ARROW_UP)
        page.browser.switch_to.active_element.send_keys(Keys.ARROW_UP)
        page.wait(lambda: "New order" in (page.js("return document.querySelector('[data-notice]')?.textContent") or ""), message="no confirmation")
        page.open(path)
        page.settled()
        self.assertEqual([title for title, _ in page.js(rows)], [shown[2][0], shown[0][0], shown[1][0]], "the server's order")
        page.find("#section-about a.play[aria-label='Play all of Second takes']").click()
        bar = "return document.querySelector('#sp-player [data-slot=subtitle]').textContent"
        page.wait(lambda: chosen[2] in page.js(bar), message="Play all starts with the recording moved first")
        page.find("#sp-player [data-player=toggle]").click()
        # Renamed, a row taken out, deleted after asking.
        page.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'Rename')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] #prompt-value')"))
        field = page.find("dialog #prompt-value")
        field.clear()
        field.send_keys("Second thoughts", Keys.ENTER)
        page.wait(lambda: "Renamed to “Second thoughts”" in page.announced())
        page.settled()
        gone = shown[0][0]
        page.find(f"#section-works button[aria-label='Remove {gone} from Second thoughts']").click()
        page.wait(lambda: f"Removed “{gone}” from “Second thoughts”" in page.announced())
        page.settled()
        page.wait(lambda: [title for title, _ in page.js(rows)] == [shown[2][0], shown[1][0]])
        page.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'Delete playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        page.find("dialog .choice").click()
        page.wait(lambda: page.path() == "/screens/library")

    def test_the_player_offers_what_the_track_playing_can_do(self):
        """A track's menu (v6) in the player: "…" opens it; its recording goes into a new playlist
        through the same choice and prompt as anywhere; its composer opens while it plays."""
        page = self.page
        page.open("/screens/work/6")
        page.settled()
        section = page.browser.find_elements(By.CSS_SELECTOR, "#main section[id^='section-recording-']")[1]
        performers = page.js("return arguments[0].querySelector('h2').textContent", section)
        section.find_element(By.CSS_SELECTOR, "a[data-play]").click()
        page.wait(lambda: not page.js("return document.getElementById('sp-player').hidden"))
        more = page.find("#sp-player [data-player=more]")
        page.wait(lambda: more.is_displayed())
        more.click()
        self.assertEqual(more.get_attribute("aria-expanded"), "true")
        items = "return [...document.querySelectorAll('#sp-track-menu .player-menu-item')].map(i => i.textContent)"
        self.assertEqual(page.js(items), ["Add this recording to a playlist", 'Go to Violin Concerto "Spring" (La primavera)', "Go to Antonio Vivaldi"])
        self.assertTrue(page.js("return document.activeElement.classList.contains('player-menu-item')"), "focus in the menu")
        self.assertEqual(page.axe(), [])
        page.shots("player-track-menu")
        page.browser.switch_to.active_element.send_keys(Keys.ENTER)
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        self.assertTrue(page.js("return document.getElementById('sp-track-menu').hidden"), "the menu closes once an action is chosen")
        page.browser.find_element(By.XPATH, "//dialog//button[contains(., 'New playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog #prompt-value')"))
        field = page.find("#prompt-value")
        field.send_keys("From the player")
        field.send_keys(Keys.ENTER)
        page.wait(lambda: page.path().startswith("/screens/playlist/"))
        page.settled()
        self.assertTrue(page.js("return document.querySelector('#section-works .row .subtitle').textContent").endswith(performers))
        # Its composer, while it plays on.
        more.click()
        page.browser.find_element(By.XPATH, "//section[@id='sp-track-menu']//a[contains(., 'Antonio Vivaldi')]").click()
        page.wait(lambda: page.path() == "/screens/composer/vivaldi")
        self.assertFalse(page.js("return document.getElementById('sp-audio').paused"), "the player plays on")
        self.assertTrue(page.js("return document.getElementById('sp-track-menu').hidden"))
        page.find("#sp-player [data-player=toggle]").click()

    def test_a_playlist_of_ones_own_is_renamed_trimmed_and_deleted_after_asking(self):
        page = self.page
        path = page.new_playlist("Sunday")
        for work in (1, 2):
            page.open(f"/screens/work/{work}")
            page.browser.find_element(By.XPATH, "//button[contains(., 'Add to playlist')]").click()
            page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
            page.browser.find_element(By.XPATH, "//dialog//button[contains(., 'Sunday')]").click()
            page.wait(lambda: "Added to “Sunday”" in page.announced())
        page.open(path)
        titles = "return [...document.querySelectorAll('#section-works .row .title')].map(t => t.textContent)"
        works = page.js(titles)
        self.assertEqual(len(works), 2)
        # Rename: the dialog shows the name it has; the new one is the page's title at once.
        page.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'Rename')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] #prompt-value')"))
        field = page.find("dialog #prompt-value")
        self.assertEqual(field.get_attribute("value"), "Sunday")
        field.clear()
        field.send_keys("Sunday Morning", Keys.ENTER)
        page.wait(lambda: "Renamed to “Sunday Morning”" in page.announced())
        page.settled()
        page.wait(lambda: page.find("#main h1").text == "Sunday Morning")
        # Take the first work out, from beside its row.
        page.find(f"#section-works button[aria-label='Remove {works[0]} from Sunday Morning']").click()
        page.wait(lambda: f"Removed “{works[0]}” from “Sunday Morning”" in page.announced())
        page.settled()
        page.wait(lambda: page.js(titles) == works[1:])
        self.assertEqual(page.axe(), [])
        # Delete: asked first; closing the question changes nothing; the answer opens the library.
        delete = "//nav[@class='menu']//button[contains(., 'Delete playlist')]"
        page.browser.find_element(By.XPATH, delete).click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        self.assertIn("Delete “Sunday Morning”?", page.find("dialog").text)
        page.shots("playlist-delete-asks")
        page.find("dialog .choice").send_keys(Keys.ESCAPE)
        page.wait(lambda: not page.js("return !!document.querySelector('dialog.sp-dialog[open]')"))
        self.assertEqual(page.path(), path)
        page.browser.find_element(By.XPATH, delete).click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        page.find("dialog .choice").click()
        page.wait(lambda: page.path() == "/screens/library")
        page.settled()
        self.assertNotIn("Sunday Morning", page.find("#main").text)
        page.open(path)
        self.assertIn("Page not found", page.find("h1").text)

    def test_a_shared_playlist_link_opens_for_someone_else_read_only(self):
        page = self.page
        page.new_playlist("Shared One")
        link = page.find("details.share").get_attribute("data-share-url")
        self.assertRegex(link, r"/screens/shared/[0-9a-f]{32}$")
        # Someone else: no cookie of the owner's.
        start_clean(self.browser)
        page.open("/" + link.split("/", 3)[-1])
        self.assertEqual(page.find("#main h1").text, "Shared One")
        self.assertIn("Shared playlist", page.find("#main").text)
        self.assertEqual(self.browser.find_elements(By.XPATH, "//button[contains(., 'Delete playlist')]"), [])
        self.assertEqual(page.axe(), [])

    def test_the_playlist_name_is_checked_as_it_is_typed(self):
        """A required name (v6): Create stays disabled while the name is blank, and the dialog says
        why once the listener has typed; the checking module loads only with the field."""
        page = self.page
        page.open("/")
        loaded = "return performance.getEntriesByType('resource').some(r => r.name.includes('/web/fields.js'))"
        self.assertFalse(page.js(loaded), "a page without such a field does not load the checks")
        page.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'New playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] #prompt-value')"))
        page.wait(lambda: page.js(loaded))
        create = "return document.querySelector('dialog button[type=submit]').disabled"
        message = "return document.getElementById('prompt-value-required').textContent"
        page.wait(lambda: page.js(create) is True)
        self.assertEqual(page.js(message), "", "nothing typed yet: no blame")
        field = page.find("#prompt-value")
        field.send_keys("Ro")
        page.wait(lambda: page.js(create) is False)
        # Cleared with the keyboard: the dialog says why, Create is disabled, Enter sends nothing.
        field.send_keys(Keys.BACKSPACE, Keys.BACKSPACE)
        page.wait(lambda: page.js(message) == "Name the playlist")
        self.assertTrue(page.js(create))
        self.assertEqual(page.js("return document.getElementById('prompt-value-limit').textContent"), "0 of 100 characters")
        self.assertEqual(page.find("#prompt-value").get_attribute("aria-invalid"), "true")
        self.assertIn("prompt-value-required", page.find("#prompt-value").get_attribute("aria-describedby"))
        page.shots("dialog-name-required")
        self.assertEqual([f"{v}" for v in page.axe()], [])
        field.send_keys("   ")
        self.assertEqual(page.js(message), "Name the playlist", "spaces are no name")
        field.send_keys(Keys.ENTER)
        time.sleep(0.3)
        self.assertEqual(page.path(), "/", "nothing was sent")
        self.assertTrue(page.js("return !!document.querySelector('dialog.sp-dialog[open]')"))
        field.send_keys("Evening")
        page.wait(lambda: page.js(message) == "")
        self.assertEqual(page.find("#prompt-value").get_attribute("aria-invalid"), "false")
        field.send_keys(Keys.ENTER)
        page.wait(lambda: page.path().startswith("/screens/playlist/"))
        page.settled()
        self.assertIn("Evening", page.js("return document.querySelector('#main h1').textContent"))

    def test_an_open_page_follows_a_change_made_in_another_tab(self):
        page = self.page
        path = page.new_playlist("Two Tabs")
        first = self.browser.current_window_handle
        self.assertIn("/web/events?screens=playlist/", page.js("return document.getElementById('main').dataset.live"))
        page.watch_pressed("form[data-toggle] button")
        self.browser.switch_to.new_window("tab")
        try:
            page.open(path)
            clicked = page.js("return Date.now()")
            page.find("form[data-toggle] button").click()
            page.wait(lambda: "Added “Two Tabs” to favorites" in page.announced())
        finally:
            self.browser.close()
            self.browser.switch_to.window(first)
        page.wait(lambda: page.js("return !!window.changedAt"), timeout=5, message="the first tab never heard of the change")
        took = page.js("return window.changedAt") - clicked
        print(f"\n    another tab's favorite shown here after {took} ms", file=sys.stderr)
        self.assertLess(took, 1500)
        self.assertTrue(page.js("return window.stillHere === true"), "updated in place, not reloaded")
        self.assertEqual(page.find("form[data-toggle] button").get_attribute("aria-pressed"), "true")

    def test_a_new_listeners_first_write_makes_their_other_tab_live(self):
        # No cookie yet: both tabs open the playlist (and its stream) as an anonymous reader.
        page = self.page
        page.open("/screens/playlist/1")
        self.assertIsNone(self.browser.get_cookie("screenplay_token"), "a fresh listener")
        other = self.browser.current_window_handle
        page.watch_pressed("form[data-binding='playlist/1.favorite'] button")
        self.browser.switch_to.new_window("tab")
        try:
            page.open("/screens/playlist/1")
            heart = page.find("form[data-binding='playlist/1.favorite'] button")
            self.assertEqual(heart.get_attribute("aria-pressed"), "false")
            heart.click()
            page.wait(lambda: "favorites" in page.announced(), message="the first heart was not answered")
            self.assertIsNotNone(self.browser.get_cookie("screenplay_token"), "the first write gave the listener an identity")
            self.assertEqual(self.browser.get_cookie("screenplay_listener")["httpOnly"], False, "the script may read it")
        finally:
            self.browser.close()
            self.browser.switch_to.window(other)
        page.wait(lambda: page.js("return !!window.changedAt"), timeout=10, message="the other tab never showed the first heart")
        self.assertTrue(page.js("return window.stillHere === true"), "updated in place, not reloaded")
        self.assertEqual(page.find("form[data-binding='playlist/1.favorite'] button").get_attribute("aria-pressed"), "true")

    def test_a_refresh_keeps_what_was_typed_and_the_focus(self):
        page = self.page
        page.open("/screens/search?q=bach")
        field = page.find("#field-query")
        field.clear()
        field.send_keys("half-typed")
        page.js("window.marker = document.querySelector('#section-results .row'); window.marker.kept = 'yes'")
        page.js("window.screenplay.refresh()")
        page.wait(lambda: page.js("return !!window.marker && window.marker.isConnected"))
        time.sleep(0.5)
        self.assertEqual(page.find("#field-query").get_attribute("value"), "half-typed")
        self.assertEqual(page.js("return document.activeElement.id"), "field-query")
        self.assertTrue(page.js("return window.marker.isConnected && window.marker.kept === 'yes' && window.marker === document.querySelector('#section-results .row')"),
                        "an unchanged node is the same element")

    def test_back_and_forward_never_resubmit_and_never_show_old_state(self):
        page = self.page
        page.open("/")
        self.assertEqual(self.browser.title, "Screenplay Classical", "the site's name once")
        box = page.find("#site-search")
        box.send_keys("chopin ballade")
        box.send_keys(Keys.ENTER)
        page.wait(lambda: page.path() == "/screens/search?q=chopin+ballade")
        page.settled()
        self.assertIn("Results for “chopin ballade”", page.js("return document.getElementById('main').textContent"))
        self.assertFalse(page.find(".site-search").is_displayed(), "the search page has its own field")
        # A search from the page's own field is a step of its own: Back returns to these results.
        field = page.find("#field-query")
        field.clear()
        field.send_keys("bethoven" + Keys.ENTER)
        page.wait(lambda: page.path() == "/screens/search?q=bethoven")
        page.settled()
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/search?q=chopin+ballade")
        page.settled()
        self.assertIn("Results for “chopin ballade”", page.js("return document.getElementById('main').textContent"))
        self.browser.forward()
        page.wait(lambda: page.path() == "/screens/search?q=bethoven")
        page.settled()
        page.find("#section-results .row a").click()
        page.settled()
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/search?q=bethoven")
        page.settled()
        self.assertTrue(page.is_site_page())
        self.assertIn("Results for “bethoven”", page.js("return document.getElementById('main').textContent"))
        self.browser.forward()
        page.settled()
        self.assertTrue(page.is_site_page())
        # A favorite, then elsewhere, then Back: the heart as it is now.
        path = page.new_playlist("Evening")
        page.find("form[data-toggle] button").click()
        page.wait(lambda: "Added" in page.announced())
        page.find(".site-header nav a[href='/screens/library']").click()
        page.settled()
        self.browser.back()
        page.wait(lambda: page.path() == path)
        page.settled()
        self.assertEqual(page.find("form[data-toggle] button").get_attribute("aria-pressed"), "true")
        # A choice opened and dismissed, then Back and Forward: pages, never a form resubmission.
        page.open("/screens/work/1")
        page.browser.find_element(By.XPATH, "//button[contains(., 'Add to playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open]')"))
        page.find("dialog [data-dialog-close]").click()
        self.browser.back()
        page.settled()
        self.assertTrue(page.is_site_page())
        self.browser.forward()
        page.settled()
        self.assertTrue(page.is_site_page())

    def test_a_failed_load_says_so_in_place_and_retries(self):
        page = self.page
        page.open("/")
        self.browser.execute_cdp_cmd("Network.enable", {})
        self.browser.execute_cdp_cmd(
            "Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        try:
            page.find("#section-all-composers .row a[href='/screens/composer/bach']").click()
            page.wait(lambda: page.js("return !!document.querySelector('#main [data-slot=failure]:not([hidden])')"))
            # The carried header stays, with the error and a retry under it.
            self.assertEqual(page.js("return document.querySelector('#main h1').textContent"), "Johann Sebastian Bach")
            page.wait(lambda: "could not be loaded" in page.announced())
            self.assertEqual(page.path(), "/screens/composer/bach")
            page.shot("failed-load-desktop-light")
        finally:
            self.browser.execute_cdp_cmd(
                "Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        page.find("#main [data-retry]").click()
        page.settled()
        page.wait(lambda: page.js("return document.querySelectorAll('#main section').length") > 1)

    def test_share_copies_the_link_and_says_so(self):
        page = self.page
        page.open("/screens/work/1")
        self.browser.execute_cdp_cmd(
            "Browser.grantPermissions", {"origin": page.server.root, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        page.find("details.share > summary").click()
        page.wait(lambda: page.announced() == "Link copied")
        copied = self.browser.execute_async_script(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('error: ' + e))")
        self.assertEqual(copied, page.server.root + "/screens/work/1")
        self.assertEqual(page.path(), "/screens/work/1", "no reload, no jump")

    def test_an_offer_on_the_shop_opens_its_work_and_back_returns_to_the_shop(self):
        page = self.page
        page.open("/screens/shop")
        # The offer is a button (its tap is a command the server counts), named by what it shows,
        # with the site's focus ring.
        offer = page.find("#section-featured .row form button.row-button")
        title = offer.find_element(By.CSS_SELECTOR, ".title").text
        self.assertTrue(title)
        page.js("arguments[0].focus()", offer)
        self.assertEqual(page.js("return document.activeElement"), offer)
        self.assertEqual(page.js("return getComputedStyle(arguments[0]).outlineStyle", offer), "solid")
        offer.click()
        page.wait(lambda: page.path().startswith("/screens/work/"))
        page.settled()
        self.assertEqual(page.js("return document.querySelector('#main .hero h1').textContent"), title)
        # The buy button opens the work too.
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/shop")
        page.settled()
        self.assertTrue(page.is_site_page())
        page.find("#section-deal form.inline button.action").click()
        page.wait(lambda: page.path().startswith("/screens/work/"))
        page.settled()
        self.assertTrue(page.js("return !!document.querySelector('#main .hero h1')"))

    def test_every_screen_passes_axe_in_light_and_dark_and_is_looked_at(self):
        page = self.page
        playlist = page.new_playlist(LONGEST_NAME)
        page.find("form[data-toggle] button").click()
        page.wait(lambda: "Added" in page.announced())
        paths = ["/", "/screens/composer/dvorak", "/screens/work/1", playlist, "/screens/library", "/screens/favorites",
                 "/screens/search?q=mozzart", "/screens/search", "/screens/cities", "/screens/shop", "/screens/playlist/1", "/nowhere"]
        problems = []
        for dark in (False, True):
            page.dark(dark)
            for width, size in ((1280, "desktop"), (390, "phone")):
                page.width(width)
                for path in paths:
                    page.open(path)
                    page.settled()
                    name = (path.strip("/").replace("/", "-").replace("?", "-").replace("=", "-") or "home")
                    if path == playlist:
                        name = "playlist-longest-name"
                    page.shot(f"{name}-{size}-{'dark' if dark else 'light'}")
                    if size == "phone":
                        overflow = page.js("return document.documentElement.scrollWidth - window.innerWidth")
                        if overflow > 0:
                            problems.append(f"{path} at 390 px: {overflow} px wider than the screen")
                    else:
                        problems += [f"{path} ({'dark' if dark else 'light'}): {v}" for v in page.axe()]
            # The dialogs: a prompt and a choice.
            page.width(1280)
            page.open("/")
            page.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'New playlist')]").click()
            page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open]')"))
            problems += [f"prompt dialog ({'dark' if dark else 'light'}): {v}" for v in page.axe()]
            page.shot(f"dialog-prompt-desktop-{'dark' if dark else 'light'}")
            page.open("/screens/work/1")
            page.browser.find_element(By.XPATH, "//button[contains(., 'Add to playlist')]").click()
            page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
            problems += [f"choice dialog ({'dark' if dark else 'light'}): {v}" for v in page.axe()]
            page.shot(f"dialog-choice-desktop-{'dark' if dark else 'light'}")
            # The player bar, playing.
            page.open("/screens/work/1")
            page.find("a[data-play]").click()
            page.wait(lambda: page.js("return !document.getElementById('sp-player').hidden"))
            problems += [f"player ({'dark' if dark else 'light'}): {v}" for v in page.axe()]
            page.js("document.getElementById('sp-audio').pause()")
        self.assertEqual(problems, [])

    def test_the_works_filter_and_the_playing_row_answer_with_no_request(self):
        """Client state (v6): the composer's works filter and the work page's playing row are the
        page's own bindings, run by the script with no request to the server."""
        page = self.page
        page.open("/screens/composer/mozart")
        page.settled()
        rows = "Array.from(document.querySelectorAll('#section-works .row'))"
        shown = lambda: page.js(f"return {rows}.filter(r => !r.hidden && r.offsetParent).map(r => r.querySelector('.title').textContent)")
        everything = shown()
        self.assertGreater(len(everything), 2)
        page.js("window.requests = 0; const seen = window.fetch; window.fetch = (...a) => { window.requests++; return seen(...a); };"
                "window.stillHere = true;")
        field = page.find("input[name='storage.filter']")
        field.send_keys("REQU")
        page.wait(lambda: shown() == ["Requiem"])
        self.assertFalse(page.js("return document.querySelector('#section-works .text:not([hidden])')?.textContent === 'No work matches the filter.'"))
        # A typo matches nothing: the page says so; then the keyboard takes it back.
        field.send_keys("x")
        page.wait(lambda: shown() == [])
        self.assertTrue(page.js("return [...document.querySelectorAll('#section-works .text')].some(t => !t.hidden && t.textContent === 'No work matches the filter.')"))
        page.shots("composer-filter-nothing")
        field.send_keys(Keys.BACKSPACE)
        page.wait(lambda: shown() == ["Requiem"])
        page.shot("composer-filter-desktop-light")
        for _ in range(4):
            field.send_keys(Keys.BACKSPACE)
        page.wait(lambda: shown() == everything)
        self.assertEqual(page.js("return window.requests"), 0, "filtering asked the server")
        self.assertTrue(page.js("return window.stillHere === true"), "no page load")

        # The playing row: marked when its track plays, wherever the player was started; Back
        # and forward keep the mark on the row of the track that plays.
        page.open("/screens/work/1")
        page.settled()
        self.assertEqual(page.js("return document.querySelectorAll('[aria-current=true]').length"), 0)
        second = page.browser.find_elements(By.CSS_SELECTOR, "#main .row a[data-play]")[1]
        track = second.get_attribute("data-play")
        second.click()
        page.wait(lambda: page.js("return document.getElementById('sp-audio').currentTime") > 0.2)
        current = "return [...document.querySelectorAll('#main [aria-current=true]')].map(r => r.querySelector('a[data-play]')?.dataset.play)"
        page.wait(lambda: page.js(current) == [track])
        page.shot("work-playing-row-desktop-light")
        page.find("#section-composer .row a").click()
        page.settled()
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/work/1")
        page.settled()
        page.wait(lambda: page.js(current) == [track])
        page.shots("work-playing-row")
        page.js("document.getElementById('sp-audio').pause()")
        self.assertEqual([f"{v}" for v in page.axe()], [])

    def test_the_playing_work_is_marked_in_every_list(self):
        """The row of what plays (v6): a work's row on its composer's page, in search results and
        in a playlist, and its recording's row in search results, all from the player's state."""
        page = self.page
        path = page.new_playlist("Marked")
        page.open("/screens/work/1")
        page.settled()
        page.browser.find_element(By.XPATH, "//button[contains(., 'Add to playlist')]").click()
        page.wait(lambda: page.js("return !!document.querySelector('dialog.sp-dialog[open] .choice')"))
        page.browser.find_element(By.XPATH, "//dialog//button[contains(., 'Marked')]").click()
        page.wait(lambda: "Added to “Marked”" in page.announced())
        marked = "return [...document.querySelectorAll('#main [aria-current=true]')].map(r => r.querySelector('.title')?.textContent)"
        self.assertEqual(page.js(marked), [])
        page.browser.find_elements(By.CSS_SELECTOR, "#main .row a[data-play]")[2].click()
        page.wait(lambda: page.js("return document.getElementById('sp-audio').currentTime") > 0.2)
        page.find("#section-composer .row a").click()
        page.settled()
        page.wait(lambda: page.js(marked) == ["Cello Suite No. 1", "Cello Suite No. 1"], message="popular and all works")
        page.shot("composer-playing-work-desktop-light")
        # Search with the site's box: the work and the recording that plays are marked, the other
        # recording of the same work is not.
        box = page.find("#site-search")
        box.send_keys("cello suite", Keys.ENTER)
        page.wait(lambda: page.path().startswith("/screens/search"))
        page.settled()
        page.wait(lambda: page.js(marked) == ["Cello Suite No. 1", "Pablo Casals"])
        page.shots("search-playing")
        page.open(path)
        page.settled()
        page.wait(lambda: page.js(marked) == ["Cello Suite No. 1"])
        self.assertEqual([f"{v}" for v in page.axe()], [])
        page.js("document.getElementById('sp-audio').pause()")

    def test_playback_resumes_after_a_reload_where_it_stopped(self):
        """The player is kept in the browser (v6's app scope): after a reload the bar shows the
        track, paused where it stopped, its row marked; Play goes on from there."""
        page = self.page
        page.open("/screens/work/1")
        page.settled()
        second = page.browser.find_elements(By.CSS_SELECTOR, "#main .row a[data-play]")[1]
        track, title = second.get_attribute("data-play"), second.get_attribute("data-track-title")
        second.click()
        audio = "document.getElementById('sp-audio')"
        page.wait(lambda: page.js(f"return Number.isFinite({audio}.duration) && {audio}.currentTime > 0.2"))
        page.js("const s = document.querySelector('#sp-player [data-player=seek]'); s.value = '40'; s.dispatchEvent(new Event('input'))")
        page.wait(lambda: page.js(f"return {audio}.currentTime") >= 40)
        page.find("#sp-player [data-player=toggle]").click()
        page.wait(lambda: page.js(f"return {audio}.paused"))
        stopped = page.js(f"return {audio}.currentTime")

        self.browser.refresh()
        page.wait(lambda: page.js("return document.readyState") == "complete")
        page.settled()
        self.assertFalse(page.js("return document.getElementById('sp-player').hidden"), "the bar is back")
        self.assertEqual(page.js("return document.querySelector('#sp-player [data-slot=title]').textContent"), title)
        self.assertTrue(page.js(f"return {audio}.paused"), "a reload does not start sound by itself")
        self.assertAlmostEqual(page.js(f"return {audio}.currentTime"), stopped, delta=1)
        elapsed = page.js("return document.querySelector('#sp-player [data-slot=elapsed]').textContent")
        self.assertEqual(elapsed, f"0:{int(stopped):02d}")
        self.assertEqual(page.js("return document.querySelector('#sp-player [data-player=toggle]').getAttribute('aria-label')"), "Play")
        current = "return [...document.querySelectorAll('#main [aria-current=true]')].map(r => r.querySelector('a[data-play]')?.dataset.play)"
        page.wait(lambda: page.js(current) == [track])
        page.shots("player-resumed")
        # Play with the keyboard: it goes on from where it stopped, not from the start.
        page.js("document.querySelector('#sp-player [data-player=toggle]').focus()")
        page.browser.switch_to.active_element.send_keys(Keys.SPACE)
        page.wait(lambda: not page.js(f"return {audio}.paused") and page.js(f"return {audio}.currentTime") > stopped + 0.2)
        self.assertLess(page.js(f"return {audio}.currentTime"), stopped + 10)
        # Next still follows the queue that was kept.
        page.find("#sp-player [data-player=next]").click()
        page.wait(lambda: page.js("return document.querySelector('#sp-player [data-slot=title]').textContent").startswith("III."))
        page.js(f"{audio}.pause()")

    def test_a_biography_folds_and_unfolds_with_no_request(self):
        """Show more (v6): a composer's biography shows its first paragraph; the button unfolds
        the rest and folds it again, by mouse or keyboard, with no request."""
        page = self.page
        page.open("/screens/composer/mozart")
        page.settled()
        paragraphs = "return [...document.querySelectorAll('#section-biography p')].filter(p => p.offsetParent).length"
        toggle = "//section[@id='section-biography']//button[normalize-space()='Show more' or normalize-space()='Show less']"
        self.assertEqual(page.js(paragraphs), 1, "folded to its first paragraph")
        button = page.browser.find_element(By.XPATH, toggle)
        self.assertEqual(button.text, "Show more")
        page.js("window.requests = 0; const seen = window.fetch; window.fetch = (...a) => { window.requests++; return seen(...a); };"
                "window.stillHere = true;")
        button.click()
        page.wait(lambda: page.js(paragraphs) == 3)
        self.assertEqual(page.browser.find_element(By.XPATH, toggle).text, "Show less")
        page.shots("biography-unfolded")
        page.browser.find_element(By.XPATH, toggle).send_keys(Keys.ENTER)
        page.wait(lambda: page.js(paragraphs) == 1)
        self.assertEqual(page.browser.find_element(By.XPATH, toggle).text, "Show more")
        page.shot("biography-folded-desktop-light")
        self.assertEqual(page.js("return window.requests"), 0, "folding asked the server")
        self.assertTrue(page.js("return window.stillHere === true"), "no page load")
        self.assertEqual([f"{v}" for v in page.axe()], [])

    def test_the_search_field_says_what_is_wrong_as_it_is_typed(self):
        """A verdict computed from the state (v6): one character says why Search waits and
        disables it, the second clears both, with no request; then Enter searches."""
        page = self.page
        page.open("/screens/search")
        page.settled()
        field = page.find("input[name='storage.query']")
        submit = page.find("#section-field form button[type=submit]")
        note = "return document.getElementById('field-query-computed').textContent"
        self.assertEqual(page.js(note), "")
        self.assertTrue(submit.is_enabled(), "nothing typed yet: nothing to blame")
        page.js("window.requests = 0; const seen = window.fetch; window.fetch = (...a) => { window.requests++; return seen(...a); };"
                "window.stillHere = true;")
        field.send_keys("m")
        page.wait(lambda: page.js(note) == "Type at least two characters")
        self.assertFalse(submit.is_enabled())
        self.assertEqual(field.get_attribute("aria-invalid"), "true")
        page.shots("search-verdict")
        field.send_keys("o")
        page.wait(lambda: page.js(note) == "")
        self.assertTrue(submit.is_enabled())
        self.assertEqual(page.js("return window.requests"), 0, "the verdict asked the server")
        self.assertTrue(page.js("return window.stillHere === true"), "no page load")
        self.assertEqual([f"{v}" for v in page.axe()], [])
        field.send_keys("zart", Keys.ENTER)
        page.wait(lambda: "q=mozart" in page.browser.current_url)
        page.settled()
        self.assertIn("Results for", page.browser.find_element(By.CSS_SELECTOR, "#section-results h2").text)

    def test_the_search_box_suggests_as_you_type_with_the_keyboard_and_the_mouse(self):
        """A combobox: after a pause in typing, the suggestions page's rows under the box; arrows
        move, Enter opens the one chosen (the carried header at once, no page load), Escape closes,
        and Enter with none chosen searches as before. A typo is suggested too."""
        page = self.page
        page.open("/")
        page.js("window.stillHere = true")
        box = page.find("#site-search")
        box.click()
        page.wait(lambda: page.find("#site-search").get_attribute("role") == "combobox", message="the module never attached")
        box.send_keys("rach")
        options = "return [...document.querySelectorAll('#site-search-suggestions [role=option]')].map(o => o.textContent.trim())"
        page.wait(lambda: len(page.js(options)) > 0, message="no suggestions came")
        self.assertTrue(page.js(options)[0].startswith("Sergei Rachmaninoff"), page.js(options))
        self.assertEqual(box.get_attribute("aria-expanded"), "true")
        self.assertLessEqual(len(page.js(options)), 8)
        page.wait(lambda: "suggestion" in page.announced())
        page.shots("search-suggestions")
        self.assertEqual([f"{v}" for v in page.axe()], [])
        # Down twice, up once: the first again; Enter opens it in place.
        box.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_UP)
        active = box.get_attribute("aria-activedescendant")
        self.assertEqual(active, "site-search-suggestions-0")
        self.assertEqual(page.js("return document.getElementById(arguments[0]).getAttribute('aria-selected')", active), "true")
        box.send_keys(Keys.ENTER)
        page.wait(lambda: page.path() == "/screens/composer/rachmaninoff")
        page.settled()
        self.assertTrue(page.js("return window.stillHere === true"), "opened in place, no page load")
        self.assertTrue(page.js("return document.getElementById('site-search-suggestions').hidden"))
        # A typo: suggested anyway, with the catalog's spelling offered; Escape closes, and Enter
        # with nothing chosen searches what was typed.
        box = page.find("#site-search")
        box.send_keys("tschaikowsky")
        page.wait(lambda: any(o.startswith("Pyotr Ilyich Tchaikovsky") for o in page.js(options)), message=f"{page.js(options)}")
        self.assertTrue(page.js(options)[-1].startswith("Did you mean “Tchaikovsky”?"))
        box.send_keys(Keys.ESCAPE)
        self.assertEqual(box.get_attribute("aria-expanded"), "false")
        box.send_keys(Keys.ENTER)
        page.wait(lambda: "q=tschaikowsky" in page.browser.current_url)
        page.settled()
        # The mouse: a click on a suggestion opens it.
        page.open("/")
        box = page.find("#site-search")
        box.click()
        box.send_keys("bwv 10")
        page.wait(lambda: any(o.startswith("Cello Suite No. 1") for o in page.js(options)), message=f"{page.js(options)}")
        page.find("#site-search-suggestions [role=option]").click()
        page.wait(lambda: page.path().startswith("/screens/work/"))

    def test_the_search_pages_own_field_suggests_as_you_type_too(self):
        """The search page's field names its suggestions (v6): the same combobox under it, with a
        typo forgiven; a chosen suggestion opens in place; Enter with none chosen searches."""
        page = self.page
        page.open("/screens/search")
        page.settled()
        page.js("window.stillHere = true")
        field = page.find("#field-query")
        field.click()
        page.wait(lambda: page.find("#field-query").get_attribute("role") == "combobox", message="the module never attached")
        field.send_keys("rachmaninov")
        options = "return [...document.querySelectorAll('#field-query-suggestions [role=option]')].map(o => o.textContent.trim())"
        page.wait(lambda: len(page.js(options)) > 0, message="no suggestions came")
        self.assertTrue(page.js(options)[0].startswith("Sergei Rachmaninoff"), page.js(options))
        self.assertEqual(field.get_attribute("aria-expanded"), "true")
        page.shots("search-page-suggestions")
        self.assertEqual([f"{v}" for v in page.axe()], [])
        field.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
        page.wait(lambda: page.path() == "/screens/composer/rachmaninoff")
        self.assertTrue(page.js("return window.stillHere === true"), "opened in place, no page load")
        # Enter with none chosen searches, as the form always did.
        page.open("/screens/search")
        page.settled()
        field = page.find("#field-query")
        field.click()
        field.send_keys("bach")
        page.wait(lambda: len(page.js(options)) > 0)
        field.send_keys(Keys.ESCAPE, Keys.ENTER)
        page.wait(lambda: "q=bach" in page.browser.current_url)

    def test_notices_and_errors_are_readable_in_dark_mode(self):
        page = self.using("failing")
        page.dark(True)
        page.new_playlist("Night Notice")
        page.find("form[data-toggle] button").click()
        page.wait(lambda: page.js("return !!document.querySelector('#main [data-notice=error]')"))
        colors = page.js("const s = getComputedStyle(document.querySelector('#main [data-notice=error]')); return [s.color, s.backgroundColor]")
        self.assertGreaterEqual(contrast(*colors), 4.5, colors)
        page = self.using("plain")
        page.dark(True)
        page.new_playlist("Day Notice")
        page.find("form[data-toggle] button").click()
        page.wait(lambda: "Added" in page.announced())
        # The confirmation as the page shows it without the script's morph: the redirect's page.
        page.open(page.path())
        page.js("document.querySelector('#main').insertAdjacentHTML('afterbegin', '<p class=\"notice\" role=\"status\">x</p>')")
        colors = page.js("const s = getComputedStyle(document.querySelector('#main .notice')); return [s.color, s.backgroundColor]")
        self.assertGreaterEqual(contrast(*colors), 4.5, colors)


class WithoutJavaScript(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = chromium(javascript=False)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()

    def setUp(self):
        start_clean(self.browser)
        self.page = Page(self.browser, SERVERS["plain"])

    def new_playlist(self, name):
        """Creates a playlist through home's menu as a page of its own (no script); it opens."""
        page = self.page
        page.open("/")
        self.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'New playlist')]").click()
        page.wait(lambda: page.path().startswith("/web/results/"))
        page.find("#prompt-value").send_keys(name + Keys.ENTER)
        page.wait(lambda: page.path().startswith("/screens/playlist/"))

    def test_every_flow_works_as_links_and_forms(self):
        page = self.page
        page.open("/")
        self.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'New playlist')]").click()
        page.wait(lambda: page.path().startswith("/web/results/"))
        prompt = page.path()
        field = page.find("#prompt-value")
        field.send_keys("y" * 119 + Keys.ENTER)
        page.wait(lambda: page.js("return !!document.querySelector('.field-error')"))
        self.assertEqual(page.path(), prompt, "refused: back to the prompt, by redirect")
        self.assertEqual(len(page.find("#prompt-value").get_attribute("value")), 119, "what was typed is kept")
        field = page.find("#prompt-value")
        field.clear()
        field.send_keys("Mornings" + Keys.ENTER)
        page.wait(lambda: page.path().startswith("/screens/playlist/"))
        playlist = page.path()
        # Back from the new playlist: the page that asked (home), not the answered prompt, and no
        # form to send again.
        self.browser.back()
        page.wait(lambda: page.path() == "/")
        self.assertEqual(len(self.browser.find_elements(By.ID, "prompt-value")), 0)
        self.assertIn("Mornings", self.browser.find_element(By.ID, "main").text, "home as it is now, with the new playlist")
        self.browser.forward()
        page.wait(lambda: page.path() == playlist)
        page.find("form.inline button.favorite").click()
        page.wait(lambda: "notice=" in page.path())
        self.assertEqual(page.find("button.favorite").get_attribute("aria-pressed"), "true")
        self.assertIn("Added", page.find(".notice").text)
        self.assertEqual(page.find(".notice").value_of_css_property("position"), "fixed", "a toast, without the script too")
        # Back: the page from before the favorite, as it is now; no banner replayed.
        self.browser.back()
        page.wait(lambda: page.path() == playlist)
        self.assertTrue(page.is_site_page())
        self.assertEqual(page.find("button.favorite").get_attribute("aria-pressed"), "true")
        self.browser.forward()
        page.wait(lambda: "notice=" in page.path())
        self.assertTrue(page.is_site_page())
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#main .notice")), 0, "a banner is shown once")
        # Search from the header: a GET URL; Back to it is the results again.
        page.find("#site-search").send_keys("dvorak" + Keys.ENTER)
        page.wait(lambda: page.path() == "/screens/search?q=dvorak")
        self.assertIn("Antonín Dvořák", page.find("#section-results").text)
        page.find("#section-results .row a").click()
        page.wait(lambda: page.path().startswith("/screens/composer/"))
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/search?q=dvorak")
        self.assertTrue(page.is_site_page())
        # A choice: a page of its own; choosing goes back with the banner.
        page.open("/screens/work/1")
        self.browser.find_element(By.XPATH, "//button[contains(., 'Add to playlist')]").click()
        page.wait(lambda: page.path().startswith("/web/results/"))
        self.browser.find_element(By.XPATH, "//button[contains(., 'Mornings')]").click()
        page.wait(lambda: page.path().startswith("/screens/work/1?notice="))
        self.assertIn("Added to “Mornings”", page.find(".notice").text)
        # Back past the answered choice: the work that asked, without the banner.
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/work/1")
        self.assertTrue(page.is_site_page())
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#main .notice")), 0)
        # An offer on the shop is a form: it lands on the work; Back is the shop, never a resubmission.
        page.open("/screens/shop")
        title = page.find("#section-featured .row button.row-button .title").text
        page.find("#section-featured .row button.row-button").click()
        page.wait(lambda: page.path().startswith("/screens/work/"))
        self.assertEqual(page.find("#main .hero h1").text, title)
        self.browser.back()
        page.wait(lambda: page.path() == "/screens/shop")
        self.assertTrue(page.is_site_page())
        # Play is a link to the stream; the carousel still scrolls (by keyboard, its buttons hidden).
        page.open("/screens/work/1")
        self.assertTrue(page.find("a[data-play]").get_attribute("href").endswith(".wav"))
        page.open("/")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".carousel").get_attribute("tabindex"), "0")
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, ".carousel-scroll").is_displayed())

    def test_without_the_script_a_playlist_is_renamed_and_deleted_after_asking(self):
        page = self.page
        self.new_playlist("Plain")
        playlist = page.path()
        self.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'Rename')]").click()
        page.wait(lambda: page.path().startswith("/web/results/"))
        field = page.find("#prompt-value")
        self.assertEqual(field.get_attribute("value"), "Plain")
        field.clear()
        field.send_keys("Plainer" + Keys.ENTER)
        page.wait(lambda: page.path().startswith(playlist + "?notice="))
        self.assertEqual(page.find("#main h1").text, "Plainer")
        self.browser.find_element(By.XPATH, "//nav[@class='menu']//button[contains(., 'Delete playlist')]").click()
        page.wait(lambda: page.path().startswith("/web/results/"))
        self.assertIn("Delete “Plainer”?", page.find("#main").text)
        self.browser.find_element(By.XPATH, "//button[contains(., 'Delete “Plainer”')]").click()
        page.wait(lambda: page.path() == "/screens/library")
        self.assertNotIn("Plainer", page.find("#main").text)
        # Back: past the answered question, the playlist is gone.
        self.browser.back()
        page.wait(lambda: page.path() != "/screens/library")
        self.assertIn("Page not found", page.find("h1").text)

    def test_without_the_script_a_playlist_is_reordered_by_its_move_buttons(self):
        """Without the script the reorderable list is an ordered list whose rows each have a Move
        up and a Move down form: each moves one place, back on the playlist with the new order."""
        page = self.page
        self.new_playlist("Moves")
        playlist = page.path().split("?")[0]
        for work in (2, 6):
            page.open(f"/screens/work/{work}")
            self.browser.find_element(By.XPATH, "//button[contains(., 'Add to playlist')]").click()
            page.wait(lambda: page.path().startswith("/web/results/"))
            self.browser.find_element(By.XPATH, "//button[contains(., 'Moves')]").click()
            page.wait(lambda: not page.path().startswith("/web/results/"))
        page.open(playlist)
        titles = lambda: [t.text for t in self.browser.find_elements(By.CSS_SELECTOR, "ol.reorder > li .title")]
        first, second = titles()
        handles = self.browser.find_elements(By.CSS_SELECTOR, ".reorder-handle")
        self.assertTrue(all(not h.is_displayed() for h in handles), "no handle without the script")
        up = self.browser.find_elements(By.CSS_SELECTOR, "ol.reorder > li:nth-child(2) .reorder-move")[0]
        self.assertEqual(up.get_attribute("aria-label"), f"Move {second} up in Works of Moves")
        up.click()
        page.wait(lambda: "New order" in page.find("#main").text)
        self.assertEqual(titles(), [second, first])
        self.assertTrue(page.path().startswith(playlist))
        disabled = self.browser.find_elements(By.CSS_SELECTOR, "ol.reorder > li:nth-child(1) .reorder-move")[0]
        self.assertEqual(disabled.get_attribute("aria-label"), f"Move {second} up in Works of Moves")
        self.assertFalse(disabled.is_enabled(), "the first row cannot move up")

    def test_without_the_script_a_recording_goes_into_a_playlist(self):
        """Without the script, a recording's Add to playlist is a form: the choice is a page of its
        own, and the playlist then names the recording's performers."""
        page = self.page
        self.new_playlist("Plain takes")
        playlist = page.path().split("?")[0]
        page.open("/screens/work/6")
        section = self.browser.find_elements(By.CSS_SELECTOR, "#main section[id^='section-recording-']")[1]
        performers = section.find_element(By.TAG_NAME, "h2").text
        section.find_element(By.XPATH, ".//button[contains(., 'Add to playlist')]").click()
        page.wait(lambda: page.path().startswith("/web/results/"))
        self.assertIn(f"Add {performers}'s recording to a playlist", page.find("#main").text)
        self.browser.find_element(By.XPATH, "//button[contains(., 'Plain takes')]").click()
        page.wait(lambda: not page.path().startswith("/web/results/"))
        self.assertIn("Added to “Plain takes”", page.find("#main").text)
        page.open(playlist)
        subtitle = self.browser.find_element(By.CSS_SELECTOR, "#section-works .row .subtitle").text
        self.assertTrue(subtitle.endswith(performers), subtitle)

    def test_without_the_script_the_state_shows_as_a_fresh_screen(self):
        """Client state (v6) without the script: every work is listed, nothing is marked playing,
        and the filter's "nothing matches" stays hidden."""
        page = self.page
        page.open("/screens/composer/mozart")
        titles = page.js("return [...document.querySelectorAll('#section-works .row')].filter(r => r.offsetParent).map(r => r.querySelector('.title').textContent)")
        self.assertIn("Requiem", titles)
        self.assertGreater(len(titles), 2)
        self.assertFalse(page.js("return [...document.querySelectorAll('#section-works .text')].some(t => t.offsetParent && t.textContent.includes('No work matches'))"))
        page.open("/screens/work/1")
        self.assertEqual(page.js("return document.querySelectorAll('[aria-current=true]').length"), 0)
        # A biography nothing could unfold is shown whole, with no Show more.
        page.open("/screens/composer/mozart")
        self.assertEqual(page.js("return [...document.querySelectorAll('#section-biography p')].filter(p => p.offsetParent).length"), 3)
        self.assertFalse(page.js("return [...document.querySelectorAll('#section-biography button')].some(b => b.offsetParent)"))

    def test_unknown_paths_get_the_site_404(self):
        page = self.page
        page.open("/no/such/page")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "h1").text, "Page not found")
        self.assertTrue(page.is_site_page())


if __name__ == "__main__":
    # scripts/test.sh ends a flow that hangs with SIGTERM: every thread's stack first, to say where.
    faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
    os.makedirs(SHOTS, exist_ok=True)
    unittest.main(verbosity=2)
