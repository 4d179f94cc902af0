#!/usr/bin/env python3
"""Checks the package's module boundaries: what each kind of app builds, and what it must not.

Reads `swift package describe --type json` (given on stdin) and computes, for each product a
kind of app links, every module it builds. Fails (exit 1) naming the path of dependencies when:
- an app serving coded screens only (server core, Hummingbird adapter, web pages, the store
  with SQLite) builds the composer, the layout store or the admin;
- an app on the SQLite default (the demo module included) builds the PostgreSQL store;
- an app (the client core and its renderers) builds any server module.

Run by scripts/test.sh:  swift package describe --type json | python3 scripts/module-boundaries.py
"""
import json
import sys

package = json.load(sys.stdin)
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
     ["ScreenplayClient", "ScreenplaySwiftUI", "ScreenplayTerminal", "ScreenplayClientAsyncHTTPClient"],
     ["ScreenplayServer", "ScreenplayComposer", "ScreenplayStore", "ScreenplayHummingbird"]),
]

failures = []
for who, roots, forbidden in RULES:
    for root in roots:
        reached = closure(root)
        for module in forbidden:
            if module in reached:
                failures.append(f"{who}: {root} builds {module} ({' -> '.join(reached[module])})")

if failures:
    print("module boundaries broken:\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"module boundaries hold ({sum(len(roots) for _, roots, _ in RULES)} products checked)")
