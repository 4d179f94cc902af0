#!/usr/bin/env bash
# Runs the whole Screenplay test suite on a fresh Debian machine with the Swift toolchain.
# Installs what the tests need when it is missing, then builds and runs every test target,
# then builds every other Swift package in the repository (e.g. Benchmarks/).
set -euo pipefail
cd "$(dirname "$0")/.."

# Every step's header says how long the run has taken so far (minutes:seconds).
say() { printf '==> [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

need_apt=()
# The build links sqlite-nio's vendored SQLite and BoringSSL: only a C compiler and the
# toolchain are needed, both part of the Swift image.
for tool in git; do command -v "$tool" >/dev/null 2>&1 || need_apt+=("$tool"); done
# Cached responses are gzipped with the system zlib (part of Swift's documented Debian setup).
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}"
fi

# The contract tests validate served JSON with Python's jsonschema, independently of Swift.
command -v python3 >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq python3 python3-pip; }
if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  say "installing jsonschema (pip)"
  python3 -m pip install --quiet 'jsonschema>=4.18' || python3 -m pip install --quiet --break-system-packages 'jsonschema>=4.18'
fi

# The layout admin's browser tests drive Debian's Chromium with Selenium (PyPI).
need_browser=()
command -v chromium >/dev/null 2>&1 || need_browser+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_browser+=(chromium-driver)
if [ ${#need_browser[@]} -gt 0 ]; then
  say "installing: ${need_browser[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need_browser[@]}"
fi
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
  say "installing selenium (pip)"
  python3 -m pip install --quiet 'selenium>=4.20' || python3 -m pip install --quiet --break-system-packages 'selenium>=4.20'
fi
# axe-core for the accessibility checks: the release axe-playwright-python ships as a plain
# axe.min.js, injected into Selenium's pages (installed without Playwright, which is not used).
if ! python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("axe_playwright_python") is None)' >/dev/null 2>&1; then
  say "installing axe-core (axe-playwright-python's axe.min.js, pip)"
  python3 -m pip install --quiet --no-deps 'axe-playwright-python==0.1.8' \
    || python3 -m pip install --quiet --no-deps --break-system-packages 'axe-playwright-python==0.1.8'
fi

# The store suites run on SQLite and on PostgreSQL; the replica tests run two servers on one
# PostgreSQL. One private cluster (Debian's postgresql, installed when missing) for the whole run,
# on loopback and a socket in its own folder, stopped when this script ends however it ends.
pg_dir=$(mktemp -d /tmp/screenplay-test-pg-XXXXXX)
trap 'bash scripts/postgres.sh stop "$pg_dir"' EXIT
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
say "PostgreSQL for the tests: $pg_dir (port $pg_port)"
SCREENPLAY_TEST_DATABASE_URL=$(bash scripts/postgres.sh start "$pg_dir" "$pg_port")
export SCREENPLAY_TEST_DATABASE_URL SCREENPLAY_TEST_POSTGRES_DIR="$pg_dir"

# Each test step has a bound far past its usual time (minutes, below): a hang fails the run with
# the step's name (the Python flows also print every thread's stack) instead of using up CI's
# 90 minutes. `timeout` ends the step's whole process group: servers and browsers too.
bounded() {
  local minutes=$1 status=0
  shift
  timeout --kill-after=30s "${minutes}m" "$@" || status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    say "FAILED: '$*' did not finish within ${minutes} minutes" >&2
  fi
  return "$status"
}

say "swift $(swift --version 2>&1 | head -1)"
# What each kind of app builds: coded screens only never build the composer; apps never a server.
swift package describe --type json | python3 scripts/module-boundaries.py
say "building (debug, with tests)"
swift build --build-tests
say "running tests"
bounded 30 swift test --skip-build "$@"

# The layout admin and the web player in a real headless Chromium (each file starts its own demo
# servers on loopback, once, and stops them).
say "browser tests (Selenium, headless Chromium)"
bounded 10 python3 Tests/Browser/admin_flow.py
bounded 10 python3 Tests/Browser/web_flow.py

# Two replicas on one PostgreSQL (the cluster above): consistency across them, a lost listener,
# PostgreSQL restarted under load, kill -9 during a burst.
say "replica tests (two servers, one PostgreSQL)"
bounded 10 python3 Tests/Replicas/replica_flow.py
# A retry changes nothing, whatever died: restarts between a keyed write and its retry (SQLite,
# SIGTERM and kill -9), a process killed after its commit and before its answer (SQLite, and a
# replica), bursts of retried writes through a PostgreSQL restart and kill -9 (scripts/retry_probe.py).
bounded 10 python3 Tests/Replicas/retry_flow.py

# Every other Swift package in the repository (Benchmarks/, and any later one such as Fuzz/) is
# built too, so none can stop compiling unnoticed. Debug build of all targets, in the root's build
# folder: each of them depends on this package, whose modules are then built once for all (about
# a minute for both instead of four and a half, each in a folder of its own). Hidden folders
# (.build/checkouts, .git, …) are skipped. Runs after the main suite; a failure fails this script.
packages=()
while IFS= read -r manifest; do packages+=("$(dirname "${manifest#./}")"); done < <(
  find . \( -path '*/.*' -o -name node_modules \) -prune -o -type f -name Package.swift ! -path ./Package.swift -print | LC_ALL=C sort)
for package in "${packages[@]}"; do
  say "building package ${package}/ (debug, all targets)"
  if ! swift build --package-path "$package" --scratch-path .build --build-tests; then
    say "FAILED: package ${package}/ does not build" >&2
    exit 1
  fi
done
say "tests passed; ${#packages[@]} other package(s) built: ${packages[*]:-none}"

# Fuzzing (Fuzz/, libFuzzer): the committed seeds and every recorded crash replayed in the plain
# build above, then each target fuzzed for a bounded time (FUZZ_TIME seconds each, 30 by
# default) in an instrumented release build. A crash fails the run and prints its input's path.
if [ -f Fuzz/run.sh ]; then
  say "replaying the fuzz corpus and recorded crashes"
  bounded 10 swift test --package-path Fuzz --scratch-path .build --skip-build
  say "fuzzing each target for ${FUZZ_TIME:-30} s, one per core at a time"
  bash Fuzz/run.sh
fi
say "all passed"
