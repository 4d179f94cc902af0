#!/usr/bin/env python3
"""Names the Swift tests a run started and never ended, from its console output.

A `swift test` process ended by a timeout says nothing about why it hung; its log does: every
test prints "◇ Test NAME started." and, when it ends, "✔ Test NAME passed", "✘ Test NAME
failed", "━ Test NAME passed" (with known issues), "➜ Test NAME skipped" or "➜ Test NAME was
cancelled" (a parameterized one adds "with N test cases"). What started and never ended is what
the run was waiting on. Suites are named the same way, so a hung test is listed with the suites
around it.

Usage: unfinished-tests.py LOG  (prints nothing when every started test ended)
"""
import re
import sys

NAME = r'("(?:[^"\\]|\\.)*"|\S+)'
STARTED = re.compile(r'^◇ (Test|Suite) ' + NAME + r' started\.$')
ENDED = re.compile(r'^[✔✘➜↪━] (Test|Suite) ' + NAME + r'(?: with .*?)? (?:passed|failed|skipped|was cancelled)')


def unfinished(lines):
    """The tests and suites started in `lines` and never ended, in the order they started."""
    open_ = {}
    for line in lines:
        line = line.rstrip('\n')
        started = STARTED.match(line)
        if started:
            key = started.group(1, 2)
            open_[key] = open_.get(key, 0) + 1
            continue
        ended = ENDED.match(line)
        if ended:
            key = ended.group(1, 2)
            if open_.get(key, 0) > 0:
                open_[key] -= 1
    # "◇ Test run started." is the whole run, which a timeout never lets end.
    return [f'{kind} {name}' for (kind, name), count in open_.items() if count > 0 and (kind, name) != ('Test', 'run')]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding='utf-8', errors='replace') as log:
        for entry in unfinished(log):
            print(entry)


if __name__ == '__main__':
    main()
