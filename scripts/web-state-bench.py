#!/usr/bin/env python3
"""The web's client state (v6) in headless Chromium, timed against building the same page.

The Swift engine's benchmark (ViewTreeBenchmarks) changes one variable on a 10 000-component
screen with 2 000 bindings that all read it; this does the same in the browser with the site's own
modules (`state.js` and `expressions.js`, as the demo serves them): 1 000 rows, each with a
`selected` and a `text` binding on the player, inside 10 000 elements. It prints, as medians of
the rounds:

- build: the page's 10 000 elements parsed, inserted and laid out (the baseline, same run);
- start: the state module compiling the 2 000 bindings and applying them;
- one change: the player moves to another track (`sp:player`), the bindings that read it are
  evaluated and the two rows that changed are written, then laid out;

each with its ratio to the build, and the two modules' sizes, raw and gzipped as served.

    python3 scripts/web-state-bench.py            # needs the debug build (swift build --traits postgres)
    python3 scripts/web-state-bench.py --rounds 41
"""
import argparse
import gzip
import os
import statistics
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "Browser"))

from demo_server import DemoServer  # noqa: E402
from web_flow import chromium  # noqa: E402

ROWS = 1_000
ELEMENTS_PER_ROW = 10  # a row, its title (the two bound) and eight plain elements

BUILD = """
const rows = arguments[0];
window.benchStateModule = document.querySelector("#screen-state").dataset.stateModule;
let html = "";
for (let i = 1; i <= rows; i++) {
  const selected = JSON.stringify({ selected: `player.trackID == 't${i}'` }).replaceAll('"', "&quot;");
  const text = JSON.stringify({ text: `player.trackID == 't${i}' ? '▶ ${'$'}{formatDuration(player.position)}' : '${i}'` }).replaceAll('"', "&quot;");
  html += `<div class="row" data-compute="${selected}"><span class="title" data-compute="${text}">${i}</span>`
    + `<span>Work ${i}</span><span>Op. ${i}</span><em>4:0${i % 10}</em><b>${i % 4}</b>`
    + `<i></i><small>Performer</small><u>Label</u><s>1962</s></div>`;
}
window.benchHTML = html;
"""

TIME_BUILD = """
const main = document.getElementById("main");
const started = performance.now();
main.innerHTML = window.benchHTML;
main.offsetHeight;
return [performance.now() - started, main.querySelectorAll("*").length, main.querySelectorAll("[data-compute]").length];
"""

TIME_START = """
const done = arguments[arguments.length - 1];
const main = document.getElementById("main");
const url = window.benchStateModule;
const data = document.createElement("script");
data.type = "application/json";
data.id = "screen-state";
data.dataset.screen = "bench";
data.textContent = "{}";
main.append(data);
import(url).then((module) => {
  const started = performance.now();
  module.start(main, data);
  main.offsetHeight;
  done(performance.now() - started);
}).catch((error) => done("failed: " + error));
"""

TIME_CHANGE = """
const audio = document.getElementById("sp-audio");
audio.dataset.track = "t" + arguments[0];
audio.dataset.title = "Track " + arguments[0];
const started = performance.now();
document.dispatchEvent(new Event("sp:player"));
document.getElementById("main").offsetHeight;
const took = performance.now() - started;
return [took, [...document.querySelectorAll("#main [aria-current=true]")].map((row) => row.firstChild.textContent)];
"""


def served_sizes(root, html):
    """The state module and the evaluator, as the server sends them: raw and gzipped bytes."""
    sizes = {}
    for name in ("state.js", "expressions.js"):
        start = html.find(f"/web/{name}?v=")
        if start < 0:
            # state.js names expressions.js in its import; read it from there.
            state = sizes.get("state.js", (None, None, ""))[2]
            start = state.find(f"/web/{name}?v=")
            source = state
        else:
            source = html
        end = source.find('"', start)
        path = source[start:end]
        raw = urllib.request.urlopen(root + path).read()
        request = urllib.request.Request(root + path, headers={"Accept-Encoding": "gzip"})
        compressed = urllib.request.urlopen(request).read()
        assert gzip.decompress(compressed) == raw, f"{name}: the gzipped answer is not the module"
        sizes[name] = (len(raw), len(compressed), raw.decode())
    return {name: (raw, compressed) for name, (raw, compressed, _) in sizes.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=21)
    options = parser.parse_args()
    server = DemoServer(prefix="screenplay-state-bench-")
    browser = chromium()
    try:
        browser.set_script_timeout(120)
        browser.get(server.root + "/screens/composer/mozart")
        sizes = served_sizes(server.root, urllib.request.urlopen(server.root + "/screens/composer/mozart").read().decode())
        browser.execute_script(BUILD, ROWS)
        builds, starts, changes = [], [], []
        for round in range(options.rounds):
            took, elements, bound = browser.execute_script(TIME_BUILD)
            assert elements == ROWS * ELEMENTS_PER_ROW, f"{elements} elements"
            assert bound == 2 * ROWS, f"{bound} bound elements"
            builds.append(took)
            started = browser.execute_async_script(TIME_START)
            if isinstance(started, str):
                raise RuntimeError(started)
            starts.append(started)
            track = 1 + (round * 37) % ROWS
            took, current = browser.execute_script(TIME_CHANGE, track)
            assert current == ["▶ 0:00"], f"the rows marked: {current}"
            changes.append(took)
        build, start, change = (statistics.median(values) for values in (builds, starts, changes))
        print(f"web client state, {ROWS * ELEMENTS_PER_ROW} elements with {2 * ROWS} bindings reading the player, "
              f"medians of {options.rounds} rounds in headless Chromium:")
        print(f"  build the page (baseline):            {build:8.2f} ms")
        print(f"  start: compile and apply the bindings: {start:8.2f} ms  ({start / build:.3f} of the build)")
        print(f"  one change of the player:             {change:8.2f} ms  ({change / build:.3f} of the build)")
        for name, (raw, compressed) in sizes.items():
            print(f"  {name}: {raw} bytes, {compressed} gzipped")
        if "expressions.js" in sizes:
            print(f"  the evaluator gzipped: {sizes['expressions.js'][1]} bytes (target <= 4 096)")
    finally:
        browser.quit()
        server.stop()


if __name__ == "__main__":
    main()
