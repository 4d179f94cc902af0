#!/usr/bin/env python3
"""The layout admin in a real headless Chromium, driven by Selenium, against the real demo server.

Starts `screenplay serve` (the debug build the suite just made) on a free loopback port with a
fresh data folder, creates an admin and an API token with the CLI, then signs in, switches a
widget off and on, publishes a draft, rolls back, reads the audit log, and checks what must be
refused: pages without a session, a wrong password, a form without the session's CSRF token, a
stale sign-in form. What the admin changes is checked where apps see it: the JSON screen.

Run by scripts/test.sh; alone: `python3 Tests/Browser/admin_flow.py` (after `swift build`).
Screenshots of each step go to $SCREENSHOTS (default: a temporary folder, printed).
"""
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
import urllib.error
import urllib.parse
import urllib.request

import axe
from demo_server import DemoServer, PromotionsService, start_clean
from selenium.webdriver.support.ui import Select
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

PASSWORD = "correct horse battery staple"


class Server(DemoServer):
    """The demo with admins `ada` and `bob` (a second editor) and an API token for ada."""

    def __init__(self, promotions="off"):
        def prepare(run):
            run("admin", "create-user", "ada", input=PASSWORD + "\n")
            run("admin", "create-user", "bob", input=PASSWORD + "\n")
            self.token = run("admin", "create-token", "ada").stdout.strip()

        super().__init__(prefix="screenplay-admin-browser-", prepare=prepare, promotions=promotions)

    def api(self, method, path, body=None):
        request = urllib.request.Request(
            self.root + path, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def new_user(self):
        """A new site user's token: the first write without one makes a user."""
        request = urllib.request.Request(
            self.root + "/api/v5/commands/playlists/create", method="POST", data=json.dumps({"name": "Visitor"}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.headers["Screenplay-Token"]

    def shop_ids(self):
        request = urllib.request.Request(self.root + "/api/v4/screens/shop", headers={"Screenplay-Platform": "ios"})
        with urllib.request.urlopen(request, timeout=30) as response:
            screen = json.loads(response.read())
        return [component.get("id") for section in screen["sections"] for component in section["components"]]


class AdminInTheBrowser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        options = webdriver.ChromeOptions()
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
            options.add_argument(argument)
        driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        cls.browser = webdriver.Chrome(service=Service(driver_path), options=options)
        cls.browser.set_page_load_timeout(60)
        cls.browser.implicitly_wait(10)
        cls.shots = os.environ.get("SCREENSHOTS") or tempfile.mkdtemp(prefix="screenplay-admin-shots-")
        os.makedirs(cls.shots, exist_ok=True)

    @classmethod
    def without_javascript(cls):
        """A second Chromium with JavaScript off (made on first use), for the flows that must work without it."""
        if getattr(cls, "plain", None) is None:
            options = webdriver.ChromeOptions()
            for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
                options.add_argument(argument)
            options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
            cls.plain = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
            cls.plain.set_page_load_timeout(60)
            cls.plain.implicitly_wait(10)
        return cls.plain

    @classmethod
    def second_browser(cls):
        """A second Chromium with JavaScript (made on first use): another editor at another desk."""
        if getattr(cls, "other", None) is None:
            options = webdriver.ChromeOptions()
            for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
                options.add_argument(argument)
            cls.other = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
            cls.other.set_page_load_timeout(60)
            cls.other.implicitly_wait(10)
        return cls.other

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "other", None) is not None:
            cls.other.quit()
        if getattr(cls, "plain", None) is not None:
            cls.plain.quit()
        cls.browser.quit()
        cls.server.stop()
        print(f"screenshots: {cls.shots}", file=sys.stderr)

    def setUp(self):
        start_clean(self.browser)
        # Every test starts from the seeded shop: the first revision live, no draft.
        if self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"] != 1:
            self.server.api("POST", "/admin/api/pages/shop/rollback", {"revision": 1})
        try:
            self.server.api("DELETE", "/admin/api/pages/shop/draft")
        except urllib.error.HTTPError as error:
            self.assertEqual(error.code, 404)

    # Helpers

    def open(self, path):
        self.browser.get(self.server.root + path)

    def submit(self, element_id, browser=None):
        """Clicks a submit button and waits until the next page has replaced this one."""
        browser = browser or self.browser
        page = browser.find_element(By.TAG_NAME, "html")
        browser.find_element(By.ID, element_id).click()
        self.wait_replaced(page, browser)

    def submit_in_place(self, element_id, browser=None):
        """Clicks a button the script answers in place (no page load) and waits for the new content."""
        browser = browser or self.browser
        heading = browser.find_element(By.CSS_SELECTOR, "#main > h1")
        browser.find_element(By.ID, element_id).click()
        self.wait_replaced(heading, browser)

    def wait_replaced(self, page, browser=None):
        """Waits until `page` (the old document's html element) is gone."""

        def replaced(_):
            try:
                page.is_enabled()
                return False
            except StaleElementReferenceException:
                return True
            except WebDriverException as error:
                # Chromedriver sometimes reports the old page's node this way while the new one loads.
                if "does not belong to the document" in str(error):
                    return True
                raise

        WebDriverWait(browser or self.browser, 30).until(replaced)

    def shot(self, name):
        self.browser.save_screenshot(os.path.join(self.shots, name + ".png"))

    def none(self, by, value, browser=None):
        """Whether the page has no element matching, now: `find_elements` under the implicit wait
        looks for 10 s before it answers that nothing matches."""
        browser = browser or self.browser
        browser.implicitly_wait(0)
        try:
            return not browser.find_elements(by, value)
        finally:
            browser.implicitly_wait(10)

    def width_on_a_phone(self):
        """The page's scroll width on a 390 px phone (then back to the desktop): over 390, it scrolls sideways."""
        self.browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        try:
            return self.browser.execute_script("return document.documentElement.scrollWidth")
        finally:
            self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def shot_phone_dark(self, name, scroll_to=None):
        """The page as a phone in dark mode sees it (390 px wide; scrolled to the element `scroll_to`), then back to the desktop in light."""
        self.shot_phone(name, "dark", scroll_to)

    def shot_phone(self, name, scheme, scroll_to=None):
        """The page as a phone sees it in `scheme` (light or dark), then back to the desktop in light."""
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        self.browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        if scroll_to:
            self.browser.execute_script("document.getElementById(arguments[0]).scrollIntoView()", scroll_to)
        try:
            self.shot(name)
        finally:
            self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})

    def open_card(self, widget):
        """Opens a widget's card in the editor (its settings sit in a <details>), as a click on "Edit" does."""
        details = self.browser.find_element(By.CSS_SELECTOR, f"#widget-{widget} details")
        if details.get_attribute("open") is None:
            details.find_element(By.TAG_NAME, "summary").click()

    def page_order(self, section):
        """The widget ids of one section as the editor shows them: the draft's, or the live page's without one."""
        page = self.server.api("GET", "/admin/api/pages/shop")
        template = (page.get("draft") or page["live"])["template"]
        return [w["id"] for s in template["sections"] if s["id"] == section for w in s["widgets"]]

    def shot_of(self, browser, name):
        browser.save_screenshot(os.path.join(self.shots, name + ".png"))

    def draft_order(self, section=None):
        """The draft's widget ids in page order (of one section when given); [] before there is a draft."""
        draft = self.server.api("GET", "/admin/api/pages/shop").get("draft")
        if not draft:
            return []
        return [w["id"] for s in draft["template"]["sections"] if section in (None, s["id"]) for w in s["widgets"]]

    def draft_widget(self, widget):
        """A widget of the draft as the JSON API has it."""
        draft = self.server.api("GET", "/admin/api/pages/shop")["draft"]["template"]
        return next(w for section in draft["sections"] for w in section["widgets"] if w["id"] == widget)

    def experiment(self, key):
        """The experiment as the JSON API lists it."""
        return next(e for e in self.server.api("GET", "/admin/api/experiments") if e["key"] == key)

    def check_accessible(self, what):
        """No serious or critical axe-core violation on the page, light or dark."""
        problems = []
        for dark in (False, True):
            self.browser.execute_cdp_cmd(
                "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
            problems += [f"{what} ({'dark' if dark else 'light'}): {v}" for v in axe.serious_violations(self.browser)]
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        self.assertEqual(problems, [])

    def check_accessible_markup(self, what, html):
        """`check_accessible` for a page a browser without JavaScript was answered (axe needs the
        script to run): its markup written into a page of this server in the scripted browser, so
        its styles load from where they would."""
        self.browser.get(self.server.root + "/admin/login")
        self.browser.execute_script("document.open(); document.write(arguments[0]); document.close();", html)
        self.check_accessible(what)

    def sign_in_as(self, browser, name, root=None):
        """Signs `browser` in as `name` (at `root`, this class's server by default)."""
        start_clean(browser)
        browser.get((root or self.server.root) + "/admin/login")
        browser.find_element(By.ID, "name").send_keys(name)
        browser.find_element(By.ID, "password").send_keys(PASSWORD)
        self.submit("sign-in", browser)

    def sign_in(self, password=PASSWORD, check=False):
        self.open("/admin/login")
        if check:
            self.check_accessible("sign-in")
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(password)
        self.submit("sign-in")

    def path(self):
        return self.browser.current_url[len(self.server.root):]

    def sign_in_again_from_the_link(self, tab, lands_on):
        """Follows "Sign in again" (it opens a new tab), signs in there, checks it lands on
        `lands_on`, closes it and comes back to `tab`."""
        self.browser.find_element(By.ID, "sign-in-again").click()
        WebDriverWait(self.browser, 10).until(lambda _: len(self.browser.window_handles) == 2)
        self.browser.switch_to.window([handle for handle in self.browser.window_handles if handle != tab][0])
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(PASSWORD)
        self.submit("sign-in")
        self.assertEqual(self.path(), lands_on)
        self.browser.close()
        self.browser.switch_to.window(tab)

    def status(self, path, method="GET", body=None, cookie=None):
        request = urllib.request.Request(self.server.root + path, method=method, data=body)
        if cookie:
            request.add_header("Cookie", cookie)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=30) as response:
                return response.status, response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.headers

    # Tests

    def test_pages_need_a_session(self):
        for path in ("/admin", "/admin/pages/shop", "/admin/audit"):
            self.open(path)
            self.assertEqual(self.path().split("?")[0], "/admin/login", path)
        self.assertTrue(self.browser.find_element(By.ID, "sign-in").is_displayed())
        # Signing in from there lands where the link pointed.
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(PASSWORD)
        self.submit("sign-in")
        self.assertEqual(self.path(), "/admin/audit")
        self.browser.delete_all_cookies()
        # A sign-in link cannot send anyone off the admin afterwards.
        self.open("/admin/login?next=//evil.example/admin")
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(PASSWORD)
        self.submit("sign-in")
        self.assertEqual(self.path(), "/admin")
        self.browser.delete_all_cookies()
        code, headers = self.status("/admin/pages/shop/publish", method="POST", body=b"csrf=x")
        self.assertEqual(code, 303)
        self.assertEqual(headers["Location"], "/admin/login")
        code, _ = self.status("/admin/api/pages")
        self.assertEqual(code, 401)

    def test_wrong_password_is_refused_without_saying_which_part(self):
        self.sign_in(password="not the password at all")
        self.assertEqual(self.path(), "/admin/login")
        self.assertIn("Wrong name or password", self.browser.find_element(By.ID, "login-error").text)
        self.shot("01-wrong-password")
        self.check_accessible("a wrong password refused")

    def test_two_sign_in_forms_open_at_once_both_work(self):
        """The sign-in token is the browser's: a second form (another tab, a background fetch sent
        to the sign-in page) does not make the first one stale."""
        self.open("/admin/login")
        first = self.browser.current_window_handle
        self.browser.switch_to.new_window("tab")
        self.open("/admin/login")
        self.browser.close()
        self.browser.switch_to.window(first)
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(PASSWORD)
        self.submit("sign-in")
        self.assertEqual(self.path(), "/admin", self.browser.find_element(By.TAG_NAME, "main").text)

    def test_a_stale_sign_in_form_is_refused(self):
        self.open("/admin/login")
        self.browser.delete_cookie("screenplay_admin_login")
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(PASSWORD)
        self.submit("sign-in")
        self.assertIn("expired", self.browser.find_element(By.ID, "login-error").text)

    def test_switch_publish_rollback_audit_and_sign_out(self):
        self.sign_in(check=True)
        self.assertEqual(self.path(), "/admin")
        pages = self.browser.find_element(By.ID, "pages").text
        self.assertIn("shop", pages)
        self.assertIn("home-shop-teaser", self.browser.find_element(By.ID, "experiments").text)
        self.check_accessible("pages")
        self.shot("02-pages")

        # The kill switch: off on the next request, for apps too.
        page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.LINK_TEXT, "shop").click()
        self.wait_replaced(page)
        self.assertIn("deal-price", self.browser.find_element(By.ID, "widgets").text)
        self.assertIn("deal-price", self.server.shop_ids())
        self.check_accessible("page")
        self.submit("switch-deal-price")
        self.assertIn("Switched off", self.browser.find_element(By.ID, "notice").text)
        self.assertNotIn("deal-price", self.server.shop_ids())
        self.shot("03-switched-off")

        # A draft saved through the API, published from the page.
        live = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
        live["sections"] = [section for section in live["sections"] if section["id"] != "featured"]
        self.server.api("PUT", "/admin/api/pages/shop/draft", live)
        self.browser.refresh()
        self.assertIn("Draft by ada", self.browser.find_element(By.ID, "draft").text)
        # The page says what the draft changes against the live page.
        self.assertIn("Removed section featured", self.browser.find_element(By.ID, "draft-changes").text)

        # Publishing shows what will change and asks first; Cancel leaves everything as it was.
        self.submit("publish")
        self.assertEqual(self.path(), "/admin/pages/shop/publish")
        changes = self.browser.find_element(By.ID, "changes")
        self.assertIn("Removed section featured", changes.text)
        self.assertIn("removed", changes.find_element(By.CSS_SELECTOR, "li").get_attribute("class"))
        self.check_accessible("publish review")
        self.shot("04a-publish-review")
        self.shot_phone_dark("04b-publish-review-phone-dark")
        self.submit("cancel")
        self.assertEqual(self.path(), "/admin/pages/shop")
        self.assertTrue([i for i in self.server.shop_ids() if i and i.startswith("offer-")], "nothing published by Cancel")

        # A publish form sent without the confirmation (an old form, a script) shows the review instead.
        self.browser.execute_script(
            "const form = document.createElement('form'); form.method = 'post'; form.action = location.pathname + '/publish';"
            "const csrf = document.querySelector('input[name=csrf]').cloneNode(); form.appendChild(csrf);"
            "const button = document.createElement('button'); button.id = 'unconfirmed'; form.appendChild(button);"
            "document.body.appendChild(form);")
        self.submit("unconfirmed")
        self.assertEqual(self.path(), "/admin/pages/shop/publish")
        self.assertTrue([i for i in self.server.shop_ids() if i and i.startswith("offer-")], "nothing published unconfirmed")

        self.browser.find_element(By.ID, "note").send_keys("no featured section")
        self.submit("confirm-publish")
        self.assertIn("Published", self.browser.find_element(By.ID, "notice").text)
        self.assertFalse([i for i in self.server.shop_ids() if i and i.startswith("offer-")])
        self.shot("04-published")

        # Roll back to the first revision: asked first, with what comes back; then the featured
        # section and the price are back.
        self.submit("rollback-1")
        self.assertEqual(self.path(), "/admin/pages/shop/rollback?revision=1")
        changes = self.browser.find_element(By.ID, "changes").text
        self.assertIn("Added section featured", changes)
        self.assertIn("Changed deal-price: switched on", changes)
        self.check_accessible("rollback review")
        self.shot("05a-rollback-review")
        self.shot_phone_dark("05b-rollback-review-phone-dark")
        self.submit("confirm-rollback")
        self.assertIn("Rolled back", self.browser.find_element(By.ID, "notice").text)
        ids = self.server.shop_ids()
        self.assertIn("deal-price", ids)
        self.assertTrue([i for i in ids if i and i.startswith("offer-")])
        history = self.browser.find_element(By.ID, "history").text
        self.assertIn("rollback to revision 1", history)
        self.shot("05-rolled-back")

        # Any two revisions compared: what the publish changed against the kill switch's revision
        # before it (earlier tests' rollbacks add revisions, so the numbers are read, not assumed).
        live = self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"]
        published = live - 1
        self.submit(f"changes-{published}")
        self.assertEqual(self.path(), f"/admin/pages/shop/compare?from={published - 1}&to={published}")
        self.assertIn("Removed section featured", self.browser.find_element(By.ID, "changes").text)
        self.assertNotIn("deal-price", self.browser.find_element(By.ID, "changes").text, "switched off before revision 2 already")
        # And picked from the menus: 1 against the rollback's copy of 1 is no change at all.
        Select(self.browser.find_element(By.ID, "from")).select_by_value("1")
        Select(self.browser.find_element(By.ID, "to")).select_by_value(str(live))
        self.submit("compare")
        self.assertIn("No changes", self.browser.find_element(By.ID, "changes").text)
        self.check_accessible("compare")
        self.shot("05c-compare")

        # The audit log says who did what, and what it changed, at times in the zone the admin
        # chose (UTC until then; UTC in the markup), whatever the browser's own zone.
        self.browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
        self.open("/admin/audit")
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "#audit time").text.endswith(" UTC"))
        self.browser.find_element(By.ID, "time-zone-link").click()
        self.check_accessible("the time zone page")
        zone = self.browser.find_element(By.ID, "zone")
        zone.clear()
        zone.send_keys("Asia/Tokio")
        self.submit("save-time-zone")
        self.assertIn("is not a time zone this server knows", self.browser.find_element(By.ID, "zone-error").text)
        self.assertEqual(self.browser.find_element(By.ID, "zone").get_attribute("value"), "Asia/Tokio", "what was typed is kept")
        self.check_accessible("a time zone refused")
        zone = self.browser.find_element(By.ID, "zone")
        zone.clear()
        zone.send_keys("Asia/Tokyo")
        self.submit("save-time-zone")
        self.assertEqual(self.browser.find_element(By.ID, "time-zone-link").text, "Times in Asia/Tokyo")
        self.open("/admin/audit")
        time = self.browser.find_element(By.CSS_SELECTOR, "#audit time")
        stamp = time.get_attribute("datetime")  # 2026-11-24T23:57:30Z
        tokyo = (int(stamp[11:13]) + 9) % 24
        self.assertRegex(time.text, rf" {tokyo:02d}:{stamp[14:16]} Asia/Tokyo$", "nine hours ahead of UTC")
        self.browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
        audit = self.browser.find_element(By.ID, "audit").text
        for action in ("rollback", "publish", "disable widget", "save draft"):
            self.assertIn(action, audit)
        self.assertIn("ada", audit)
        self.assertIn("no featured section — Removed section featured", audit)
        self.check_accessible("audit log")
        self.shot("06-audit")

        # Signing out ends the session: the pages need signing in again.
        self.submit("sign-out")
        self.assertEqual(self.path(), "/admin/login")
        self.open("/admin")
        self.assertEqual(self.path(), "/admin/login?next=/admin")

    def test_sections_are_added_retitled_moved_and_removed_only_when_empty(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        sections = lambda: [section["id"] for section in self.server.api("GET", "/admin/api/pages/shop")["draft"]["template"]["sections"]]

        # A malformed id: refused, said at the top with its path, nothing saved.
        self.browser.find_element(By.ID, "new-section-id").send_keys("bad id!")
        self.submit("add-section-button")
        errors = self.browser.find_element(By.ID, "page-errors").text
        self.assertIn("$.sections[", errors)
        self.assertIn("is not an id", errors)
        self.assertIsNone(self.server.api("GET", "/admin/api/pages/shop").get("draft"))

        # Added at the end with a title, then moved up one.
        self.assertEqual(self.browser.find_element(By.ID, "new-section-id").get_attribute("value"), "bad id!", "what was typed stays")
        self.browser.find_element(By.ID, "new-section-id").clear()
        self.browser.find_element(By.ID, "new-section-id").send_keys("extras")
        self.browser.find_element(By.ID, "new-section-title").send_keys("Extras")
        self.submit("add-section-button")
        self.assertEqual(sections()[-1], "extras")
        self.submit("section-up-extras")
        self.assertEqual(sections()[-2], "extras")
        title = self.browser.find_element(By.ID, "section-extras-title")
        title.clear()
        title.send_keys("More to hear")
        self.submit("section-save-extras")
        draft = self.server.api("GET", "/admin/api/pages/shop")["draft"]["template"]
        self.assertEqual(next(s for s in draft["sections"] if s["id"] == "extras").get("title"), "More to hear")

        # A section with widgets cannot be removed (its button is disabled); an empty one can.
        first = sections()[0]
        self.assertIsNotNone(self.browser.find_element(By.ID, "section-remove-" + first).get_attribute("disabled"))
        self.submit("section-remove-extras")
        self.assertNotIn("extras", sections())
        self.assertIn(first, sections())

    def test_edit_the_draft_with_errors_beside_fields_then_preview_and_publish(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        self.assertIn("No draft yet", self.browser.find_element(By.ID, "source").text)

        # A parameter of the wrong type: refused, with the error beside the field, nothing saved.
        self.open_card("deal-offer")
        work = self.browser.find_element(By.ID, "deal-offer-p-workID")
        original_work = work.get_attribute("value")
        work.clear()
        work.send_keys("twelve")
        self.submit_in_place("save-deal-offer")
        error = self.browser.find_element(By.ID, "deal-offer-p-workID-error")
        self.assertIn("not a whole number", error.text)
        self.assertEqual(self.browser.find_element(By.ID, "deal-offer-p-workID").get_attribute("value"), "twelve", "what was typed stays")
        self.assertEqual(self.browser.find_element(By.ID, "deal-offer-p-workID").get_attribute("aria-invalid"), "true")
        self.assertIsNone(self.server.api("GET", "/admin/api/pages/shop").get("draft"))
        self.shot("07-editor-error")

        # A whole number that names no work: the catalog vertical says so, beside the field.
        work = self.browser.find_element(By.ID, "deal-offer-p-workID")
        work.clear()
        work.send_keys("99999")
        self.submit_in_place("save-deal-offer")
        error = self.browser.find_element(By.ID, "deal-offer-p-workID-error")
        self.assertIn("no work 99999", error.text)
        self.assertEqual(self.browser.find_element(By.ID, "deal-offer-p-workID").get_attribute("value"), "99999", "what was typed stays")
        self.assertIsNone(self.server.api("GET", "/admin/api/pages/shop").get("draft"))
        # The summary at the top has the focus and links to the field, which the link brings into view.
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "error-summary")
        summary = self.browser.find_element(By.ID, "error-summary")
        self.assertIn("Not saved: 1 problem", summary.text)
        link = summary.find_element(By.CSS_SELECTOR, "a[href='#deal-offer-p-workID']")
        self.assertIn("no work 99999", link.text)
        self.shot("07b-editor-missing-work")
        link.click()
        self.assertTrue(self.browser.execute_script(
            "const r = document.getElementById('deal-offer-p-workID').getBoundingClientRect();"
            "return location.hash === '#deal-offer-p-workID' && r.top >= -1 && r.bottom <= window.innerHeight + 1;"))
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "deal-offer-p-workID")
        self.check_accessible("editor with an error summary")

        # The experiment menu offers each variant by name; one deleted after the page was opened
        # is refused beside the menu, which keeps the choice.
        self.server.api("PUT", "/admin/api/experiments/short-lived", {
            "key": "short-lived", "variants": [{"name": "a", "weight": 1}, {"name": "b", "weight": 1}]})
        self.open("/admin/pages/shop/edit")
        self.open_card("deal-price")
        menu = Select(self.browser.find_element(By.ID, "deal-price-c_experiment"))
        self.assertEqual(menu.first_selected_option.text, "Everyone (no experiment)")
        self.assertIn("shop-free-shipping: banner", [option.text for option in menu.options])
        menu.select_by_visible_text("short-lived: b")
        self.server.api("DELETE", "/admin/api/experiments/short-lived")
        self.submit_in_place("save-deal-price")
        self.assertIn("short-lived", self.browser.find_element(By.ID, "deal-price-c_experiment-error").text)
        self.assertEqual(Select(self.browser.find_element(By.ID, "deal-price-c_experiment")).first_selected_option.text, "short-lived: b")
        self.assertIsNone(self.server.api("GET", "/admin/api/pages/shop").get("draft"))

        # Valid changes make the draft: the price tag only on Android, the promotion moved down, the
        # shipping banner removed, a widget added. Apps still see the live page.
        self.open("/admin/pages/shop/edit")
        self.open_card("deal-price")
        self.browser.find_element(By.ID, "deal-price-c_platforms-android").click()
        self.submit_in_place("save-deal-price")
        self.assertIn("Saved to the draft", self.browser.find_element(By.ID, "notice").text)
        self.submit("remove-free-shipping")
        self.submit_in_place("down-spring-sale")
        # A widget naming a work that does not exist: refused, and the form keeps every choice
        # (the form with every setting, folded under the palette's quick adds).
        self.browser.find_element(By.CSS_SELECTOR, "#add-details summary").click()
        self.browser.find_element(By.ID, "add-id").send_keys("extra-tag")
        Select(self.browser.find_element(By.ID, "add-kind")).select_by_visible_text("priceTag")
        Select(self.browser.find_element(By.ID, "add-vertical")).select_by_visible_text("pricing")
        Select(self.browser.find_element(By.ID, "add-section")).select_by_visible_text("deal")
        self.browser.find_element(By.ID, "add-parameters").send_keys('{"workID": 99999}')
        self.submit("add-widget")
        self.assertIn("no work 99999", self.browser.find_element(By.ID, "error-summary").text)
        for element_id, chosen in (("add-kind", "priceTag"), ("add-vertical", "pricing"), ("add-section", "deal")):
            self.assertEqual(Select(self.browser.find_element(By.ID, element_id)).first_selected_option.text, chosen, element_id)
        self.assertEqual(self.browser.find_element(By.ID, "add-id").get_attribute("value"), "extra-tag")
        parameters = self.browser.find_element(By.ID, "add-parameters")
        parameters.clear()
        parameters.send_keys('{"workID": %s}' % original_work)
        self.submit("add-widget")
        self.assertIn("Saved to the draft", self.browser.find_element(By.ID, "notice").text)
        draft = self.server.api("GET", "/admin/api/pages/shop")["draft"]["template"]
        ids = [w["id"] for section in draft["sections"] for w in section["widgets"]]
        self.assertNotIn("free-shipping", ids)
        self.assertIn("extra-tag", ids)
        self.assertEqual(draft["sections"][0]["widgets"], [], "spring-sale moved down into the next section")
        self.assertIn("deal-price", self.server.shop_ids(), "a draft is not live")
        self.shot("08-editor-saved")

        # The preview: the draft beside the live page, as an iOS app (the price tag is Android only now).
        self.open("/admin/pages/shop/preview?platform=ios&version=4")
        draft_column = self.browser.find_element(By.ID, "preview-draft").text
        live_column = self.browser.find_element(By.ID, "preview-live").text
        self.assertIn("extra-tag", draft_column)
        self.assertNotIn("extra-tag", live_column)
        self.assertIn("Buy the recording", live_column)
        # What happened to each widget, in words: the price tag is hidden on iOS, and why.
        price_row = self.browser.find_element(By.XPATH, "//section[@id='preview-draft']//tr[td[1]='deal-price']").text
        self.assertIn("hidden: not shown on ios (only on android)", price_row)
        self.assertIn("changed", price_row)
        # The differences are listed, named in each row, and outlined in the rendered draft.
        changes = self.browser.find_element(By.ID, "preview-changes").text
        self.assertIn("Added extra-tag (priceTag) to deal", changes)
        self.assertIn("Removed free-shipping (promoBanner) from promotions", changes)
        self.assertIn("added", self.browser.find_element(By.XPATH, "//section[@id='preview-draft']//tr[td[1]='extra-tag']").text)
        outline = self.browser.execute_script(
            "return getComputedStyle(document.querySelector('#preview-draft .rendered [data-node=\"id:extra-tag\"]')).outlineStyle")
        self.assertEqual(outline, "solid")
        # The removed banner is marked where the live page has it (its row; its outline when shown).
        self.assertIn("removed", self.browser.find_element(By.XPATH, "//section[@id='preview-live']//tr[td[1]='free-shipping']").text)
        self.assertIn('#preview-live .rendered [data-node="id:free-shipping"]{outline:3px dashed',
                      self.browser.execute_script("return document.getElementById('preview-marks').textContent"))
        self.check_accessible("preview")
        # The screens in the site's look: list rows are laid out as rows, inside the preview only.
        row = self.browser.find_element(By.CSS_SELECTOR, "#preview-live .rendered .row")
        self.assertEqual(row.value_of_css_property("display"), "flex")
        header = self.browser.find_element(By.TAG_NAME, "header")
        self.assertEqual(header.value_of_css_property("display"), "flex")
        self.shot("09-preview")
        self.shot_phone_dark("09b-preview-phone-dark")

        # Published from the page, after its review: apps see it on the next request.
        self.open("/admin/pages/shop")
        self.submit("publish")
        self.submit("confirm-publish")
        self.assertIn("Published", self.browser.find_element(By.ID, "notice").text)
        ids = self.server.shop_ids()
        self.assertNotIn("deal-price", ids, "Android only now")
        self.assertIn("extra-tag", ids)

    def test_the_preview_and_an_open_page_follow_a_publish_a_kill_switch_and_an_experiment(self):
        """The live preview: the admin's preview and the public page open in another tab both
        change in place within a second of each change, made through the admin API."""
        experiment = [e for e in self.server.api("GET", "/admin/api/experiments") if e["key"] == "shop-free-shipping"][0]
        # The price tag shown only in the experiment's banner variant, which nobody is in yet.
        template = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
        for section in template["sections"]:
            for widget in section["widgets"]:
                if widget["id"] == "deal-price":
                    widget["conditions"] = {"experiment": {"key": "shop-free-shipping", "variants": ["banner"]}}
        self.server.api("PUT", "/admin/api/pages/shop/draft", template)
        self.server.api("POST", "/admin/api/pages/shop/publish", {})
        # A visitor the experiment can bucket: a user (anonymous visitors never take part).
        visitor = self.server.new_user()
        self.sign_in()
        preview = self.browser.current_window_handle
        self.open("/admin/pages/shop/preview?platform=web&user=visitor")
        self.assertTrue(self.browser.find_element(By.ID, "main").get_attribute("data-live").startswith("/admin/preview-events/shop"))
        self.browser.execute_script(WATCH)
        self.browser.switch_to.new_window("tab")
        public = self.browser.current_window_handle
        self.open("/")
        self.browser.add_cookie({"name": "screenplay_token", "value": visitor, "path": "/"})
        self.open("/screens/shop")
        self.browser.execute_script(WATCH)
        tabs = {"preview": (preview, "#preview-live "), "public page": (public, "")}

        def change(name, act, selector, present=True, text=None):
            for handle, scope in tabs.values():
                self.browser.switch_to.window(handle)
                self.browser.execute_script("window.arm(arguments[0], arguments[1], arguments[2], arguments[3])",
                                            name, scope + selector, text, present)
            acted = self.browser.execute_script("return Date.now()")
            act()
            for tab, (handle, _) in tabs.items():
                self.browser.switch_to.window(handle)
                WebDriverWait(self.browser, 10).until(
                    lambda _: self.browser.execute_script("return window.seen[arguments[0]]", name),
                    f"the {tab} never showed: {name}")
                took = self.browser.execute_script("return window.seen[arguments[0]]", name) - acted
                print(f"\n    {name}: the {tab} changed {took} ms after the admin API answered", file=sys.stderr)
                self.assertLess(took, 1500, f"{name} in the {tab}")

        def weights(control, banner):
            body = dict(experiment, variants=[{"name": "control", "weight": control}, {"name": "banner", "weight": banner}])
            return lambda: self.server.api("PUT", "/admin/api/experiments/shop-free-shipping", body)

        try:
            weights(1, 0)()
            change("experiment: everyone in the banner variant", weights(0, 1), '[data-node="id:deal-price"]')
            self.shot("10-live-preview-experiment")
            change("kill switch: the price tag off", lambda: self.server.api(
                "POST", "/admin/api/pages/shop/widgets/deal-price/enabled", {"enabled": False}),
                '[data-node="id:deal-price"]', present=False)

            def publish():
                template = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
                template["title"] = "Spring shop"
                self.server.api("PUT", "/admin/api/pages/shop/draft", template)
                self.server.api("POST", "/admin/api/pages/shop/publish", {"note": "retitled"})

            change("publish: the new title", publish, "h1", text="Spring shop")
            for handle in (preview, public):
                self.browser.switch_to.window(handle)
                self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "changed in place, not reloaded")
            self.browser.switch_to.window(preview)
            revision = self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"]
            self.assertIn(f"Live (revision {revision})", self.browser.find_element(By.ID, "preview-live").text)
            self.shot("11-live-preview-published")
        finally:
            weights(*[v["weight"] for v in experiment["variants"]])()
            self.browser.switch_to.window(public)
            self.browser.close()
            self.browser.switch_to.window(preview)
            # No stream left open into the next test.
            self.browser.get("about:blank")

    def test_the_preview_follows_the_editor_within_a_second_and_marks_what_changed(self):
        """The preview open in one tab while the admin edits in another: each change made in the
        editor (a keyboard move answered in place, a saved card) reaches the preview within a
        second, listed and outlined as the draft's difference from the live page."""
        self.sign_in()
        preview = self.browser.current_window_handle
        self.open("/admin/pages/shop/preview?platform=web")
        self.browser.execute_script(WATCH)
        self.browser.switch_to.new_window("tab")
        editor = self.browser.current_window_handle
        self.open("/admin/pages/shop/edit")

        def change(name, act, selector, text):
            self.browser.switch_to.window(preview)
            self.browser.execute_script("window.arm(arguments[0], arguments[1], arguments[2], true)", name, selector, text)
            self.assertFalse(self.browser.execute_script("return window.seen[arguments[0]]", name), f"shown before: {name}")
            self.browser.switch_to.window(editor)
            started = self.browser.execute_script("return Date.now()")
            # The change is made when the editor acts (the key that moves or saves), not when the
            # test begins to open a card and type: each act says when that was.
            acted = act()
            self.browser.switch_to.window(preview)
            WebDriverWait(self.browser, 10).until(
                lambda _: self.browser.execute_script("return window.seen[arguments[0]]", name), f"the preview never showed: {name}")
            seen = self.browser.execute_script("return window.seen[arguments[0]]", name)
            took = seen - acted
            print(f"\n    {name}: the preview changed {took} ms after the editor acted ({seen - started} ms after the test began)",
                  file=sys.stderr)
            self.assertLess(took, 1000, name)

        def move_up():
            button = self.browser.find_element(By.ID, "up-deal-buy")
            self.browser.execute_script("arguments[0].focus()", button)
            acted = self.browser.execute_script("return Date.now()")
            button.send_keys(Keys.ENTER)
            return acted

        def save_new_work():
            self.open_card("deal-offer")
            field = self.browser.find_element(By.ID, "deal-offer-p-workID")
            field.clear()
            field.send_keys("26")
            acted = self.browser.execute_script("return Date.now()")
            field.send_keys(Keys.ENTER)
            return acted

        try:
            change("a keyboard move", move_up, "#preview-changes", "Moved deal-buy")
            self.assertEqual(self.draft_order("deal"), ["deal-offer", "deal-buy", "deal-price"])
            change("a saved card", save_new_work, "#preview-changes", "Changed deal-offer")
            self.browser.switch_to.window(preview)
            marks = self.browser.execute_script("return document.getElementById('preview-marks').textContent")
            for widget in ("deal-buy", "deal-offer"):
                self.assertIn(f'[data-node="id:{widget}"]', marks, f"{widget} outlined in the draft")
            self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "changed in place, not reloaded")
            self.shot("09c-preview-following-the-editor")
        finally:
            self.browser.switch_to.window(editor)
            self.browser.close()
            self.browser.switch_to.window(preview)
            self.browser.get("about:blank")

    def test_signed_out_in_another_tab_a_save_keeps_the_typing_and_goes_through_after_signing_in_again(self):
        self.sign_in()
        editor = self.browser.current_window_handle
        self.open("/admin/pages/shop/edit")
        self.open_card("deal-offer")
        work = self.browser.find_element(By.ID, "deal-offer-p-workID")
        work.clear()
        work.send_keys("26")
        # Another tab signs out.
        self.browser.switch_to.new_window("tab")
        self.open("/admin")
        self.submit("sign-out")
        self.browser.close()
        self.browser.switch_to.window(editor)
        self.browser.find_element(By.ID, "save-deal-offer").click()
        summary = WebDriverWait(self.browser, 10).until(lambda _: self.browser.find_element(By.ID, "error-summary"))
        self.assertIn("signed out", summary.text)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "error-summary")
        self.assertEqual(self.browser.find_element(By.ID, "deal-offer-p-workID").get_attribute("value"), "26", "the typing is kept")
        self.assertTrue(self.path().startswith("/admin/pages/shop/edit"), "still on the editor")
        self.assertIsNone(self.server.api("GET", "/admin/api/pages/shop").get("draft"))
        self.check_accessible("editor signed out")
        self.shot("08b-editor-signed-out")
        # Signing in again in a new tab lands on the editor; back here, the same button saves.
        self.sign_in_again_from_the_link(editor, "/admin/pages/shop/edit")
        self.submit_in_place("save-deal-offer")
        self.assertIn("Saved to the draft", self.browser.find_element(By.ID, "notice").text)
        self.assertEqual(self.draft_widget("deal-offer")["parameters"]["workID"], 26)

    def test_a_double_click_is_one_press_on_add_and_on_publish(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        live = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
        before = sum(len(s["widgets"]) for s in live["sections"])
        ActionChains(self.browser).double_click(self.browser.find_element(By.ID, "palette-add-cartButton")).perform()
        WebDriverWait(self.browser, 10).until(lambda _: self.server.api("GET", "/admin/api/pages/shop").get("draft"))
        time.sleep(1)  # a second post, had one gone, would have landed by now
        draft = self.server.api("GET", "/admin/api/pages/shop")["draft"]["template"]
        added = [w["id"] for s in draft["sections"] for w in s["widgets"] if w["kind"] == "cartButton" and w["id"].startswith("cartButton")]
        self.assertEqual(len(added), 1, f"one widget added: {added}")
        self.assertEqual(sum(len(s["widgets"]) for s in draft["sections"]), before + 1)
        # Publishing with a double click publishes once and says so, not "someone published meanwhile".
        live = self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"]
        self.open("/admin/pages/shop/publish")
        page = self.browser.find_element(By.TAG_NAME, "html")
        ActionChains(self.browser).double_click(self.browser.find_element(By.ID, "confirm-publish")).perform()
        self.wait_replaced(page)
        self.assertIn("Published", self.browser.find_element(By.ID, "notice").text)
        self.assertEqual(self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"], live + 1)

    def test_the_editor_shows_cards_and_moves_with_the_keyboard_keeping_place_and_focus(self):
        # JavaScript off: every move is a form post and a page of its own, which comes back at the
        # card with the same button focused.
        scripted = self.browser
        self.browser = self.without_javascript()
        self.browser.delete_all_cookies()
        try:
            self.editor_cards_without_javascript()
        finally:
            self.browser = scripted

    def editor_cards_without_javascript(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        # Compact cards: kind, a line of parameters, conditions as chips; settings closed until opened.
        card = self.browser.find_element(By.ID, "widget-deal-offer")
        self.assertIn("recordingOffer · catalog", card.text)
        work = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]["sections"][1]["widgets"][0]["parameters"]["workID"]
        # The work named in words, as its own screen names it: title, then composer.
        with urllib.request.urlopen(f"{self.server.root}/api/v5/screens/work/{work}", timeout=30) as response:
            screen = json.load(response)
        composer = screen["header"]["subtitle"].split(" · ")[0]
        self.assertEqual(card.find_element(By.CLASS_NAME, "summary").text, f"workID {work} ({screen['title']} · {composer})")
        self.assertEqual(card.find_element(By.CLASS_NAME, "chips").text, "everyone, always")
        self.assertFalse(self.browser.find_element(By.ID, "deal-offer-p-workID").is_displayed())
        shipping_chips = self.browser.find_element(By.CSS_SELECTOR, "#widget-free-shipping .chips").text
        self.assertIn("experiment shop-free-shipping: banner", shipping_chips)
        self.shot("14-editor-cards")
        self.shot_phone_dark("14b-editor-cards-phone-dark")

        # Move up by keyboard, three times: each time the page comes back at the card with the
        # same button focused, so Enter again moves it again.
        order = self.draft_order
        button = self.browser.find_element(By.ID, "up-deal-buy")
        for _ in range(3):
            page = self.browser.find_element(By.TAG_NAME, "html")
            button.send_keys(Keys.ENTER)
            self.wait_replaced(page)
            button = self.browser.switch_to.active_element
            self.assertEqual(button.get_attribute("id"), "up-deal-buy")
        # The focus shows: a 3 px ring, not the browser's thin default.
        self.assertEqual(self.browser.execute_script(
            "const s = getComputedStyle(document.activeElement); return s.outlineStyle + ' ' + s.outlineWidth"), "solid 3px")
        ids = order()
        self.assertEqual(ids.index("deal-buy"), ids.index("deal-offer") - 1, "moved above the offer, across from the price")

        # Saving a card brings it back open, with its Save button focused.
        self.open_card("deal-offer")
        self.submit("save-deal-offer")
        self.assertIsNotNone(self.browser.find_element(By.CSS_SELECTOR, "#widget-deal-offer details").get_attribute("open"))
        self.assertEqual(self.browser.switch_to.active_element.get_attribute("id"), "save-deal-offer")

    def test_the_editor_with_javascript_drags_cards_and_moves_in_place(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script(
            "return document.getElementById('widget-deal-buy').draggable === true"))
        order = self.draft_order
        height, width, fields = self.browser.execute_script(
            "return [document.documentElement.scrollHeight, innerWidth,"
            " [...document.querySelectorAll('input:not([type=hidden]), textarea, select')].filter(e => e.checkVisibility()).length]")
        print(f"\n    the editor of the shop: {height} px tall at {width} px wide, {fields} fields visible", file=sys.stderr)
        self.browser.execute_script("window.stillHere = true; document.getElementById('widget-deal-offer').scrollIntoView({block: 'center'})")
        scrolled = self.browser.execute_script("return scrollY")
        self.assertGreater(scrolled, 100)

        def drag(widget, onto, at_end=False):
            """A drag of `widget`'s card dropped just above `onto`'s card (or below the last card of section `onto`)."""
            self.browser.execute_script("""
                const [widget, onto, atEnd] = arguments;
                const card = document.getElementById('widget-' + widget);
                const target = atEnd ? document.querySelector(`.cards[data-section="${onto}"]`) : document.getElementById('widget-' + onto);
                const box = target.getBoundingClientRect();
                const y = atEnd ? box.bottom - 2 : box.top + 2;
                const data = new DataTransfer();
                const fire = (element, type) => element.dispatchEvent(new DragEvent(type, {
                  bubbles: true, cancelable: true, dataTransfer: data, clientX: box.left + 10, clientY: y }));
                fire(card, 'dragstart');
                fire(target, 'dragover');
                fire(target, 'drop');
                fire(card, 'dragend');""", widget, onto, at_end)

        # Dropped above the offer: first in its section, no page load, the scroll and the focus kept.
        drag("deal-buy", "deal-offer")
        WebDriverWait(self.browser, 10).until(lambda _: order("deal")[:2] == ["deal-buy", "deal-offer"])
        WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script("return document.activeElement.id") == "widget-deal-buy")
        self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "no page load")
        self.assertLess(abs(self.browser.execute_script("return scrollY") - scrolled), 80)
        WebDriverWait(self.browser, 5).until(lambda _: "Moved deal-buy to deal, position 1" in self.browser.execute_script(
            "return document.getElementById('sp-announcer').textContent"))
        self.assertEqual(order("deal"), ["deal-buy", "deal-offer", "deal-price"])

        # Across sections: the price tag dropped at the end of the promotions.
        drag("deal-price", "promotions", at_end=True)
        WebDriverWait(self.browser, 10).until(lambda _: order("promotions")[-1:] == ["deal-price"])
        # In place once the answer is on the page: the moved card has the focus.
        WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script("return document.activeElement.id") == "widget-deal-price")

        # The Move buttons save in place too: Enter on Move down, twice, on the same focused button.
        self.browser.execute_script("document.getElementById('down-deal-buy').focus()")
        for expected in (["deal-offer", "deal-buy"], ["deal-offer"]):
            heading = self.browser.find_element(By.CSS_SELECTOR, "#main > h1")
            self.browser.switch_to.active_element.send_keys(Keys.ENTER)
            self.wait_replaced(heading)
            self.assertEqual(order("deal"), expected)
            self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "down-deal-buy")
        self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "no page load")
        self.assertEqual(order("deal"), ["deal-offer"], "down twice: past the offer, then into the next section")
        self.assertEqual(order("featured")[0], "deal-buy")

        # Undo takes back the last move only, named for the widget it moved; the focus stays on
        # Undo, which now names the move before, and Redo offers the one undone.
        self.assertEqual(self.browser.find_element(By.ID, "undo").text, "Undo: Moved deal-buy down")
        self.submit("undo")
        self.assertEqual(self.browser.find_element(By.ID, "notice").text, "Undone: Moved deal-buy down")
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "undo")
        self.assertEqual(order("deal"), ["deal-offer", "deal-buy"])
        self.assertEqual(self.browser.find_element(By.ID, "redo").text, "Redo: Moved deal-buy down")
        self.assertEqual(self.browser.find_element(By.ID, "undo").text, "Undo: Moved deal-buy down")
        # Removing a card hands the focus to the card that took its place; the last one's to Undo.
        self.submit("remove-deal-offer")
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "widget-deal-buy")
        self.submit("remove-deal-buy")
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "undo")
        self.check_accessible("editor with the script")
        self.shot("15-editor-dragged")

    def move_to_by_keyboard(self, scripted):
        """Opens deal-buy's card, picks "featured: first" in its Move to menu with the keyboard, presses Enter on Move."""
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        self.open_card("deal-buy")
        # Move to… is a disclosure among the card's actions: opened by the keyboard, then its menu.
        self.browser.find_element(By.ID, "moveto-deal-buy-open").send_keys(Keys.ENTER)
        menu = self.browser.find_element(By.ID, "moveto-deal-buy")
        Select(menu).select_by_visible_text("featured: first")
        old = self.browser.find_element(By.CSS_SELECTOR, "#main > h1" if scripted else "html")
        self.browser.find_element(By.ID, "moveto-deal-buy-button").send_keys(Keys.ENTER)
        self.wait_replaced(old)
        self.assertEqual(self.draft_order("featured")[0], "deal-buy")
        focused = self.browser.switch_to.active_element.get_attribute("id")
        self.assertIn(focused, ("moveto-deal-buy", "moveto-deal-buy-button"))
        self.assertIsNotNone(self.browser.find_element(By.CSS_SELECTOR, "#widget-deal-buy details").get_attribute("open"))
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, "#widget-deal-buy details.move-to[open]"), "Move to… open again")

    def test_move_to_puts_a_widget_anywhere_by_keyboard_with_and_without_javascript(self):
        self.move_to_by_keyboard(scripted=True)
        WebDriverWait(self.browser, 5).until(lambda _: "Moved deal-buy to featured: first" in self.browser.execute_script(
            "return document.getElementById('sp-announcer').textContent"))
        scripted = self.browser
        self.browser = self.without_javascript()
        self.browser.delete_all_cookies()
        try:
            self.server.api("DELETE", "/admin/api/pages/shop/draft")
            self.move_to_by_keyboard(scripted=False)
        finally:
            self.browser = scripted

    def palette_shown(self):
        """The kinds the palette shows (not filtered out), in order."""
        return [item.get_attribute("data-kind") for item in self.browser.find_elements(By.CSS_SELECTOR, ".palette-item") if item.is_displayed()]

    def test_the_palette_filters_as_you_type_and_adds_by_drag_and_by_enter(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script(
            "return document.getElementById('palette-priceTag').draggable === true"))
        order = self.draft_order
        everything = self.palette_shown()
        # The browser flows run the demo without its promotions service: that kind is not offered.
        self.assertEqual(everything, ["cartButton", "priceTag", "recordingOffer"])
        # Each kind shows its example as the web renders it.
        self.assertIn("Cello Suite No. 1", self.browser.find_element(By.CSS_SELECTOR, "#palette-recordingOffer .example").text)

        # The filter narrows as you type, every word counting, and says how many match.
        search = self.browser.find_element(By.ID, "palette-filter")
        search.send_keys("price")
        self.assertEqual(self.palette_shown(), ["cartButton", "priceTag"])
        search.send_keys(" BUTTON")
        self.assertEqual(self.palette_shown(), ["cartButton"])
        self.assertEqual(self.browser.find_element(By.ID, "palette-count").text, "1 of 3 kinds match “price BUTTON”")
        search.send_keys(Keys.ENTER)  # Enter in the filter stays on the page
        self.assertTrue(self.browser.execute_script("window.stillHere = true; return true"))
        search.clear()
        search.send_keys("promo")
        self.assertEqual(self.palette_shown(), [])
        self.assertEqual(self.browser.find_element(By.ID, "palette-count").text, "0 of 3 kinds match “promo”")
        search.clear()
        search.send_keys(" ")
        self.assertEqual(self.palette_shown(), everything)

        # Dragged onto the page above the deal's offer: added there with the example's parameters,
        # its card open and its first field focused; no page load.
        self.browser.execute_script("""
            const item = document.getElementById('palette-priceTag');
            const target = document.getElementById('widget-deal-offer');
            const box = target.getBoundingClientRect();
            const data = new DataTransfer();
            const fire = (element, type) => element.dispatchEvent(new DragEvent(type, {
              bubbles: true, cancelable: true, dataTransfer: data, clientX: box.left + 10, clientY: box.top + 2 }));
            fire(item, 'dragstart'); fire(target, 'dragover'); fire(target, 'drop'); fire(item, 'dragend');""")
        WebDriverWait(self.browser, 10).until(lambda _: order("deal")[:1] == ["priceTag-1"])
        WebDriverWait(self.browser, 10).until(
            lambda _: self.browser.execute_script("return document.activeElement.id") == "priceTag-1-p-workID")
        self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "no page load")
        self.assertEqual(self.browser.switch_to.active_element.get_attribute("value"), "1", "the example's work")
        WebDriverWait(self.browser, 5).until(lambda _: "Added a priceTag to deal, position 1" in self.browser.execute_script(
            "return document.getElementById('sp-announcer').textContent"))
        # The new card says what to do next: type the work, Enter saves it in place.
        work = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]["sections"][1]["widgets"][0]["parameters"]["workID"]
        field = self.browser.switch_to.active_element
        field.clear()
        field.send_keys(str(work))
        heading = self.browser.find_element(By.CSS_SELECTOR, "#main > h1")
        field.send_keys(Keys.ENTER)
        self.wait_replaced(heading)
        draft = self.server.api("GET", "/admin/api/pages/shop")["draft"]["template"]
        self.assertEqual(draft["sections"][1]["widgets"][0]["parameters"], {"workID": work})

        # By keyboard: choose the section, Enter on Add; the filter typed before is kept.
        search = self.browser.find_element(By.ID, "palette-filter")
        search.send_keys("button")
        Select(self.browser.find_element(By.ID, "palette-section-cartButton")).select_by_visible_text("featured")
        heading = self.browser.find_element(By.CSS_SELECTOR, "#main > h1")
        self.browser.find_element(By.ID, "palette-add-cartButton").send_keys(Keys.ENTER)
        self.wait_replaced(heading)
        self.assertEqual(order("featured")[-1], "cartButton-1")
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "cartButton-1-p-workID")
        self.assertEqual(self.palette_shown(), ["cartButton"], "the filter survives the add")
        self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "no page load")
        self.check_accessible("editor with the palette")
        self.shot("15b-editor-palette")
        self.shot_phone_dark("15c-editor-palette-phone-dark", scroll_to="palette")

    def test_a_form_too_large_is_refused_in_place_keeping_what_was_typed(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script(
            "return document.getElementById('widget-deal-offer').draggable === true"))
        self.open_card("deal-offer")
        self.browser.execute_script(
            "window.stillHere = true; document.getElementById('deal-offer-c_segments').value = 'x'.repeat(20000)")
        self.browser.find_element(By.ID, "save-deal-offer").click()
        summary = WebDriverWait(self.browser, 10).until(lambda _: self.browser.find_element(By.ID, "error-summary"))
        self.assertIn("more than 16 KB", summary.text)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "error-summary")
        self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "no page load")
        self.assertEqual(len(self.browser.find_element(By.ID, "deal-offer-c_segments").get_attribute("value")), 20000, "the typing is kept")

    def test_the_palette_without_javascript_filters_by_a_form_and_adds_by_enter(self):
        scripted = self.browser
        self.browser = self.without_javascript()
        self.browser.delete_all_cookies()
        try:
            self.sign_in()
            self.open("/admin/pages/shop/edit")
            search = self.browser.find_element(By.ID, "palette-filter")
            search.send_keys("offer")
            page = self.browser.find_element(By.TAG_NAME, "html")
            search.send_keys(Keys.ENTER)
            self.wait_replaced(page)
            self.assertIn("filter=offer", self.browser.current_url)
            self.assertEqual(self.palette_shown(), ["recordingOffer"])
            self.assertEqual(self.browser.find_element(By.ID, "palette-count").text, "1 of 3 kinds match “offer”")
            Select(self.browser.find_element(By.ID, "palette-section-recordingOffer")).select_by_visible_text("deal")
            page = self.browser.find_element(By.TAG_NAME, "html")
            self.browser.find_element(By.ID, "palette-add-recordingOffer").send_keys(Keys.ENTER)
            self.wait_replaced(page)
            self.assertEqual(self.draft_order("deal")[-1], "recordingOffer-1")
            self.assertEqual(self.browser.switch_to.active_element.get_attribute("id"), "recordingOffer-1-p-workID")
            self.assertIsNotNone(self.browser.find_element(By.CSS_SELECTOR, "#widget-recordingOffer-1 details").get_attribute("open"))
        finally:
            self.browser = scripted

    def test_a_preview_signed_out_elsewhere_says_so_on_the_next_change(self):
        """A live preview whose session ended in another tab does not freeze silently: the next
        change it would have shown says it is signed out (and shows nothing of the change), with
        a way back to this same preview, which then follows again by itself."""
        deal_price = '#preview-live [data-node="id:deal-price"]'
        switch = lambda enabled: self.server.api("POST", "/admin/api/pages/shop/widgets/deal-price/enabled", {"enabled": enabled})
        self.sign_in()
        preview = self.browser.current_window_handle
        self.open("/admin/pages/shop/preview?platform=web&version=5")
        try:
            # The stream is open: a change shows in place.
            self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, deal_price))
            switch(False)
            WebDriverWait(self.browser, 10).until(lambda _: self.none(By.CSS_SELECTOR, deal_price))
            self.browser.switch_to.new_window("tab")
            self.open("/admin")
            self.submit("sign-out")
            self.browser.close()
            self.browser.switch_to.window(preview)
            switch(True)
            box = WebDriverWait(self.browser, 10).until(lambda _: self.browser.find_element(By.ID, "error-summary"))
            self.assertIn("Signed out", box.text)
            self.assertEqual(box.get_attribute("role"), "status")
            self.assertTrue(self.none(By.CSS_SELECTOR, deal_price), "a signed-out page is shown nothing new")
            self.check_accessible("preview signed out")
            self.shot("16c-preview-signed-out")
            # Signing in again from the link comes back to this preview, its settings kept.
            self.sign_in_again_from_the_link(preview, "/admin/pages/shop/preview?platform=web&version=5")
            # This tab follows again by itself: the box goes and the missed change shows.
            WebDriverWait(self.browser, 25).until(lambda _: self.none(By.ID, "error-summary"))
            WebDriverWait(self.browser, 10).until(lambda _: self.browser.find_elements(By.CSS_SELECTOR, deal_price))
        finally:
            switch(True)

    def test_the_preview_pins_a_providers_answer_while_editing(self):
        self.sign_in()
        self.open("/admin/pages/shop/preview?platform=web")
        self.submit("pin-live-deal-price")
        self.assertIn("Pinned", self.browser.find_element(By.ID, "notice").text)
        row = self.browser.find_element(By.ID, "unpin-live-deal-price").find_element(By.XPATH, "./ancestor::tr")
        self.assertIn("Pinned answer", row.text)
        self.assertEqual(Select(self.browser.find_element(By.ID, "platform")).first_selected_option.get_attribute("value"), "web", "the same preview")
        self.check_accessible("preview with a pin")
        # On a phone the preview fits the screen: no sideways scrolling.
        self.assertLessEqual(self.width_on_a_phone(), 390, "the preview scrolls sideways on a phone")
        self.shot("16-preview-pinned")
        self.shot_phone_dark("16b-preview-pinned-phone-dark")
        self.submit("unpin-all")
        self.assertTrue(self.none(By.ID, "unpin-all"))
        self.assertTrue(self.browser.find_elements(By.ID, "pin-live-deal-price"))
        # Unpinned, a widget keeps the answer its provider gave this preview, until asked again.
        self.open("/admin/pages/shop/preview?platform=web")
        row = self.browser.find_element(By.ID, "pin-live-deal-price").find_element(By.XPATH, "./ancestor::tr")
        self.assertIn("Kept answer", row.text)
        self.submit("fresh-answers")
        self.assertIn("Asked the providers again", self.browser.find_element(By.ID, "notice").text)
        row = self.browser.find_element(By.ID, "pin-live-deal-price").find_element(By.XPATH, "./ancestor::tr")
        self.assertNotIn("Kept answer", row.text)

    def test_device_previews_draw_ios_and_android_in_their_phones_light_and_dark_with_fallbacks_labelled(self):
        # A draft beside the live page: deal-price moved to the top of the featured section,
        # deal-offer given a headline (changed), a price tag added after deal-price.
        draft = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
        deal = draft["sections"][1]["widgets"]
        price = deal.pop(next(i for i, w in enumerate(deal) if w["id"] == "deal-price"))
        next(w for w in deal if w["id"] == "deal-offer")["content"] = {"headline": {"en": "Deal of the week"}}
        added = {"id": "added-price", "kind": "priceTag", "vertical": "pricing", "parameters": price["parameters"]}
        draft["sections"][2]["widgets"][:0] = [price, added]
        self.server.api("PUT", "/admin/api/pages/shop/draft", draft)
        self.sign_in()
        self.open("/admin/pages/shop/preview?platform=web")
        self.assertTrue(self.none(By.CSS_SELECTOR, "figure.device"), "the web is not framed")
        # Chosen in the form as a person would: Android, version 4, dark.
        Select(self.browser.find_element(By.ID, "platform")).select_by_visible_text("Android")
        Select(self.browser.find_element(By.ID, "version")).select_by_visible_text("4")
        Select(self.browser.find_element(By.ID, "appearance")).select_by_visible_text("Dark")
        self.submit("show")
        expected = {("android", "dark"): ("rgb(20, 18, 24)", "Roboto"), ("ios", "light"): ("rgb(242, 242, 247)", "-apple-system")}
        for (platform, appearance), (background, font) in expected.items():
            if platform == "ios":
                self.open("/admin/pages/shop/preview?platform=ios&version=6&appearance=light")
            frame = self.browser.find_element(By.ID, "device-live")
            self.assertEqual(frame.get_attribute("data-appearance"), appearance)
            self.assertIn(f"Live on {'iOS' if platform == 'ios' else 'Android'} at API version", frame.text)
            screen = frame.find_element(By.CSS_SELECTOR, ".rendered")
            # The platform's own tokens, whatever the browser's scheme.
            for scheme in ("light", "dark"):
                self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                style = self.browser.execute_script("const s = getComputedStyle(arguments[0]); return [s.backgroundColor, s.fontFamily]", screen)
                self.assertEqual(style[0], background, f"{platform} {appearance} with the browser {scheme}")
                self.assertIn(font, style[1])
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
            # The deal's card is its fallback, labelled right above it.
            label = frame.find_element(By.CSS_SELECTOR, '[data-node="id:preview fallback deal-offer"]')
            card = frame.find_element(By.CSS_SELECTOR, '[data-node="id:deal-offer"]')
            self.assertIn("recordingOffer", label.text)
            self.assertLessEqual(label.rect["y"] + label.rect["height"], card.rect["y"] + 4, "the label sits above its card")
            self.assertLessEqual(frame.rect["width"], 433, "a phone's width")
            # The draft in a phone of its own beside the live one, each change outlined in it and
            # named in its row (so it reads without colour too).
            phone = self.browser.find_element(By.ID, "device-draft")
            self.assertIn(f"Draft on {'iOS' if platform == 'ios' else 'Android'} at API version", phone.text)
            self.assertNotEqual(phone.rect["x"], frame.rect["x"], "side by side on a wide screen")
            for widget, change in (("deal-price", "moved"), ("deal-offer", "changed"), ("added-price", "added")):
                node = phone.find_element(By.CSS_SELECTOR, f'[data-node="id:{widget}"]')
                outline = self.browser.execute_script(
                    "const s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineWidth]", node)
                self.assertEqual(outline, ["solid", "3px"], f"{widget} outlined as {change} in the draft's phone")
                row = self.browser.find_element(By.XPATH, f"//section[@id='preview-draft']//tr[.//*[contains(@class, 'mark-{change}')]][contains(., '{widget}')]")
                self.assertIn(change, row.text)
            # What did not change is not outlined as a change: the featured section's last
            # widget in the draft, and deal-price where the live page has it.
            outline = "const s = getComputedStyle(arguments[0]); return s.outlineStyle + ' ' + s.outlineWidth"
            last = draft["sections"][2]["widgets"][-1]["id"]
            self.assertNotEqual(self.browser.execute_script(outline, phone.find_element(By.CSS_SELECTOR, f'[data-node="id:{last}"]')), "solid 3px")
            self.assertNotEqual(self.browser.execute_script(outline, frame.find_element(By.CSS_SELECTOR, '[data-node="id:deal-price"]')), "solid 3px")
            self.check_accessible(f"{platform} preview, {appearance}")
            self.browser.execute_script("arguments[0].scrollIntoView()", frame)
            self.shot(f"17-device-{platform}-{appearance}")
            self.shot_phone(f"17c-device-{platform}-{appearance}-phone-light", "light", scroll_to="device-draft")
            self.shot_phone_dark(f"17b-device-{platform}-{appearance}-phone-dark", scroll_to="device-live")
            self.assertLessEqual(self.width_on_a_phone(), 390, "the device preview scrolls sideways on a phone")

    def test_device_previews_pins_targeting_and_results_work_without_javascript(self):
        """The jobs the flows above do with the script, without it: a device preview chosen by
        its form, a provider's answer pinned and unpinned, a version chosen from its menu, an
        experiment's results on another metric with the sample a difference needs."""
        plain = self.without_javascript()
        self.sign_in_as(plain, "ada")
        plain.get(self.server.root + "/admin/pages/shop/preview?platform=web")
        Select(plain.find_element(By.ID, "platform")).select_by_visible_text("Android")
        Select(plain.find_element(By.ID, "version")).select_by_visible_text("4")
        Select(plain.find_element(By.ID, "appearance")).select_by_visible_text("Dark")
        self.submit("show", plain)
        frame = plain.find_element(By.ID, "device-live")
        self.assertIn("Live on Android at API version 4, dark", frame.text)
        self.assertIn("recordingOffer", frame.find_element(By.CSS_SELECTOR, '[data-node="id:preview fallback deal-offer"]').text)
        self.submit("pin-live-deal-price", plain)
        row = plain.find_element(By.ID, "unpin-live-deal-price").find_element(By.XPATH, "./ancestor::tr")
        self.assertIn("Pinned answer", row.text)
        self.assertIn("Live on Android at API version 4, dark", plain.find_element(By.ID, "device-live").text, "the same preview after the pin")
        self.submit("unpin-all", plain)
        self.assertTrue(self.none(By.ID, "unpin-all", plain))

        plain.get(self.server.root + "/admin/pages/shop/edit")
        plain.find_element(By.CSS_SELECTOR, "#widget-deal-price details summary").click()
        menu = Select(plain.find_element(By.ID, "deal-price-c_minVersion"))
        self.assertTrue(all("% of requests in the last 7 days" in option.text for option in menu.options[1:]))
        menu.select_by_value("5")
        self.submit("save-deal-price", plain)
        self.assertIn("app versions 5 and later", plain.find_element(By.CSS_SELECTOR, "#widget-deal-price .chips").text)

        plain.get(self.server.root + "/admin/experiments/shop-free-shipping")
        Select(plain.find_element(By.ID, "metric")).select_by_value("offers-seen")
        plain.find_element(By.ID, "effect").send_keys("0.5")
        self.submit("show-metric", plain)
        self.assertIn("Shop offers seen per exposed user", plain.find_element(By.CSS_SELECTOR, "#results caption").text)
        self.assertTrue(plain.find_element(By.ID, "verdict").text)
        self.assertIn("0.50", plain.find_element(By.ID, "sample-needed").text)

    def test_the_pages_no_other_flow_checks_are_accessible_too(self):
        """axe on the admin pages the flows above do not reach: new experiment, not-found pages and refusals."""
        self.sign_in()
        for path, what in (
            ("/admin/experiments/new", "new experiment"),
            ("/admin/nowhere", "not found"),
            ("/admin/pages/no-such-page/edit", "editor of a page that does not exist"),
            ("/admin/pages/no-such-page/preview", "preview of a page that does not exist"),
            ("/admin/pages/shop/compare?from=1&to=999", "compare with a revision that does not exist"),
            ("/admin/pages/shop/edit?filter=nothing-matches-this", "editor with a palette filtered to nothing"),
        ):
            self.open(path)
            self.assertTrue(self.browser.find_element(By.TAG_NAME, "h1").text, path)
            self.check_accessible(what)
        # The discard confirmation (a draft first).
        self.open("/admin/pages/shop/edit")
        self.submit("remove-free-shipping")
        self.open("/admin/pages/shop")
        self.submit("discard")
        self.assertIn("Removed free-shipping", self.browser.find_element(By.ID, "changes").text)
        self.check_accessible("discard confirmation")
        self.open("/admin/pages/shop/preview")
        self.browser.execute_script("""
            const form = document.createElement('form');
            form.method = 'post';
            form.action = location.pathname + '/pins';
            for (const [name, value] of [['csrf', document.querySelector('input[name=csrf]').value], ['widget', 'never-answered'], ['pin', 'yes']]) {
              const input = document.createElement('input');
              input.type = 'hidden'; input.name = name; input.value = value;
              form.append(input);
            }
            document.body.append(form);
            form.submit();""")
        WebDriverWait(self.browser, 10).until(lambda _: "Not pinned" in self.browser.title)
        self.check_accessible("a pin refused")

    def test_experiments_created_scheduled_started_stopped_measured_and_deleted(self):
        self.sign_in()
        self.open("/admin/experiments")
        self.assertIn("shop-free-shipping", self.browser.find_element(By.ID, "experiment-list").text)
        self.check_accessible("experiment list")
        self.submit("new-experiment")

        # A weight that is not a number: refused with the summary at the top, what was typed kept.
        self.browser.find_element(By.ID, "experiment-key").send_keys("cta-test")
        variants = self.browser.find_element(By.ID, "experiment-variants")
        variants.clear()
        variants.send_keys("control 50\nbig-button fifty")
        start = self.browser.find_element(By.ID, "experiment-start")
        self.assertEqual(start.get_attribute("type"), "datetime-local")
        self.browser.execute_script("arguments[0].value = '2030-01-01T09:00'", start)
        self.submit("save-experiment")
        summary = self.browser.find_element(By.ID, "error-summary")
        self.assertIn("line 2: write a name and a whole-number weight", summary.text)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "error-summary")
        self.assertEqual(self.browser.find_element(By.ID, "experiment-variants").get_attribute("value"), "control 50\nbig-button fifty")
        self.assertEqual(self.browser.find_element(By.ID, "experiment-start").get_attribute("value"), "2030-01-01T09:00")
        self.assertEqual(self.browser.find_element(By.ID, "experiment-key").get_attribute("value"), "cta-test")

        # Fixed: created, scheduled for 2030.
        variants = self.browser.find_element(By.ID, "experiment-variants")
        variants.clear()
        variants.send_keys("control 50\nbig-button 50")
        self.submit("save-experiment")
        self.assertEqual(self.path(), "/admin/experiments/cta-test?done=experimentSaved")
        self.assertIn("scheduled: starts 2030-01-01 09:00 UTC", self.browser.find_element(By.ID, "experiment-state").text)
        self.assertEqual(self.experiment("cta-test")["start"], "2030-01-01T09:00:00Z")
        self.check_accessible("experiment page")
        self.shot("12-experiment-scheduled")

        # Started now (the button says which scheduled start it brings forward), then stopped now:
        # only the action the state allows is offered; the state says so, the API agrees.
        self.assertEqual(self.browser.find_element(By.ID, "start-now").text, "Start now, not 2030-01-01 09:00 UTC")
        self.assertTrue(self.none(By.ID, "stop-now"))
        self.submit("start-now")
        # Asked first, in words: who is bucketed into what, and which widgets that shows.
        self.assertIn("are bucketed into control 50 (50 %), big-button 50 (50 %)", self.browser.find_element(By.ID, "what-changes").text)
        self.assertIn("No live page shows a widget for it.", self.browser.find_element(By.ID, "what-changes").text)
        self.check_accessible("start an experiment?")
        self.submit("confirm-start")
        self.assertIn("Started", self.browser.find_element(By.ID, "notice").text)
        self.assertTrue(self.browser.find_element(By.ID, "experiment-state").text.startswith("running since"))
        self.assertTrue(self.none(By.ID, "start-now"))
        self.submit("stop-now")
        self.assertIn("hidden from everyone", self.browser.find_element(By.ID, "what-changes").text)
        self.check_accessible("stop an experiment?")
        self.submit("confirm-stop")
        self.assertTrue(self.browser.find_element(By.ID, "experiment-state").text.startswith("stopped"))
        self.assertEqual(self.browser.find_element(By.ID, "start-now").text, "Start again now")
        self.assertIsNotNone(self.experiment("cta-test").get("stop"))
        rows = self.browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")
        self.assertEqual([row.find_element(By.TAG_NAME, "td").text for row in rows], ["control", "big-button"])

        # Nothing names it: it can be deleted, once the question what goes is answered.
        self.submit("delete-experiment")
        self.assertIn("cannot be undone", self.browser.find_element(By.TAG_NAME, "main").text)
        self.assertIn("control 50 (50 %), big-button 50 (50 %)", self.browser.find_element(By.TAG_NAME, "main").text)
        self.assertIsNotNone(self.experiment("cta-test"), "asked, not yet deleted")
        self.check_accessible("delete an experiment?")
        self.submit("confirm-delete")
        self.assertIn("Experiment deleted", self.browser.find_element(By.ID, "notice").text)
        self.assertNotIn("cta-test", self.browser.find_element(By.ID, "experiment-list").text)

        # The shop names shop-free-shipping: the page says which, and offers no delete.
        self.open("/admin/experiments/shop-free-shipping")
        self.assertIn("shop", self.browser.find_element(By.ID, "delete-refused").text)
        self.assertIsNotNone(self.browser.find_element(By.ID, "delete-experiment").get_attribute("disabled"))
        # Renaming the variant the shop's banner shows to is refused the same way: the summary
        # names the widget, the typing stays, nothing is saved.
        variants = self.browser.find_element(By.ID, "experiment-variants")
        typed = variants.get_attribute("value").replace("banner", "banners")
        variants.clear()
        variants.send_keys(typed)
        self.submit("save-experiment")
        summary = self.browser.find_element(By.ID, "error-summary")
        self.assertIn("variant 'banner' is shown by widget", summary.text)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "error-summary")
        self.assertEqual(self.browser.find_element(By.ID, "experiment-variants").get_attribute("value"), typed)
        self.assertEqual([v["name"] for v in self.experiment("shop-free-shipping")["variants"]], ["control", "banner"])
        self.check_accessible("experiment variant in use")
        self.shot("12b-experiment-variant-in-use")
        self.shot_phone_dark("12c-experiment-variant-in-use-phone-dark")

        # Results with users: three listeners open the shop (each is exposed to a variant), one then
        # makes two playlists. Every exposed user is counted, and the means add up to the two.
        tokens = [self.server.new_user() for _ in range(3)]
        for token in tokens:
            request = urllib.request.Request(self.server.root + "/api/v5/screens/shop", headers={"Authorization": "Bearer " + token})
            urllib.request.urlopen(request, timeout=30).read()
        for name in ("After the shop", "And another"):
            request = urllib.request.Request(
                self.server.root + "/api/v5/commands/playlists/create", method="POST", data=json.dumps({"name": name}).encode(),
                headers={"Content-Type": "application/json", "Authorization": "Bearer " + tokens[0]})
            urllib.request.urlopen(request, timeout=30).read()
        self.open("/admin/experiments/shop-free-shipping")
        rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in self.browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")]
        self.assertEqual([row[0] for row in rows], ["control", "banner"])
        users = [int(row[2]) for row in rows]
        self.assertGreaterEqual(sum(users), 3)
        # Two playlists by one exposed user (the first playlist of each came before the shop): the
        # means times the users add up to at least those two.
        self.assertGreaterEqual(round(sum(float(row[3]) * int(row[2]) for row in rows)), 2)
        self.assertIn("Playlists created per exposed user", self.browser.find_element(By.ID, "results").text)
        self.check_accessible("experiment results")
        self.shot("13-experiment-results")
        self.shot_phone_dark("13b-experiment-results-phone-dark")

    def scripted_sign_in(self, root, name, password):
        """A sign-in from a script with no cookies but the form's own: the status it answers."""
        opener = urllib.request.build_opener(NoRedirect)
        with opener.open(root + "/admin/login", timeout=30) as page:
            html = page.read().decode()
            cookie = page.headers["Set-Cookie"].split(";")[0]
        token = html.split('name="login" value="')[1].split('"')[0]
        body = urllib.parse.urlencode({"login": token, "name": name, "password": password}).encode()
        request = urllib.request.Request(root + "/admin/login", method="POST", data=body, headers={"Cookie": cookie})
        try:
            with opener.open(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def test_a_browser_that_signed_in_before_is_not_locked_out_by_failures_from_elsewhere(self):
        """OWASP's device cookies: after a success the browser keeps a signed cookie for ada, and
        is judged by its own failures; every browser without one is still slowed by the guesses."""
        # A server of its own: the guesses below run down the name's and the address's budgets,
        # which would slow every later test's sign-in on the shared server.
        server = Server()
        try:
            self.sign_in_as(self.browser, "ada", root=server.root)
            self.assertEqual(self.browser.current_url, server.root + "/admin")
            cookies = {c["name"]: c for c in self.browser.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]}
            device = cookies.get("screenplay_admin_device_ada")
            self.assertIsNotNone(device, "a successful sign-in keeps a device cookie")
            self.assertTrue(device["httpOnly"])
            self.assertEqual((device["path"], device["sameSite"]), ("/admin/login", "Strict"))
            self.submit("sign-out")

            # Wrong passwords from a script: refused one by one (each costs a hash, so the budget
            # refills a little meanwhile), then unchecked (429) once the name's budget is spent.
            def exhaust():
                codes = []
                while len(codes) < 60 and codes[-1:] != [429]:
                    codes.append(self.scripted_sign_in(server.root, "ada", f"wrong guess {len(codes)}"))
                return codes
            codes = exhaust()
            self.assertEqual(codes[-1], 429, codes)
            self.assertGreaterEqual(codes.count(401), 10, codes)
            # The right password without the cookie waits too: the guesser cannot tell it from theirs.
            self.assertEqual(self.scripted_sign_in(server.root, "ada", PASSWORD), 429)
            plain = self.without_javascript()
            start_clean(plain)
            plain.get(server.root + "/admin/login")
            plain.find_element(By.ID, "name").send_keys("ada")
            plain.find_element(By.ID, "password").send_keys(PASSWORD)
            exhaust()
            # The guessing goes on while the form is sent: the budget refills one attempt every
            # 6 s, and a loaded machine's slow submit once arrived just after a refill, with no
            # guess in between to spend it.
            guessing = threading.Event()
            def keep_guessing():
                while not guessing.is_set():
                    self.scripted_sign_in(server.root, "ada", "wrong guess meanwhile")
            guesser = threading.Thread(target=keep_guessing, daemon=True)
            guesser.start()
            try:
                self.submit("sign-in", plain)
            finally:
                guessing.set()
                guesser.join(timeout=60)
            self.assertIn("Too many sign-in attempts", plain.find_element(By.ID, "login-error").text)
            self.shot_of(plain, "21-sign-in-throttled-untrusted")

            # Ada's own browser signs in at once, while the guessing goes on.
            self.browser.get(server.root + "/admin/login")
            self.browser.find_element(By.ID, "name").send_keys("ada")
            self.browser.find_element(By.ID, "password").send_keys(PASSWORD)
            exhaust()
            self.submit("sign-in")
            self.assertEqual(self.browser.current_url, server.root + "/admin", self.browser.find_element(By.TAG_NAME, "main").text)
        finally:
            start_clean(self.browser)
            server.stop()

    def test_two_editors_a_stale_experiment_save_is_refused_keeping_the_typing_and_showing_theirs(self):
        """Ada and Bob open the same experiment; Bob saves 70/30; Ada's save from her older page
        is refused in words, keeps what she typed, shows Bob's values, and replaces them only when
        she saves again having seen them."""
        fifty = {"variants": [{"name": "control", "weight": 50}, {"name": "variant", "weight": 50}]}
        self.server.api("PUT", "/admin/api/experiments/two-editors", fifty)
        other = self.second_browser()
        self.sign_in()
        self.sign_in_as(other, "bob")
        self.open("/admin/experiments/two-editors")
        other.get(self.server.root + "/admin/experiments/two-editors")

        field = other.find_element(By.ID, "experiment-variants")
        field.clear()
        field.send_keys("control 70\nvariant 30")
        self.submit("save-experiment", other)
        self.assertIn("Experiment saved", other.find_element(By.ID, "notice").text)

        variants = self.browser.find_element(By.ID, "experiment-variants")
        variants.clear()
        variants.send_keys("control 60\nvariant 40")
        self.browser.find_element(By.ID, "experiment-segment").send_keys("beta-testers")
        self.submit("save-experiment")
        summary = self.browser.find_element(By.ID, "error-summary")
        self.assertIn("Not saved: 1 problem", summary.text)
        self.assertIn("bob changed this experiment at ", summary.text)
        self.assertIn("after you opened it: ", summary.text)
        self.assertIn("weights control 50 → 70, variant 50 → 30", summary.text)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "error-summary")
        self.assertEqual(self.browser.find_element(By.ID, "experiment-variants").get_attribute("value"), "control 60\nvariant 40")
        self.assertEqual(self.browser.find_element(By.ID, "experiment-segment").get_attribute("value"), "beta-testers")
        theirs = self.browser.find_element(By.ID, "their-values").text
        self.assertIn("Saved meanwhile by bob", theirs)
        self.assertIn("control 70, variant 30", theirs)
        self.assertEqual([v["weight"] for v in self.experiment("two-editors")["variants"]], [70, 30], "bob's weights stay")
        self.check_accessible("a stale experiment save")
        self.shot("19-experiment-stale-save")
        self.shot_phone_dark("19b-experiment-stale-save-phone-dark", scroll_to="their-values")

        # Having seen them, she saves again: hers replace his, knowingly.
        self.submit("save-experiment")
        self.assertEqual(self.path(), "/admin/experiments/two-editors?done=experimentSaved")
        stored = self.experiment("two-editors")
        self.assertEqual(([v["weight"] for v in stored["variants"]], stored.get("targetSegment")), ([60, 40], "beta-testers"))
        self.server.api("DELETE", "/admin/api/experiments/two-editors")

    def test_two_editors_each_undo_and_redo_their_own_changes_named_for_the_widget(self):
        """Ada and Bob edit the shop at once: each one's Undo takes back their own change only,
        named for the widget it moved, and one that the other has since built on is refused in words."""
        other = self.second_browser()
        self.sign_in()
        self.sign_in_as(other, "bob")
        self.open("/admin/pages/shop/edit")
        WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script(
            "return document.getElementById('widget-deal-buy').draggable === true"))
        self.submit_in_place("up-deal-buy")
        self.assertEqual(self.draft_order("deal"), ["deal-offer", "deal-buy", "deal-price"])

        other.get(self.server.root + "/admin/pages/shop/edit")
        WebDriverWait(other, 10).until(lambda _: other.execute_script("return document.getElementById('widget-deal-buy').draggable === true"))
        self.submit_in_place("down-spring-sale", other)
        self.assertEqual(self.draft_order("promotions"), ["free-shipping", "spring-sale"])
        self.assertEqual(other.find_element(By.ID, "undo").text, "Undo: Moved spring-sale down")

        # Ada's Undo (her page is older than Bob's change) takes back her move only.
        self.assertEqual(self.browser.find_element(By.ID, "undo").text, "Undo: Moved deal-buy up")
        self.submit("undo")
        self.assertEqual(self.browser.find_element(By.ID, "notice").text, "Undone: Moved deal-buy up")
        self.assertEqual(self.draft_order("deal"), ["deal-offer", "deal-price", "deal-buy"])
        self.assertEqual(self.draft_order("promotions"), ["free-shipping", "spring-sale"], "bob's move stays")
        self.assertEqual(self.browser.find_element(By.ID, "redo").text, "Redo: Moved deal-buy up")
        self.assertTrue(self.none(By.ID, "undo"), "nothing else of ada's to undo")
        self.shot("20-editor-own-undo")
        other.refresh()
        self.assertEqual(other.find_element(By.ID, "undo").text, "Undo: Moved spring-sale down")
        self.assertTrue(self.none(By.ID, "redo", other), "ada's undo is not bob's to redo")

        # Bob moves the price up, in the section Ada's page shows as it was.
        WebDriverWait(other, 10).until(lambda _: other.execute_script("return document.getElementById('widget-deal-buy').draggable === true"))
        self.submit_in_place("up-deal-price", other)
        self.assertEqual(self.draft_order("deal"), ["deal-price", "deal-offer", "deal-buy"])
        # Ada's Move up, from her older page, is refused in place, the card saying why.
        WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script(
            "return document.getElementById('widget-deal-buy').draggable === true"))
        self.submit_in_place("up-deal-buy")
        self.assertIn("It or its neighbours moved since you loaded the page", self.browser.find_element(By.ID, "widget-deal-buy").text)
        self.assertIn("deal-buy: It or its neighbours moved", self.browser.find_element(By.ID, "error-summary").text)
        self.assertEqual(self.draft_order("deal"), ["deal-price", "deal-offer", "deal-buy"], "nothing moved")
        self.check_accessible("the editor refusing a stale move")
        self.shot("20b-editor-stale-move")
        self.shot_phone_dark("20c-editor-stale-move-phone-dark", scroll_to="widget-deal-buy")
        # Her Redo would reorder the section Bob has changed since: refused in words.
        self.submit("redo")
        summary = self.browser.find_element(By.ID, "error-summary")
        self.assertIn("Not redone: “Moved deal-buy up” — the widgets of section deal changed since (last by bob: “Moved deal-price up”)", summary.text)
        self.assertEqual(self.draft_order("deal"), ["deal-price", "deal-offer", "deal-buy"], "nothing changed")

        # Bob's Undo and Redo are his: each his own newest.
        other.refresh()
        self.submit("undo", other)
        self.assertEqual(other.find_element(By.ID, "notice").text, "Undone: Moved deal-price up")
        self.submit("undo", other)
        self.assertEqual(other.find_element(By.ID, "notice").text, "Undone: Moved spring-sale down")
        # Every change undone: the page is the live one again, with no draft.
        self.assertEqual(self.page_order("promotions"), ["spring-sale", "free-shipping"])
        self.assertEqual(self.draft_order(), [])
        self.submit("redo", other)
        self.assertEqual(other.find_element(By.ID, "notice").text, "Redone: Moved spring-sale down")
        self.assertEqual(self.draft_order("promotions"), ["free-shipping", "spring-sale"])

    def shop_component(self, widget, language, version=6):
        """The component `widget` of the live shop as an app of `version` reading `language` gets it (it renders the shop's kinds)."""
        request = urllib.request.Request(
            self.server.root + f"/api/v{version}/screens/shop",
            headers={"Accept-Language": language, "Screenplay-Platform": "ios", "Screenplay-Components": "recordingOffer,priceTag,cartButton,promoBanner"})
        with urllib.request.urlopen(request, timeout=30) as response:
            screen = json.loads(response.read())
        return next(c for section in screen["sections"] for c in section["components"] if c.get("id") == widget)

    def test_a_deal_gets_copy_in_two_languages_typed_on_its_card_seen_by_the_preview_the_api_and_the_public_page(self):
        """A product person writes a deal's headline and body in English and German, an image
        with its alt text and a link, on the card itself: counted as they type, pictured on the
        card in either language, saved to the draft after a pause (the preview shows it), an image
        that does not load refused beside its field; published, apps read it in their language and
        the public page shows it."""
        self.sign_in()
        preview = self.browser.current_window_handle
        self.open("/admin/pages/shop/preview?platform=web")
        self.browser.execute_script(WATCH)
        self.browser.execute_script("window.arm('headline', '#main', 'Deal of the week', true)")
        self.browser.switch_to.new_window("tab")
        editor = self.browser.current_window_handle
        try:
            self.open("/admin/pages/shop/edit")
            self.open_card("deal-offer")
            headline = self.browser.find_element(By.ID, "deal-offer-k_headline_en")
            headline.send_keys("Deal of the week")
            count = self.browser.find_element(By.ID, "deal-offer-k_headline_en-count")
            self.assertEqual(count.text, "16 of 60 characters")
            picture = self.browser.find_element(By.CSS_SELECTOR, "#widget-deal-offer .content-picture")
            self.assertEqual(picture.find_element(By.CSS_SELECTOR, "[data-picture=headline]").text, "Deal of the week")
            typed = self.browser.execute_script("return Date.now()")
            # The preview in the other tab follows the draft, saved after the pause in typing.
            self.browser.switch_to.window(preview)
            WebDriverWait(self.browser, 10).until(
                lambda _: self.browser.execute_script("return window.seen.headline"), "the preview never showed the headline")
            took = self.browser.execute_script("return window.seen.headline") - typed
            print(f"\n    the preview showed the headline {took} ms after the typing stopped (700 ms of it the pause)", file=sys.stderr)
            self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "changed in place, not reloaded")
            self.browser.switch_to.window(editor)
            self.assertEqual(self.draft_widget("deal-offer")["content"], {"headline": {"en": "Deal of the week"}})
            status = self.browser.find_element(By.CSS_SELECTOR, "#widget-deal-offer .autosave")
            self.assertIn("Saved to the draft", status.text)

            # German, a body in both, seen on the card's picture in German; a body too long is counted as such.
            self.browser.find_element(By.ID, "deal-offer-k_headline_de").send_keys("Angebot der Woche")
            self.browser.find_element(By.ID, "deal-offer-k_body_en").send_keys("Three recordings, one price: this week only. " * 4)
            self.assertIn("too many", self.browser.find_element(By.ID, "deal-offer-k_body_en-count").text)
            body = self.browser.find_element(By.ID, "deal-offer-k_body_en")
            body.clear()
            body.send_keys("Three recordings, one price: this week only.")
            self.browser.find_element(By.ID, "deal-offer-k_body_de").send_keys("Drei Aufnahmen, ein Preis: nur diese Woche.")
            Select(self.browser.find_element(By.CSS_SELECTOR, "#widget-deal-offer [data-picture-locale]")).select_by_value("de")
            self.assertEqual(picture.find_element(By.CSS_SELECTOR, "[data-picture=headline]").text, "Angebot der Woche")
            self.assertEqual(picture.find_element(By.CSS_SELECTOR, "[data-picture=body]").text, "Drei Aufnahmen, ein Preis: nur diese Woche.")

            # An image that is not this site's is refused beside its field when the pause saves; the typing stays.
            image = self.browser.find_element(By.ID, "deal-offer-k_image_url")
            image.send_keys("/images/work/99999.svg")
            self.browser.find_element(By.ID, "deal-offer-k_image_alt_en").send_keys("The score's first page")
            error = WebDriverWait(self.browser, 10).until(lambda _: self.browser.find_elements(By.ID, "deal-offer-k_image_url-error"))
            self.assertIn("does not load", error[0].text)
            self.assertIn("Not saved", status.text)
            self.assertEqual(image.get_attribute("value"), "/images/work/99999.svg")
            image.clear()
            image.send_keys("/images/work/1.svg")
            self.browser.find_element(By.ID, "deal-offer-k_image_alt_de").send_keys("Die erste Seite der Partitur")
            link = self.browser.find_element(By.ID, "deal-offer-k_link")
            link.send_keys("screens/composer/bach")
            WebDriverWait(self.browser, 10).until(lambda _: self.draft_widget("deal-offer")["content"].get("link") == "screens/composer/bach")
            self.assertTrue(self.none(By.ID, "deal-offer-k_image_url-error"), "the error went with the fix")
            self.assertTrue(self.browser.execute_script("return document.activeElement.id === 'deal-offer-k_link'"), "the focus stayed where the typing was")
            content = self.draft_widget("deal-offer")["content"]
            self.assertEqual(content["headline"], {"en": "Deal of the week", "de": "Angebot der Woche"})
            self.assertEqual(content["image"], {"url": "/images/work/1.svg", "alt": {"en": "The score's first page", "de": "Die erste Seite der Partitur"}})
            self.browser.execute_script("arguments[0].scrollIntoView()", picture)
            self.shot("12a-content-on-the-card")
            self.check_accessible("the editor with a card's content open")
            self.shot_phone_dark("12b-content-on-the-card-phone-dark", scroll_to="widget-deal-offer")

            # Saved with the button too (the Save after autosaves is not refused as stale), then published.
            self.submit_in_place("save-deal-offer")
            self.assertTrue(self.none(By.CSS_SELECTOR, "#error-summary"), "a Save after the pauses' saves goes through")
            # Typing, then at once a move from the same page: the pause's save goes first, and the
            # move names the version it made (not refused as someone else's change).
            self.open_card("deal-offer")
            self.browser.find_element(By.ID, "deal-offer-k_body_en").send_keys(" Ends Sunday.")
            self.submit_in_place("down-deal-offer")
            self.assertTrue(self.none(By.CSS_SELECTOR, "#error-summary"), "the move after the typing goes through")
            self.assertEqual(self.draft_order("deal")[:2], ["deal-price", "deal-offer"])
            self.assertEqual(self.draft_widget("deal-offer")["content"]["body"]["en"], "Three recordings, one price: this week only. Ends Sunday.")
            self.server.api("POST", "/admin/api/pages/shop/publish", {"note": "deal copy"})
        finally:
            self.browser.switch_to.window(editor)
            self.browser.close()
            self.browser.switch_to.window(preview)

        german = self.shop_component("deal-offer", "de-CH")
        english = self.shop_component("deal-offer", "en-GB")
        french = self.shop_component("deal-offer", "fr")
        self.assertEqual((german["headline"], german["body"], german["imageAlt"]), ("Angebot der Woche", "Drei Aufnahmen, ein Preis: nur diese Woche.", "Die erste Seite der Partitur"))
        self.assertEqual((english["headline"], english["link"]), ("Deal of the week", "screens/composer/bach"))
        self.assertEqual(french["headline"], "Deal of the week", "other languages read the default")
        self.assertIn("title", german, "the catalog's own fields stay the vertical's")
        # An app from before the kind's new fields reads the deal through the fallback row, headline first.
        self.open("/screens/shop")
        row = WebDriverWait(self.browser, 10).until(lambda _: self.browser.find_elements(By.XPATH, "//*[contains(text(), 'Deal of the week')]"))
        self.assertTrue(row[0].is_displayed())
        self.shot("12c-public-page-with-the-deal-copy")

    def test_a_banner_with_copy_in_two_languages_is_read_by_apps_and_on_the_public_page_in_each(self):
        """On a demo whose promotions service runs (answering which promotions run, never their
        words): a product person adds a promotion banner from the palette (it starts with the
        example's headline, since a banner needs one), writes its headline and body in English and
        German on the card, and publishes; apps read it in their language, and so does the public
        shop page for an English and a German browser."""
        promotions = PromotionsService()
        server = Server(promotions=promotions.url)
        original = type(self).server
        type(self).server = server
        try:
            self.sign_in()
            self.open("/admin/pages/shop/edit")
            self.assertIn("promoBanner", self.palette_shown(), "offered where its vertical runs")
            Select(self.browser.find_element(By.ID, "palette-section-promoBanner")).select_by_visible_text("promotions")
            heading = self.browser.find_element(By.CSS_SELECTOR, "#main > h1")
            self.browser.find_element(By.ID, "palette-add-promoBanner").send_keys(Keys.ENTER)
            self.wait_replaced(heading)
            self.assertEqual(self.draft_widget("promoBanner-1")["content"], {"headline": {"en": "Spring sale: 20% off every recording"}})
            self.open_card("promoBanner-1")
            Select(self.browser.find_element(By.ID, "promoBanner-1-k_tone")).select_by_value("accent")
            headline = self.browser.find_element(By.ID, "promoBanner-1-k_headline_en")
            headline.clear()
            headline.send_keys("Autumn recordings, 30% off")
            self.browser.find_element(By.ID, "promoBanner-1-k_headline_de").send_keys("Herbstaufnahmen, 30 % günstiger")
            self.browser.find_element(By.ID, "promoBanner-1-k_detail_en").send_keys("This week only.")
            self.browser.find_element(By.ID, "promoBanner-1-k_detail_de").send_keys("Nur diese Woche.")
            WebDriverWait(self.browser, 10).until(
                lambda _: self.draft_widget("promoBanner-1")["content"].get("detail") == {"en": "This week only.", "de": "Nur diese Woche."},
                "the pause in typing saves the draft")
            content = self.draft_widget("promoBanner-1")["content"]
            self.assertEqual(content["headline"], {"en": "Autumn recordings, 30% off", "de": "Herbstaufnahmen, 30 % günstiger"})
            self.assertEqual(content["tone"], "accent", "the colour chosen from the tokens")
            self.check_accessible("the editor with a new banner's copy")
            server.api("POST", "/admin/api/pages/shop/publish", {"note": "autumn banner"})

            german, english = self.shop_component("promoBanner-1", "de-AT"), self.shop_component("promoBanner-1", "en-US")
            self.assertEqual((german["headline"], german["detail"]), ("Herbstaufnahmen, 30 % günstiger", "Nur diese Woche."))
            self.assertEqual((english["headline"], english["detail"], english["tone"]), ("Autumn recordings, 30% off", "This week only.", "accent"))
            self.assertEqual(self.shop_component("spring-sale", "de")["headline"], "Frühlingsangebot: 20 % auf alle Aufnahmen", "the seeded banner's words are the layout's too")

            # The public page, for a browser asking for German and then for English.
            start_clean(self.browser)
            for language, headline_text, detail_text, shot in (
                ("de-DE,de;q=0.9", "Herbstaufnahmen, 30 % günstiger", "Nur diese Woche.", "12d-public-banner-german"),
                ("en-GB,en;q=0.9", "Autumn recordings, 30% off", "This week only.", "12e-public-banner-english"),
            ):
                self.browser.execute_cdp_cmd("Network.enable", {})
                self.browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": language}})
                self.open("/screens/shop")
                main = self.browser.find_element(By.ID, "main")
                WebDriverWait(self.browser, 10).until(lambda _: headline_text in main.text, f"{headline_text!r} on the page in {language}")
                self.assertIn(detail_text, main.text)
                self.shot(shot)
            self.check_accessible("the public shop with a banner")
        finally:
            type(self).server = original
            server.stop()
            promotions.stop()
            self.browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})

    def test_content_without_javascript_is_saved_by_the_cards_form_with_errors_beside_fields(self):
        plain = self.without_javascript()
        self.sign_in_as(plain, "ada")
        plain.get(self.server.root + "/admin/pages/shop/edit")
        plain.find_element(By.CSS_SELECTOR, "#widget-deal-offer details summary").click()
        plain.find_element(By.ID, "deal-offer-k_headline_en").send_keys("x" * 61)
        plain.find_element(By.ID, "deal-offer-k_headline_de").send_keys("Angebot")
        plain.find_element(By.ID, "deal-offer-k_link").send_keys("screens/admin")
        self.submit("save-deal-offer", plain)
        errors = {e.get_attribute("id"): e.text for e in plain.find_elements(By.CSS_SELECTOR, "#widget-deal-offer .error")}
        self.assertIn("61 characters; at most 60", errors.get("deal-offer-k_headline_en-error", ""), errors)
        self.assertIn("opens no screen of this app", errors.get("deal-offer-k_link-error", ""), errors)
        # What was typed is kept, and the summary at the top links to each field.
        self.assertEqual(plain.find_element(By.ID, "deal-offer-k_headline_de").get_attribute("value"), "Angebot")
        links = [a.get_attribute("href").split("#")[1] for a in plain.find_elements(By.CSS_SELECTOR, "#error-summary a")]
        self.assertIn("deal-offer-k_headline_en", links)
        self.check_accessible_markup("a card's content refused without the script", plain.page_source)
        self.assertIn("61 characters; at most 60", self.browser.find_element(By.ID, "deal-offer-k_headline_en-error").text, "what axe read was that page")
        fix = plain.find_element(By.ID, "deal-offer-k_headline_en")
        fix.clear()
        fix.send_keys("Deal of the week")
        link = plain.find_element(By.ID, "deal-offer-k_link")
        link.clear()
        link.send_keys("screens/work/1")
        self.submit("save-deal-offer", plain)
        self.assertEqual(self.draft_widget("deal-offer")["content"], {"headline": {"en": "Deal of the week", "de": "Angebot"}, "link": "screens/work/1"})
        self.assertIn("Headline “Deal of the week” (de, en)", plain.find_element(By.CSS_SELECTOR, "#widget-deal-offer .content-summary").text)

    def test_a_publish_scheduled_from_the_review_happens_on_its_own_and_an_open_page_follows(self):
        """The review's second form publishes the draft later: the page shows when, what it will
        change and how to cancel; at its time the server publishes it with nobody there, and a
        shop page open in another tab changes in place."""
        before = self.server.api("GET", "/admin/api/pages/shop")["live"]
        draft = before["template"]
        draft["sections"][1]["title"] = "Deal of the hour"
        self.server.api("PUT", "/admin/api/pages/shop/draft", draft)
        self.sign_in()
        admin = self.browser.current_window_handle
        self.browser.switch_to.new_window("tab")
        shop = self.browser.current_window_handle
        self.open("/screens/shop")
        self.browser.execute_script(WATCH)
        self.browser.execute_script("window.arm('retitled', '#main', 'Deal of the hour', true)")
        try:
            self.browser.switch_to.window(admin)
            self.open("/admin/pages/shop/publish")
            self.check_accessible("the publish review with its schedule form")
            # The picker holds minutes; the test asks for a time a few seconds ahead (the server reads seconds too).
            at = self.browser.execute_script("""
                const at = new Date(Date.now() + 6000); const input = document.getElementById('schedule-at');
                input.step = 1; input.value = at.toISOString().slice(0, 19); return at.toISOString().slice(0, 19) + 'Z';""")
            self.browser.find_element(By.ID, "schedule-note").send_keys("the hour's deal")
            self.submit("confirm-schedule")
            self.assertIn("Scheduled:", self.browser.find_element(By.CSS_SELECTOR, ".notice").text)
            section = self.browser.find_element(By.ID, "schedule")
            self.assertIn("Deal of the day” → “Deal of the hour”", section.text)
            self.assertEqual(section.find_element(By.TAG_NAME, "time").get_attribute("datetime"), at)
            self.shot("13a-scheduled-publish")
            self.shot_phone_dark("13b-scheduled-publish-phone-dark", scroll_to="schedule")
            self.check_accessible("a page with a scheduled publish")
            # Nobody acts: at its time the server publishes it, and the open shop follows.
            WebDriverWait(self.browser, 30, poll_frequency=0.25).until(
                lambda _: self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"] == before["revision"] + 1,
                "the scheduled publish never happened")
            live = self.server.api("GET", "/admin/api/pages/shop")["live"]
            self.assertEqual(live["template"]["sections"][1]["title"], "Deal of the hour")
            self.browser.switch_to.window(shop)
            WebDriverWait(self.browser, 10).until(lambda _: self.browser.execute_script("return window.seen.retitled"), "the open shop did not follow")
            self.assertTrue(self.browser.execute_script("return window.stillHere === true"), "changed in place, not reloaded")
            self.browser.switch_to.window(admin)
            self.open("/admin/pages/shop")
            self.assertTrue(self.none(By.ID, "schedule"), "no schedule shown once it is published")
            self.assertIn("scheduled for", self.browser.find_element(By.ID, "history").text)
        finally:
            self.browser.switch_to.window(shop)
            self.browser.close()
            self.browser.switch_to.window(admin)

    def test_a_scheduled_publish_is_cancelled_without_javascript(self):
        draft = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
        draft["title"] = "Shop later"
        self.server.api("PUT", "/admin/api/pages/shop/draft", draft)
        plain = self.without_javascript()
        self.sign_in_as(plain, "ada")
        before = self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"]
        plain.get(self.server.root + "/admin/pages/shop/publish")
        # Typed as a person types into the picker without the script: the date, then the time.
        field = plain.find_element(By.ID, "schedule-at")
        field.send_keys("06012099")
        field.send_keys(Keys.TAB)
        field.send_keys("0900AM")
        self.submit("confirm-schedule", plain)
        self.assertIn("2099-06-01 09:00 UTC", plain.find_element(By.ID, "schedule").text)
        self.submit("cancel-schedule", plain)
        self.assertIn("cancelled", plain.find_element(By.CSS_SELECTOR, ".notice").text)
        self.assertTrue(self.none(By.ID, "schedule", plain))
        self.assertEqual(self.server.api("GET", "/admin/api/pages/shop")["live"]["revision"], before, "nothing published")
        self.assertEqual(self.server.api("GET", "/admin/api/pages/shop")["draft"]["template"]["title"], "Shop later", "the draft stays")

    def test_app_versions_are_chosen_from_the_released_ones_with_their_share_and_the_review_says_who_sees_it(self):
        for _ in range(3):
            urllib.request.urlopen(urllib.request.Request(self.server.root + "/api/v5/screens/home", headers={"Screenplay-Platform": "android"}), timeout=30).read()
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        self.open_card("deal-price")
        menu = Select(self.browser.find_element(By.ID, "deal-price-c_minVersion"))
        labels = [option.text for option in menu.options]
        self.assertEqual(len(labels), 7, labels)
        self.assertTrue(all("% of requests in the last 7 days" in label for label in labels[1:]), labels)
        menu.select_by_value("5")
        self.submit_in_place("save-deal-price")
        chips = self.browser.find_element(By.CSS_SELECTOR, "#widget-deal-price .chips").text
        self.assertIn("app versions 5 and later", chips)
        self.open("/admin/pages/shop/publish")
        audience = self.browser.find_element(By.ID, "review-audience").text
        self.assertIn("deal-price: app versions 5 and later — about", audience)
        self.check_accessible("the publish review with who sees each change")
        # A version no client sends (9, as an old page or a hand-made form would post it) is refused
        # beside the menu, with and without the script, kept as chosen; the draft keeps 5.
        chosen = self.draft_widget("deal-price")["conditions"]
        for browser in (self.browser, self.without_javascript()):
            if browser is not self.browser:
                self.sign_in_as(browser, "ada")
            browser.get(self.server.root + "/admin/pages/shop/edit")
            if browser is self.browser:
                self.open_card("deal-price")
            else:
                browser.find_element(By.CSS_SELECTOR, "#widget-deal-price details summary").click()
            browser.execute_script(
                "const menu = document.getElementById('deal-price-c_minVersion'); menu.add(new Option('9', '9')); menu.value = '9';"
                if browser is self.browser else
                "document.getElementById('deal-price-c_minVersion').insertAdjacentHTML('beforeend', '<option value=9 selected>9</option>')")
            if browser is self.browser:
                self.submit_in_place("save-deal-price")
            else:
                self.submit("save-deal-price", browser)
            error = WebDriverWait(browser, 10).until(lambda _: browser.find_elements(By.ID, "deal-price-c_minVersion-error"))
            self.assertIn("no client sends v9: the released versions are v1 to v6", error[0].text)
            self.assertEqual(Select(browser.find_element(By.ID, "deal-price-c_minVersion")).first_selected_option.text, "9: not a released version")
            self.assertEqual(self.draft_widget("deal-price")["conditions"], chosen, "nothing saved")
        self.check_accessible("a version no client sends refused beside its menu")

    def test_the_audit_log_is_filtered_searched_and_paged_with_and_without_javascript(self):
        template = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
        for index in range(55):
            template["title"] = f"Audit probe {index}"
            self.server.api("PUT", "/admin/api/pages/shop/draft", template)
        template["title"] = "x" * 10000
        self.server.api("PUT", "/admin/api/pages/shop/draft", template)
        for browser in (self.browser, self.without_javascript()):
            self.sign_in_as(browser, "ada")
            browser.get(self.server.root + "/admin/audit")
            self.assertIn("50 entries, the newest", browser.find_element(By.ID, "audit-summary").text)
            self.assertEqual(len(browser.find_elements(By.CSS_SELECTOR, "#audit tbody tr")), 50)
            # A 10 000-character value is cut, the whole of it a click away: the page stays a page wide.
            width = browser.execute_script("return document.documentElement.scrollWidth")
            self.assertLess(width, 1400, "the page is as wide as the window")
            height = browser.execute_script("return document.documentElement.scrollHeight")
            self.assertLess(height, 20000, "fifty rows, not twenty thousand pixels")
            self.submit("audit-older", browser)
            self.assertIn("older ones", browser.find_element(By.ID, "audit-summary").text)
            if browser is self.browser:
                self.check_accessible("the audit log's older entries")
            self.assertIn("audit-newest", [a.get_attribute("id") for a in browser.find_elements(By.CSS_SELECTOR, "#audit-pages a")])
            # Filtered by page and person, searched by a word.
            Select(browser.find_element(By.ID, "audit-page")).select_by_value("shop")
            Select(browser.find_element(By.ID, "audit-who")).select_by_value("ada")
            browser.find_element(By.ID, "audit-q").send_keys("PROBE 42”")
            self.submit("audit-filter", browser)
            rows = browser.find_elements(By.CSS_SELECTOR, "#audit tbody tr")
            # The save that made it "Audit probe 42" and the one after it (any case).
            self.assertEqual(len(rows), 2, [row.text for row in rows])
            self.assertTrue(all("probe 42" in row.text for row in rows))
            self.assertIn("2 entries, the newest matching the filters", browser.find_element(By.ID, "audit-summary").text)
            self.assertEqual(Select(browser.find_element(By.ID, "audit-who")).first_selected_option.text, "ada", "the filters stay chosen")
            self.assertIn("q=PROBE+42", browser.current_url)
            if browser is self.browser:
                self.shot("14-audit-log-filtered")
                self.check_accessible("the audit log, filtered")

    def test_a_skip_link_leads_in_and_every_card_action_is_within_five_tabs_of_its_card(self):
        self.sign_in()
        self.open("/admin/pages/shop/edit")
        body = self.browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        skip = self.browser.switch_to.active_element
        self.assertEqual(skip.text, "Skip to the content")
        self.assertTrue(skip.is_displayed(), "the skip link shows when it has the focus")
        skip.send_keys(Keys.ENTER)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "main")
        # The Sections menu is a few Tabs in; a section's link takes the focus to its heading, and
        # the next Tab is in that section's first card.
        tabs = 0
        while self.browser.execute_script("return document.activeElement.closest('#sections-menu') === null") and tabs < 8:
            self.browser.switch_to.active_element.send_keys(Keys.TAB)
            tabs += 1
        self.assertLess(tabs, 8, "the Sections menu within a few Tabs of the content")
        link = self.browser.find_element(By.CSS_SELECTOR, '#sections-menu a[href="#heading-deal"]')
        self.assertRegex(link.text, r"^deal: .* \(\d+ widgets?\)$")
        link.send_keys(Keys.ENTER)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "heading-deal")
        self.browser.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.browser.execute_script("return document.activeElement.closest('details')?.id"), "section-deal", "the section's own tools next")
        self.browser.switch_to.active_element.send_keys(Keys.TAB)
        self.assertTrue(self.browser.execute_script(
            "const card = document.activeElement.closest('article.card');"
            " return card !== null && !!(document.querySelector('#heading-deal').compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING)"),
            "then its first card")
        self.browser.find_element(By.CSS_SELECTOR, '#sections-menu a[href="#palette-title"]').send_keys(Keys.ENTER)
        self.assertEqual(self.browser.execute_script("return document.activeElement.id"), "palette-title")
        # From a card: its settings, Move up, Move down, Remove and Move to, each within five Tabs,
        # on a card with content (a picture of it, and its locale menu) as on one without.
        for widget in ("deal-buy", "deal-offer"):
            card = self.browser.find_element(By.ID, f"widget-{widget}")
            self.browser.execute_script("arguments[0].focus()", card)
            reached = []
            for _ in range(5):
                self.browser.switch_to.active_element.send_keys(Keys.TAB)
                reached.append(self.browser.execute_script(
                    "const e = document.activeElement; return e.id || (e.tagName === 'SUMMARY' ? e.textContent : e.tagName)"))
            for action in (f"Edit {widget}", f"up-{widget}", f"down-{widget}", f"remove-{widget}", f"moveto-{widget}-open"):
                self.assertIn(action, reached, reached)
            # The last of them opens Move to: its menu and its button are the next two.
            self.browser.switch_to.active_element.send_keys(Keys.ENTER)
            self.browser.switch_to.active_element.send_keys(Keys.TAB)
            self.assertEqual(self.browser.execute_script("return document.activeElement.id"), f"moveto-{widget}")
            self.browser.switch_to.active_element.send_keys(Keys.TAB)
            self.assertEqual(self.browser.execute_script("return document.activeElement.id"), f"moveto-{widget}-button")
        # On a phone, the palette comes before the cards.
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        try:
            palette = self.browser.execute_script("return document.querySelector('.palette').getBoundingClientRect().top + scrollY")
            first_card = self.browser.execute_script("return document.querySelector('article.card').getBoundingClientRect().top + scrollY")
            self.assertLess(palette, first_card)
        finally:
            self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def test_an_experiment_is_taken_to_a_decision_its_winner_rolled_out_as_a_draft_and_published(self):
        """The shop's shipping experiment: where it is used, what the results say in words and what
        sample an effect needs; its banner variant rolled out (asked first, saying what each page
        will do), reviewed and published, then the experiment stopped."""
        # Figures from the events apps report: twelve readers open the shop (each exposed to the
        # experiment as the page is composed for them) and report the offers they saw after it.
        for index in range(12):
            headers = {"Authorization": "Bearer " + self.server.new_user(), "Screenplay-Platform": "ios"}
            urllib.request.urlopen(urllib.request.Request(self.server.root + "/api/v6/screens/shop", headers=headers), timeout=30).read()
            at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 2))  # after the exposure, to the second
            events = [{"id": f"seen-{index}-{n}", "kind": "visible", "key": f"shop/offer:{n + 1}", "at": at} for n in range(index % 3 + 1)]
            request = urllib.request.Request(
                self.server.root + "/api/v6/reports", method="POST", data=json.dumps({"events": events}).encode(),
                headers={**headers, "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                self.assertEqual(json.loads(response.read())["stored"], len(events))
        self.sign_in()
        self.open("/admin/experiments/shop-free-shipping")
        self.assertIn("free-shipping (promoBanner), shown to banner", self.browser.find_element(By.ID, "experiment-uses").text)
        Select(self.browser.find_element(By.ID, "metric")).select_by_value("offers-seen")
        effect = self.browser.find_element(By.ID, "effect")
        effect.send_keys("0.2")
        self.submit("show-metric")
        self.assertTrue(self.browser.find_element(By.ID, "verdict").text)
        self.assertIn("0.20", self.browser.find_element(By.ID, "sample-needed").text)
        # The metric per variant with its 95 % interval, over the users exposed.
        self.assertIn("Shop offers seen per exposed user", self.browser.find_element(By.CSS_SELECTOR, "#results caption").text)
        rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in self.browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")]
        self.assertGreaterEqual(sum(int(row[2]) for row in rows), 12, rows)
        self.assertTrue(any(" to " in row[4] and float(row[3]) > 0 for row in rows), rows)
        self.check_accessible("an experiment's results and decision")
        self.shot("15a-experiment-decision")
        self.shot_phone("15d-experiment-decision-phone-light", "light", scroll_to="results")
        self.submit("rollout-banner")
        self.assertIn("shop (its live page): shown to everyone: free-shipping", self.browser.find_element(By.ID, "rollout-changes").text)
        self.check_accessible("roll out a variant?")
        self.submit("confirm-rollout")
        self.assertEqual(self.path(), "/admin/pages/shop?done=experimentRolledOut")
        self.assertIn("free-shipping", self.browser.find_element(By.ID, "draft-changes").text)
        self.assertNotIn("experiment", json.dumps(self.draft_widget("free-shipping").get("conditions", {})))
        self.submit("publish")
        self.submit("confirm-publish")
        self.assertIn("Published", self.browser.find_element(By.ID, "notice").text)
        # Shown to everyone now (these flows run without the promotions service that draws it, so
        # the live layout says so).
        def banner_conditions():
            live = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
            return next(w for section in live["sections"] for w in section["widgets"] if w["id"] == "free-shipping").get("conditions", {})
        self.assertNotIn("experiment", banner_conditions())
        self.open("/admin/experiments/shop-free-shipping")
        self.submit("stop-now")
        self.assertIn("No live page shows a widget for it.", self.browser.find_element(By.ID, "what-changes").text)
        self.submit("confirm-stop")
        self.assertTrue(self.browser.find_element(By.ID, "experiment-state").text.startswith("stopped"))
        self.assertNotIn("experiment", banner_conditions(), "the rolled-out banner stays once the experiment stops")
        # Back as it was for the other tests: running, and the page's first revision.
        experiment = self.experiment("shop-free-shipping")
        experiment.pop("stop", None)
        experiment["start"] = None
        self.server.api("PUT", "/admin/api/experiments/shop-free-shipping", {k: v for k, v in experiment.items() if v is not None})

    def test_a_form_without_the_sessions_csrf_token_is_refused(self):
        self.sign_in()
        self.open("/admin/pages/shop")
        before = self.server.shop_ids()
        # Forge the token in the page's own form, as a cross-site form would lack it.
        self.browser.execute_script(
            "document.querySelectorAll('input[name=csrf]').forEach(function (input) { input.value = 'forged'; });")
        self.submit("switch-deal-offer")
        self.assertIn("Refused", self.browser.find_element(By.TAG_NAME, "h1").text)
        self.check_accessible("a form without the session's token refused")
        self.assertEqual(self.server.shop_ids(), before, "nothing changed")
        # And with no session at all, the same post only redirects to the sign-in page.
        code, _ = self.status("/admin/pages/shop/widgets/deal-offer/enabled", method="POST", body=b"enabled=false&csrf=forged")
        self.assertEqual(code, 303)
        self.assertEqual(self.server.shop_ids(), before)


# Arms named checks that record when they first hold: `arm(name, selector, text, present)` holds
# when an element matches `selector` (containing `text`, when given) and `present` is true, or
# none does and it is false. Checked now and on every change under <main>.
WATCH = """
window.stillHere = true;
window.seen = {};
const checks = {};
const holds = ([selector, text, present]) => {
  const element = document.querySelector(selector);
  return (!!element && (!text || element.textContent.includes(text))) === present;
};
const look = () => {
  for (const [name, check] of Object.entries(checks)) if (!window.seen[name] && holds(check)) window.seen[name] = Date.now();
};
window.arm = (name, selector, text, present) => { checks[name] = [selector, text, present]; look(); };
new MutationObserver(look).observe(document.getElementById('main'), { subtree: true, childList: true, attributes: true, characterData: true });
"""


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


if __name__ == "__main__":
    # scripts/test.sh ends a flow that hangs with SIGTERM: every thread's stack first, to say where.
    faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
    unittest.main(verbosity=2)
