"""axe-core for the browser flows: the release axe-playwright-python ships (scripts/test.sh
installs it), injected as a file into the page under test."""
import importlib.util
import json
import os


def source():
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("axe-playwright-python is not installed (scripts/test.sh installs it)")
    with open(os.path.join(spec.submodule_search_locations[0], "axe.min.js"), encoding="utf-8") as file:
        return file.read()


SOURCE = source()


def serious_violations(browser):
    """Serious and critical axe-core violations on the page as it is now, as text."""
    if not browser.execute_script("return !!window.axe"):
        browser.execute_script(SOURCE)
    result = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)), e => done(String(e)))")
    violations = json.loads(result)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in violations if v.get("impact") in ("serious", "critical")]
