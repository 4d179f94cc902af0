#!/usr/bin/env bash
# Runs the whole Screenplay test suite on a fresh Debian machine with the Swift toolchain:
# installs what is missing, builds once, runs every suite, and says how long each phase took.
#
# One build serves everything: `swift build --build-tests --traits postgres` compiles the test
# targets and the CLI with the PostgreSQL driver (the browser flows, the replica flows and the CLI
# tests run that binary). Benchmarks/ and Fuzz/ build in the same folder with the same traits
# (their manifests read SCREENPLAY_TRAITS), so they compile only their own targets. Only the fuzz
# targets build apart (release, instrumented).
#
# The Swift tests run first, with nothing beside them (a few that measure the machine run after
# the rest, alone). Then the phases that do not compete for the same thing run side by side: the
# browser flows, the replica flows, the OpenAPI flow, and (at the lowest CPU priority, filling
# idle cores) the fuzz build, the other packages' builds and tests, and fuzzing.
# Each phase writes its own log; a failed phase is named with the end of its log. Arguments go to
# `swift test` (e.g. --filter).
set -euo pipefail
cd "$(dirname "$0")/.."

TRAITS=postgres
export SCREENPLAY_TRAITS="$TRAITS"
logs="$(pwd)/.build/test-logs"
rm -rf "$logs"
mkdir -p "$logs"

# Every line says how long the run has taken so far (minutes:seconds).
say() { printf '==> [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# --- Phases: each runs in the background with its log, bounded in minutes ------------------------
# A hang fails the run with the phase's name (the Python flows also print every thread's stack)
# instead of using up CI's 90 minutes; `timeout` ends the phase's whole process group.
declare -A phase_pid phase_start phase_log
passed=()
failed=()

# start NAME MINUTES COMMAND…: runs COMMAND in the background as phase NAME.
start() {
  local name=$1 minutes=$2
  shift 2
  local log="$logs/${name// /-}.log"
  phase_log[$name]=$log
  phase_start[$name]=$SECONDS
  # timeout leads a process group of its own: the phase and all it starts end together.
  timeout --kill-after=30s "${minutes}m" "$@" >"$log" 2>&1 &
  phase_pid[$name]=$!
  say "started: $name (log: $log)"
}

# finish NAME…: waits for each phase; says how it ended, with the end of the log if it failed.
finish() {
  local name status took begun
  for name in "$@"; do
    status=0
    wait "${phase_pid[$name]}" || status=$?
    unset "phase_pid[$name]"
    begun=${phase_start[$name]}
    took=$((SECONDS - begun))
    if [ "$status" -eq 0 ]; then
      passed+=("$name")
      say "passed: $name in $((took / 60)) min $((took % 60)) s"
    else
      failed+=("$name")
      if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        say "FAILED: $name did not finish in time (after $took s); its log ends with:" >&2
      else
        say "FAILED: $name (exit $status, after $took s); its log ends with:" >&2
      fi
      tail -n 60 "${phase_log[$name]}" | sed 's/^/    /' >&2
      echo "    (whole log: ${phase_log[$name]})" >&2
    fi
  done
}

# However the script ends: the phases still running end too, and so does PostgreSQL once started.
pg_dir=""
cleanup() {
  local pid
  for pid in "${phase_pid[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  [ -z "$pg_dir" ] || bash scripts/postgres.sh stop "$pg_dir" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Ends the run when a phase has failed: the phases after it would only fail for the same reason.
stop_if_failed() {
  [ ${#failed[@]} -eq 0 ] && return 0
  say "stopped: ${#passed[@]} phase(s) passed, ${#failed[@]} failed (${failed[*]})"
  echo "phases: ${#passed[@]} passed, ${#failed[@]} failed"
  exit 1
}

# Installs a fresh machine lacks (minutes there; nothing here once they are in). Kept as one
# function so it can run as a phase of its own, beside the build.
install_missing() {
  local need=()
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]} (Debian)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
  fi
  pip() { python3 -m pip install --quiet "$@" 2>/dev/null || python3 -m pip install --quiet --break-system-packages "$@"; }
  # The contract tests validate served JSON with Python's jsonschema, independently of Swift.
  python3 -c 'import jsonschema' >/dev/null 2>&1 || { echo "installing jsonschema (pip)"; pip 'jsonschema>=4.18'; }
  # The OpenAPI flow validates the API's description and fuzzes the running demo against it.
  python3 -c 'import openapi_spec_validator' >/dev/null 2>&1 || { echo "installing openapi-spec-validator (pip)"; pip 'openapi-spec-validator>=0.7'; }
  python3 -c 'import schemathesis.cli' >/dev/null 2>&1 || { echo "installing schemathesis (pip)"; pip 'schemathesis>=4.0'; }
  # The browser flows drive Debian's Chromium with Selenium (PyPI).
  python3 -c 'import selenium' >/dev/null 2>&1 || { echo "installing selenium (pip)"; pip 'selenium>=4.20'; }
  # axe-core for the accessibility checks: the release axe-playwright-python ships as a plain
  # axe.min.js, injected into Selenium's pages (installed without Playwright, which is not used).
  if ! python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("axe_playwright_python") is None)' >/dev/null 2>&1; then
    echo "installing axe-core (axe-playwright-python's axe.min.js, pip)"
    pip --no-deps 'axe-playwright-python==0.1.8'
  fi
  echo "nothing else to install"
}

# --- 1. What the build needs; what each kind of app builds; the build, while the rest installs ----
need_apt=()
command -v git >/dev/null 2>&1 || need_apt+=(git)
# Cached responses are gzipped with the system zlib (part of Swift's documented Debian setup).
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3 python3-pip)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
say "swift $(swift --version 2>&1 | head -1)"
start "installs" 30 bash -c "$(declare -f install_missing); install_missing"

# Coded screens only never build the composer; apps never a server; the default CLI (no traits)
# links no PostgreSQL driver, TLS stack or HTTPS client. From SwiftPM's own plan of the default
# build (no second build): before the build, whose plan differs (traits), so neither plans twice.
start "module boundaries" 10 python3 scripts/module-boundaries.py
finish "module boundaries"
stop_if_failed
# The fuzz targets build after the Swift tests: beside this build, at the lowest priority, they
# did not fill idle cores (this build took 16 min 7 s with them, 15 min 5 s without, the same day).
start "build" 60 swift build --build-tests --traits "$TRAITS"

# The store suites run on SQLite and on PostgreSQL; the replica flows run two servers on one
# PostgreSQL. One private cluster (Debian's postgresql) for the whole run, on loopback and a socket
# in its own folder, stopped when this script ends however it ends (with every phase still running).
finish "installs"
stop_if_failed
pg_dir=$(mktemp -d /tmp/screenplay-test-pg-XXXXXX)
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SCREENPLAY_TEST_DATABASE_URL=$(bash scripts/postgres.sh start "$pg_dir" "$pg_port")
export SCREENPLAY_TEST_DATABASE_URL SCREENPLAY_TEST_POSTGRES_DIR="$pg_dir"
say "PostgreSQL for the tests: $pg_dir (port $pg_port)"

finish "build"
stop_if_failed

# --- 2. The Swift tests --------------------------------------------------------------------------
# Most suites run side by side in one process. A few measure what a loaded machine takes away
# (audio and connection fairness, which compare latencies with and without a load they make) or
# wait with a deadline (racing kill switches and leases on a small PostgreSQL pool; the shop's
# verticals, 10 s each, in the shop's own tests, its clicks' and the admin editor's previews of it; a navigator riding out a faulty stream; revalidations answered on the
# connection, whose clients must send their head within the server's 5-second head deadline; the
# plain HTTP transport's "at once" and timeout bounds of 10 s): with
# 970 tests started at once on two cores, a task can wait its turn longer than that, and those fail
# for the machine, not the code (the shop lost its in-process widgets in 2 of 5 full runs, its clicks' test the pricing vertical
# once, after 11.6 s, and the editor's preview the same widget once, leaving nothing to pin; a
# revalidation's connection was closed unanswered in 1 of 6; a refused connection took 10.5 s to
# be said in 1 of 2), so they run afterwards, alone and one at a time, in a
# second process. Arguments (e.g. --filter) make it one run of what they select.
alone='AudioFairnessTests|ConnectionFairnessTests|PostgresConnectionLossTests|concurrentSwitches|ShopTests|ShopClickTests|AdminEditorTests|FaultyStreamTests|RevalidationTests|PlainHTTPTransportTests'
# name_unfinished STATUS LOG: after a run ended by its timeout (124, or 137 once killed), names
# the tests it started and never ended: what it hung on, which the end of the log does not say.
name_unfinished() {
  if [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then
    say "the run timed out; the tests it started and never ended:" >&2
    python3 scripts/unfinished-tests.py "$2" | sed 's/^/    /' >&2 || true
  fi
}
say "running: swift tests (output below)"
swift_tests_start=$SECONDS
status=0
set +e
if [ $# -gt 0 ]; then
  timeout --kill-after=30s 30m swift test --skip-build --traits "$TRAITS" "$@" 2>&1 | tee "$logs/swift-tests.log"
  status=${PIPESTATUS[0]}
  name_unfinished "$status" "$logs/swift-tests.log"
else
  timeout --kill-after=30s 15m swift test --skip-build --traits "$TRAITS" --skip "$alone" 2>&1 | tee "$logs/swift-tests.log"
  status=${PIPESTATUS[0]}
  name_unfinished "$status" "$logs/swift-tests.log"
  say "running: the swift tests that measure or wait on the machine, alone, one at a time ($alone)"
  # One at a time (65 s; 35 s side by side): beside each other they are each other's load (the
  # connection-fairness flood took a faulty stream's navigator past its 6-second wait).
  timeout --kill-after=30s 15m swift test --skip-build --traits "$TRAITS" --filter "$alone" --no-parallel 2>&1 | tee "$logs/swift-tests-alone.log"
  alone_status=${PIPESTATUS[0]}
  name_unfinished "$alone_status" "$logs/swift-tests-alone.log"
  cat "$logs/swift-tests-alone.log" >>"$logs/swift-tests.log"
  [ "$status" -ne 0 ] || status=$alone_status
fi
set -e
phase_log["swift tests"]="$logs/swift-tests.log"
phase_start["swift tests"]=$swift_tests_start
if [ "$status" -eq 0 ]; then
  passed+=("swift tests")
  say "passed: swift tests in $(((SECONDS - swift_tests_start) / 60)) min $(((SECONDS - swift_tests_start) % 60)) s"
else
  failed+=("swift tests")
  say "FAILED: swift tests (exit $status; whole log: $logs/swift-tests.log)" >&2
  grep -E '^✘ Test .* (failed|recorded an issue)' "$logs/swift-tests.log" | head -30 >&2 || true
fi
stop_if_failed

# --- 3. The flows in real processes, beside the other packages and fuzzing ------------------------
# The layout admin and the web player in a real headless Chromium (each file starts its own demo
# servers on loopback, on SQLite); two replicas on the one PostgreSQL (consistency across them, a
# lost listener, PostgreSQL restarted under load, kill -9 during a burst), then the retry flows (a
# retry changes nothing, whatever died: SQLite restarted by SIGTERM and kill -9 between a keyed
# write and its retry, a process killed after its commit and before its answer, bursts of retried
# writes through a PostgreSQL restart and a replica's kill -9). The browser flows and the replica
# flows share nothing but the binary, so they run side by side, and so does the OpenAPI flow.
start "browser flows" 20 bash -c 'python3 Tests/Browser/expressions_flow.py && python3 Tests/Browser/admin_flow.py && python3 Tests/Browser/web_flow.py'
start "replica flows" 20 bash -c 'python3 Tests/Replicas/replica_flow.py && python3 Tests/Replicas/retry_flow.py'
# The API's OpenAPI description: valid (openapi-spec-validator), what `screenplay openapi` writes,
# and schemathesis's fuzzing of every operation against the running demo (no 500, every answer
# as declared, what it allows accepted and what it forbids refused).
start "openapi flow" 15 python3 Tests/OpenAPI/openapi_flow.py

# Every other Swift package in the repository (Benchmarks/, Fuzz/, any later one) is built too, so
# none can stop compiling unnoticed: debug, all targets, in the root's build folder with its traits
# (each depends on this package, whose modules are then built once for all). Hidden folders are
# skipped. A package with tests runs them (Fuzz/ replays its corpus and every recorded crash in
# that plain build). Then each fuzz target runs for FUZZ_TIME seconds (30 by default; a crash
# fails the run and prints its input's path).
packages=()
while IFS= read -r manifest; do packages+=("$(dirname "${manifest#./}")"); done < <(
  find . \( -path '*/.*' -o -name node_modules \) -prune -o -type f -name Package.swift ! -path ./Package.swift -print | LC_ALL=C sort)
other_packages() {
  local package fuzz_build="" fuzz_log
  # The fuzz build has a folder of its own (release, instrumented: nothing to share with the
  # debug build), so it needs no lock the others hold, and runs beside the packages' debug builds:
  # its whole-module optimization keeps one core busy for long stretches, which they fill.
  if [ -f Fuzz/run.sh ]; then
    echo "==> building the fuzz targets (release, instrumented), beside the packages' builds"
    fuzz_log=$(mktemp)
    bash Fuzz/run.sh --build-only >"$fuzz_log" 2>&1 &
    fuzz_build=$!
  fi
  for package in "$@"; do
    echo "==> building package ${package}/ (debug, all targets)"
    if ! swift build --package-path "$package" --scratch-path .build --build-tests; then
      echo "==> FAILED: package ${package}/ does not build"
      [ -z "$fuzz_build" ] || { kill "$fuzz_build" 2>/dev/null; wait "$fuzz_build" 2>/dev/null; rm -f "$fuzz_log"; }
      return 1
    fi
  done
  if [ -n "$fuzz_build" ]; then
    local fuzz_status=0
    wait "$fuzz_build" || fuzz_status=$?
    cat "$fuzz_log"
    rm -f "$fuzz_log"
    [ "$fuzz_status" -eq 0 ] || { echo "==> FAILED: the fuzz targets do not build"; return 1; }
  fi
  for package in "$@"; do
    [ -d "$package/Tests" ] || continue
    echo "==> testing package ${package}/"
    swift test --package-path "$package" --scratch-path .build --skip-build || { echo "==> FAILED: package ${package}/'s tests"; return 1; }
  done
  if [ -f Fuzz/run.sh ]; then
    echo "==> fuzzing each target for ${FUZZ_TIME:-30} s, one per core at a time"
    bash Fuzz/run.sh --built
  fi
}
start "packages and fuzzing" 30 nice -n 19 bash -c "$(declare -f other_packages); other_packages \"\$@\"" _ "${packages[@]}"

finish "browser flows" "replica flows" "openapi flow" "packages and fuzzing"
grep -E '^    Fuzz[A-Za-z]+ ' "${phase_log["packages and fuzzing"]}" | sed 's/^    /    fuzz: /' || true
stop_if_failed

say "all passed: ${passed[*]}; ${#packages[@]} other package(s) built: ${packages[*]:-none}"
echo "phases: ${#passed[@]} passed, 0 failed"
