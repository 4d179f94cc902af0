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
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, ".build", "debug", "screenplay")
PASSWORD = "correct horse battery staple"


class Server:
    """`screenplay serve` on a free port, with an admin `ada` and an API token."""

    def __init__(self):
        self.data = tempfile.mkdtemp(prefix="screenplay-admin-browser-")
        run = lambda *args, **kw: subprocess.run([BINARY, *args, "--data", self.data], check=True, capture_output=True, text=True, **kw)
        run("admin", "create-user", "ada", input=PASSWORD + "\n")
        self.token = run("admin", "create-token", "ada").stdout.strip()
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", "0", "--data", self.data, "--promotions", "off", "--log-level", "error"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        deadline = time.time() + 60
        self.root = None
        while time.time() < deadline and self.root is None:
            line = self.process.stdout.readline()
            if not line:
                break
            for word in line.split():
                if word.startswith("http://127.0.0.1:") and word.endswith("/"):
                    self.root = word.rstrip("/")
        if self.root is None:
            self.stop()
            raise RuntimeError("the demo server did not start")

    def api(self, method, path, body=None):
        request = urllib.request.Request(
            self.root + path, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def shop_ids(self):
        request = urllib.request.Request(self.root + "/api/v4/screens/shop", headers={"Screenplay-Platform": "ios"})
        with urllib.request.urlopen(request, timeout=30) as response:
            screen = json.loads(response.read())
        return [component.get("id") for section in screen["sections"] for component in section["components"]]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.data, ignore_errors=True)


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
        cls.shots = os.environ.get("SCREENSHOTS") or tempfile.mkdtemp(prefix="screenplay-admin-shots-")
        os.makedirs(cls.shots, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.stop()
        print(f"screenshots: {cls.shots}", file=sys.stderr)

    def setUp(self):
        self.browser.delete_all_cookies()

    # Helpers

    def open(self, path):
        self.browser.get(self.server.root + path)

    def shot(self, name):
        self.browser.save_screenshot(os.path.join(self.shots, name + ".png"))

    def sign_in(self, password=PASSWORD):
        self.open("/admin/login")
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(password)
        self.browser.find_element(By.ID, "sign-in").click()

    def path(self):
        return self.browser.current_url[len(self.server.root):]

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
            self.assertEqual(self.path(), "/admin/login", path)
        self.assertTrue(self.browser.find_element(By.ID, "sign-in").is_displayed())
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

    def test_a_stale_sign_in_form_is_refused(self):
        self.open("/admin/login")
        self.browser.delete_cookie("screenplay_admin_login")
        self.browser.find_element(By.ID, "name").send_keys("ada")
        self.browser.find_element(By.ID, "password").send_keys(PASSWORD)
        self.browser.find_element(By.ID, "sign-in").click()
        self.assertIn("expired", self.browser.find_element(By.ID, "login-error").text)

    def test_switch_publish_rollback_audit_and_sign_out(self):
        self.sign_in()
        self.assertEqual(self.path(), "/admin")
        pages = self.browser.find_element(By.ID, "pages").text
        self.assertIn("shop", pages)
        self.assertIn("home-shop-teaser", self.browser.find_element(By.ID, "experiments").text)
        self.shot("02-pages")

        # The kill switch: off on the next request, for apps too.
        self.browser.find_element(By.LINK_TEXT, "shop").click()
        self.assertIn("deal-price", self.browser.find_element(By.ID, "widgets").text)
        self.assertIn("deal-price", self.server.shop_ids())
        self.browser.find_element(By.ID, "switch-deal-price").click()
        self.assertIn("Switched off", self.browser.find_element(By.ID, "notice").text)
        self.assertNotIn("deal-price", self.server.shop_ids())
        self.shot("03-switched-off")

        # A draft saved through the API, published from the page.
        live = self.server.api("GET", "/admin/api/pages/shop")["live"]["template"]
        live["sections"] = [section for section in live["sections"] if section["id"] != "featured"]
        self.server.api("PUT", "/admin/api/pages/shop/draft", live)
        self.browser.refresh()
        self.assertIn("Draft by ada", self.browser.find_element(By.ID, "draft").text)
        self.browser.find_element(By.ID, "note").send_keys("no featured section")
        self.browser.find_element(By.ID, "publish").click()
        self.assertIn("Published", self.browser.find_element(By.ID, "notice").text)
        self.assertFalse([i for i in self.server.shop_ids() if i and i.startswith("offer-")])
        self.shot("04-published")

        # Roll back to the first revision: the featured section and the price are back.
        self.browser.find_element(By.ID, "rollback-1").click()
        self.assertIn("Rolled back", self.browser.find_element(By.ID, "notice").text)
        ids = self.server.shop_ids()
        self.assertIn("deal-price", ids)
        self.assertTrue([i for i in ids if i and i.startswith("offer-")])
        history = self.browser.find_element(By.ID, "history").text
        self.assertIn("rollback to revision 1", history)
        self.shot("05-rolled-back")

        # The audit log says who did what.
        self.open("/admin/audit")
        audit = self.browser.find_element(By.ID, "audit").text
        for action in ("rollback", "publish", "disable widget", "save draft"):
            self.assertIn(action, audit)
        self.assertIn("ada", audit)
        self.shot("06-audit")

        # Signing out ends the session: the pages need signing in again.
        self.browser.find_element(By.ID, "sign-out").click()
        self.assertEqual(self.path(), "/admin/login")
        self.open("/admin")
        self.assertEqual(self.path(), "/admin/login")

    def test_a_form_without_the_sessions_csrf_token_is_refused(self):
        self.sign_in()
        self.open("/admin/pages/shop")
        before = self.server.shop_ids()
        # Forge the token in the page's own form, as a cross-site form would lack it.
        self.browser.execute_script(
            "document.querySelectorAll('input[name=csrf]').forEach(function (input) { input.value = 'forged'; });")
        self.browser.find_element(By.ID, "switch-deal-offer").click()
        self.assertIn("Refused", self.browser.find_element(By.TAG_NAME, "h1").text)
        self.assertEqual(self.server.shop_ids(), before, "nothing changed")
        # And with no session at all, the same post only redirects to the sign-in page.
        code, _ = self.status("/admin/pages/shop/widgets/deal-offer/enabled", method="POST", body=b"enabled=false&csrf=forged")
        self.assertEqual(code, 303)
        self.assertEqual(self.server.shop_ids(), before)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


if __name__ == "__main__":
    unittest.main(verbosity=2)
