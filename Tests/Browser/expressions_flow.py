#!/usr/bin/env python3
"""The web player's expression evaluator (Sources/ScreenplayWeb/Script/expressions.js) in a real
headless Chromium, driven by Selenium, on every shared case of contract/expressions/cases.json.

A tiny static server on a free loopback port (Python's http.server in a thread, stopped at the
end) serves a blank page and the module as the site serves it (whole-line comments, blank lines
and indentation left out: ScriptModule.served). The page imports the module; every case runs in
the browser with the shared variables (and its own): a value case must give the case's type and
value (numbers by value, arrays and records deep), an error case an error of the case's kind.
Prints a summary by category and the first failures; fails on any failure or on fewer than 300
cases. Also checks the served module is at most 4 KB gzipped, and prints how long the browser
takes to compile and evaluate every case 100 times over (a figure, not a test).

Runs alone, with no build: `python3 Tests/Browser/expressions_flow.py` (Debian's chromium and
chromium-driver).
"""
import faulthandler
import gzip
import http.server
import json
import os
import shutil
import signal
import threading
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULE_PATH = "/Sources/ScreenplayWeb/Script/expressions.js"
CASES = os.path.join(ROOT, "contract", "expressions", "cases.json")
ROUNDS = 100
LEAST_CASES = 300
MOST_SERVED_GZIP = 4096


def served(source):
    """The module as the site serves it: ScriptModule.served, line for line (a source with a line
    holding an odd number of backticks, a template literal spanning lines, is served as it is)."""
    lines = source.split("\n")
    if any(line.count("`") % 2 == 1 for line in lines):
        return source
    kept = [line.lstrip(" \t") for line in lines]
    return "\n".join(line for line in kept if line and not line.startswith("//")) + "\n"


def module_text():
    with open(os.path.join(ROOT, MODULE_PATH.lstrip("/")), encoding="utf-8") as file:
        return served(file.read())


PAGE = b"<!doctype html><html lang=en><meta charset=utf-8><title>Expressions</title><body></body></html>"


class StaticServer:
    """A blank page at / and the served module at MODULE_PATH, on a free loopback port."""

    def __init__(self):
        files = {"/": (PAGE, "text/html; charset=utf-8"),
                 MODULE_PATH: (module_text().encode("utf-8"), "text/javascript; charset=utf-8")}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body, kind = files.get(self.path.split("?")[0], (None, None))
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", kind or "text/plain")
                self.send_header("Cache-Control", "no-store")
                body = body if body is not None else b"not found"
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.root = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


def chromium():
    """Headless Chromium as web_flow.py starts it (Debian's chromium and chromium-driver)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    browser.set_page_load_timeout(60)
    browser.set_script_timeout(300)
    return browser


# Imports the module, runs every case once (each result: type and value, or the error's kind, code
# and message), then times ROUNDS runs of all of them (compile and evaluate, errors included).
RUN_CASES = """
const [casesText, modulePath, rounds] = arguments, done = arguments[arguments.length - 1];
import(modulePath).then(({ compile }) => {
  const { variables, cases } = JSON.parse(casesText);
  const prepared = cases.map((c) => {
    const types = {}, values = {};
    for (const [name, variable] of Object.entries({ ...variables, ...(c.variables || {}) })) {
      types[name] = variable.type;
      values[name] = variable.value;
    }
    return [c, types, values];
  });
  const run = ([c, types, values]) => {
    try {
      const expression = compile(c.expression, types);
      return { type: expression.type, value: expression.evaluate(values, c.locale) };
    } catch (error) {
      if (error && error.kind) return { error: error.kind, code: error.code, message: error.message };
      return { crash: String((error && error.stack) || error) };
    }
  };
  const results = prepared.map(run);
  const start = performance.now();
  for (let round = 0; round < rounds; round++) prepared.forEach(run);
  done({ results, milliseconds: performance.now() - start });
}).catch((error) => done({ failed: String((error && error.stack) || error) }));
"""


def same(expected, got):
    """Deep equality of JSON values; numbers by value (3 and 3.0 are one number), bools apart."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return expected == got
    if isinstance(expected, list):
        return isinstance(got, list) and len(expected) == len(got) and all(map(same, expected, got))
    if isinstance(expected, dict):
        return isinstance(got, dict) and expected.keys() == got.keys() and all(same(expected[k], got[k]) for k in expected)
    return type(expected) is type(got) and expected == got


def category(case):
    """A value case by its result type's kind; an error case by its kind."""
    if "error" in case:
        return case["error"] + " error"
    kind = case["type"]
    return kind if isinstance(kind, str) else next(iter(kind))


def passes(case, result):
    if "error" in case:
        return result.get("error") == case["error"]
    return "error" not in result and "crash" not in result and same(case["type"], result.get("type")) and same(
        case["value"], result.get("value"))


def shown(value, limit=160):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


class ExpressionsFlow(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(CASES, encoding="utf-8") as file:
            cls.shared = json.load(file)
        cls.server = StaticServer()
        try:
            cls.browser = chromium()
        except BaseException:
            cls.server.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            cls.browser.quit()
        finally:
            cls.server.stop()

    def test_every_shared_case(self):
        cases = self.shared["cases"]
        self.browser.get(self.server.root + "/")
        answer = self.browser.execute_async_script(
            RUN_CASES, json.dumps(self.shared), self.server.root + MODULE_PATH, ROUNDS)
        self.assertNotIn("failed", answer, f"the module did not load: {answer.get('failed')}")
        results = answer["results"]
        self.assertEqual(len(results), len(cases))

        counts, failures = {}, []
        for case, result in zip(cases, results):
            passed, failed = counts.setdefault(category(case), [0, 0])
            ok = passes(case, result)
            counts[category(case)] = [passed + ok, failed + (not ok)]
            if not ok:
                failures.append((case, result))
        print(f"\n{len(cases)} shared cases: {len(cases) - len(failures)} passed, {len(failures)} failed")
        for name, (passed, failed) in sorted(counts.items()):
            print(f"  {name:16} {passed:4} passed {failed:4} failed")
        for case, result in failures[:30]:
            expected = {"error": case["error"]} if "error" in case else {"type": case["type"], "value": case["value"]}
            if "locale" in case:
                expected["locale"] = case["locale"]
            print(f"  FAILED {shown(case['expression'])}\n    expected {shown(expected)}\n    got      {shown(result)}")
        total = answer["milliseconds"]
        print(f"{ROUNDS} × {len(cases)} cases compiled and evaluated in {total:.0f} ms "
              f"({total * 1000 / (ROUNDS * len(cases)):.1f} µs a case)")

        self.assertGreaterEqual(len(cases), LEAST_CASES, "too few shared cases")
        if failures:
            self.fail(f"{len(failures)} shared cases failed (the first 30 are printed above)")

    def test_served_module_is_small(self):
        text = module_text().encode("utf-8")
        size = len(gzip.compress(text, 9))
        print(f"\nserved expressions.js: {len(text)} bytes, {size} gzipped")
        self.assertLessEqual(size, MOST_SERVED_GZIP)


if __name__ == "__main__":
    # scripts/test.sh ends a flow that hangs with SIGTERM: every thread's stack first, to say where.
    faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
    unittest.main(verbosity=2)
