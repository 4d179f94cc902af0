#!/usr/bin/env python3
"""Tap to header, tap to body: a navigation in the web player, with and without its script.

Starts `screenplay serve` with every screen answered 300 ms late (`--test-screen-delay-ms 300`), opens
the demo's home in headless Chromium, and taps links to composers ten times each way:
- with the script, the header the link carries is shown at once and the body when it arrives: the
  times are read in the page (a click listener and a MutationObserver, on performance.now());
- without it, the browser loads the next page: header and body come together, read from the new
  page's Paint Timing (first-contentful-paint, from the navigation's start).
Prints the median and the worst of each, in milliseconds. The script's target: the header in under
50 ms. The server's 300 ms are the baseline every body time is compared with.

  python3 scripts/web-timing.py            # after `swift build` (debug) or with BINARY=path/to/screenplay
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("BINARY") or os.path.join(ROOT, ".build", "debug", "screenplay")
DELAY_MS = 300
ROUNDS = 10
COMPOSERS = ["mozart", "beethoven", "bach", "chopin", "vivaldi", "debussy", "brahms", "schubert", "handel", "dvorak", "haydn"]


def start_server():
    data = tempfile.mkdtemp(prefix="screenplay-web-timing-")
    process = subprocess.Popen(
        [BINARY, "serve", "--port", "0", "--data", data, "--promotions", "off", "--log-level", "error",
         "--test-screen-delay-ms", str(DELAY_MS)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.time() + 90
    while time.time() < deadline:
        line = process.stdout.readline()
        for word in line.split():
            if word.startswith("http://127.0.0.1:") and word.endswith("/"):
                return process, data, word.rstrip("/")
        if not line:
            break
    process.terminate()
    raise RuntimeError("the demo server did not start")


def browser(javascript):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


WATCH = """
window.timing = {};
const start = (event) => { if (event.target.closest('a')) window.timing = { tap: performance.now() }; };
document.addEventListener('click', start, true);
new MutationObserver(() => {
  const main = document.getElementById('main');
  if (!window.timing.tap || !main) return;
  if (!window.timing.header && main.getAttribute('aria-busy') === 'true' && main.querySelector('h1')?.textContent)
    window.timing.header = performance.now() - window.timing.tap;
  if (!window.timing.body && !main.hasAttribute('aria-busy') && main.querySelector('section'))
    window.timing.body = performance.now() - window.timing.tap;
}).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def with_script(root):
    driver = browser(True)
    headers, bodies = [], []
    try:
        driver.get(root + "/")
        time.sleep(0.5)
        driver.execute_script(WATCH)
        for round in range(ROUNDS):
            slug = COMPOSERS[round % len(COMPOSERS)]
            driver.execute_script("window.timing = {}")
            driver.find_element(By.CSS_SELECTOR, f"#section-all-composers a[href='/screens/composer/{slug}']").click()
            deadline = time.time() + 10
            while time.time() < deadline and not driver.execute_script("return window.timing.body"):
                time.sleep(0.02)
            timing = driver.execute_script("return window.timing")
            headers.append(timing["header"])
            bodies.append(timing["body"])
            driver.find_element(By.CSS_SELECTOR, ".site-header nav a[href='/']").click()
            deadline = time.time() + 10
            while time.time() < deadline and not driver.execute_script(
                    "return !!document.getElementById('section-all-composers') && !document.getElementById('main').hasAttribute('aria-busy')"):
                time.sleep(0.02)
    finally:
        driver.quit()
    return headers, bodies


def without_script(root):
    driver = browser(False)
    times = []
    try:
        for round in range(ROUNDS):
            slug = COMPOSERS[round % len(COMPOSERS)]
            driver.get(root + "/")
            driver.find_element(By.CSS_SELECTOR, f"#section-all-composers a[href='/screens/composer/{slug}']").click()
            deadline = time.time() + 10
            paint = None
            while time.time() < deadline and paint is None:
                paint = driver.execute_script(
                    "return location.pathname.startsWith('/screens/composer/') && "
                    "performance.getEntriesByName('first-contentful-paint')[0]?.startTime || null")
                time.sleep(0.02)
            times.append(paint)
    finally:
        driver.quit()
    return times


def summary(values):
    values = [value for value in values if value is not None]
    return f"{statistics.median(values):7.1f} ms median, {max(values):7.1f} ms worst (n={len(values)})"


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"no {BINARY}: run `swift build` first, or set BINARY")
    process, data, root = start_server()
    try:
        headers, bodies = with_script(root)
        plain = without_script(root)
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)
    scripts = [os.path.join(ROOT, "Sources", "ScreenplayWeb", "Script", name) for name in ("core.js", "site.js")]
    print(f"navigation, home -> composer, every screen answered {DELAY_MS} ms late (the baseline), {ROUNDS} taps each")
    print(f"  with the script     header: {summary(headers)}   (target < 50 ms)")
    print(f"                      body:   {summary(bodies)}   ({statistics.median(bodies) / DELAY_MS:.2f}x the server's delay)")
    print(f"  without the script  header and body together: {summary(plain)}   ({statistics.median(plain) / DELAY_MS:.2f}x)")
    print(f"  the script: {sum(os.path.getsize(script) for script in scripts)} bytes in source (core.js and site.js)")
    if statistics.median(headers) >= 50:
        sys.exit("the carried header took 50 ms or more")


if __name__ == "__main__":
    main()
