#!/usr/bin/env python3
"""Checks the package's module boundaries: what each kind of app builds, and what it must not.

Two sources, both SwiftPM's own answer for the default build (no traits enabled):
- `swift package describe --type json`: the package's modules and how they depend on each other.
  For each product a kind of app links, every module it builds is computed; the check fails,
  naming the path of dependencies, when
  - an app serving coded screens only (server core, Hummingbird adapter, web pages, the store
    with SQLite) builds the composer, the layout store or the admin;
  - an app on the SQLite default (the demo module included) builds the PostgreSQL store;
  - an app (the client core and its renderers) builds any server module.
- `swift build --product screenplay --print-manifest-job-graph`: SwiftPM's build plan, which
  lists every object file the `screenplay` executable links, through every package. The check
  fails when the default CLI (what `swift run screenplay serve` builds on a fresh clone) links
  the PostgreSQL driver, a TLS stack, an HTTPS client or a C++ crypto library: the first three
  stay behind the `postgres` and `https` traits, and ScreenplayCrypto (Swift) does the hashing, so
  a new user's first build compiles none of them.

Run by scripts/test.sh:  python3 scripts/module-boundaries.py
Either source may be given as a file instead (`--describe FILE`, `--job-graph FILE`), to check a
plan made elsewhere.
"""
import argparse
import json
import re
import subprocess
import sys

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--describe", help="the output of `swift package describe --type json` (default: run it)")
parser.add_argument("--job-graph", help="the output of `swift build --product screenplay --print-manifest-job-graph` (default: run it)")
arguments = parser.parse_args()


def swift(*command):
    """Runs `swift COMMAND…` and returns what it printed, or stops with what went wrong."""
    done = subprocess.run(["swift", *command], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"`swift {' '.join(command)}` failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def read(path, *command):
    if path:
        with open(path) as file:
            return file.read()
    return swift(*command)


package = json.loads(read(arguments.describe, "package", "describe", "--type", "json"))
targets = {target["name"]: target for target in package["targets"]}


def closure(name):
    """Every module `name` builds, with the path by which each is reached."""
    reached = {name: [name]}
    queue = [name]
    while queue:
        current = queue.pop(0)
        for dependency in targets[current].get("target_dependencies", []):
            if dependency not in reached:
                reached[dependency] = reached[current] + [dependency]
                queue.append(dependency)
    return reached


RULES = [
    ("an app serving coded screens only",
     ["ScreenplayServer", "ScreenplayHummingbird", "ScreenplayWeb", "ScreenplayStore", "ScreenplayStoreSQLite", "ScreenplayStorePostgres"],
     ["ScreenplayComposer", "ScreenplayLayoutStore", "ScreenplayAdmin", "ScreenplayComposerNIO", "ScreenplayComposerAsyncHTTPClient"]),
    ("an app on the embedded SQLite default",
     ["ScreenplayServer", "ScreenplayHummingbird", "ScreenplayStore", "ScreenplayStoreSQLite", "ScreenplayLayoutStore", "ScreenplayAdmin",
      "ScreenplayDemo"],
     ["ScreenplayStorePostgres"]),
    ("an app (client core and renderers)",
     ["ScreenplayClient", "ScreenplaySwiftUI", "ScreenplayTerminal", "ScreenplayClientAsyncHTTPClient", "ScreenplayClientNIO"],
     ["ScreenplayServer", "ScreenplayComposer", "ScreenplayStore", "ScreenplayHummingbird"]),
    ("the default CLI (no traits)",
     ["screenplay"],
     ["ScreenplayStorePostgres", "ScreenplayClientAsyncHTTPClient", "ScreenplayComposerAsyncHTTPClient"]),
]

failures = []
for who, roots, forbidden in RULES:
    for root in roots:
        reached = closure(root)
        for module in forbidden:
            if module in reached:
                failures.append(f"{who}: {root} builds {module} ({' -> '.join(reached[module])})")

# What the default `screenplay` links, module by module, from SwiftPM's plan: the inputs of the
# step that writes its link file list.
LINKED_NOWHERE_BY_DEFAULT = {
    "PostgresNIO": "the PostgreSQL driver", "PostgresKit": "the PostgreSQL driver",
    "NIOSSL": "a TLS stack", "CNIOBoringSSL": "a TLS stack (BoringSSL for swift-nio-ssl)",
    "AsyncHTTPClient": "an HTTPS client", "CAsyncHTTPClient": "an HTTPS client",
    "Crypto": "swift-crypto (ScreenplayCrypto has what the store and admin need)",
    "CCryptoBoringSSL": "BoringSSL's C++ (for swift-crypto)",
}
graph = read(arguments.job_graph, "build", "--product", "screenplay", "--print-manifest-job-graph")
writer = re.search(r'^\s*"([^"]+)" \[style=bold\];// \S*/screenplay\.product/Objects\.LinkFileList$', graph, re.MULTILINE)
if not writer:
    sys.exit("module boundaries: SwiftPM's build plan names no link file list for `screenplay`; "
             "the check cannot say what the default CLI links")
objects = re.findall(r'^\s*"([^"]+\.o)" -> "' + re.escape(writer.group(1)) + r'"', graph, re.MULTILINE)
linked = sorted({match.group(1) for path in objects if (match := re.search(r"/([^/]+)\.build/", path))})
if not linked:
    sys.exit("module boundaries: the default `screenplay` links no module in SwiftPM's plan; the plan's format may have changed")
for module in linked:
    if module in LINKED_NOWHERE_BY_DEFAULT:
        failures.append(f"the default CLI: `swift run screenplay` links {module}, {LINKED_NOWHERE_BY_DEFAULT[module]} "
                        f"(keep it behind the postgres or https trait)")

if failures:
    print("module boundaries broken:\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"module boundaries hold ({sum(len(roots) for _, roots, _ in RULES)} products checked; "
      f"the default CLI links {len(linked)} modules, none of {', '.join(sorted(LINKED_NOWHERE_BY_DEFAULT))})")
