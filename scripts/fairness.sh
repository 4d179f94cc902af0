#!/usr/bin/env bash
# Fairness figures (issue 31): a screen request's p99 alone and beside one client's heavy use,
# as ratios against a baseline measured in the same run.
#
#   bash scripts/fairness.sh            # about three minutes plus the build
#
# Builds the `screenplay` product in release (scratch path $SCRATCH, default .build-release, as
# scripts/load.sh does), starts the demo on loopback with a fresh database and the default
# limits, and runs scripts/fairness_client.py against it:
#
#   downloads   the screen from 127.0.0.2, alone, then beside 6 downloads of the longest track
#               from 127.0.0.1 (audio is synthesized on render threads of its own, nice 10)
#   sockets     the screen from 127.0.0.2, alone, then beside 2 200 slow sockets from 127.0.0.1,
#               each reopened as soon as the server refuses or closes it (64 an address, then 503)
#
# Alone and beside are measured in turn, three times each (the machine is shared; its load
# drifts), and the median ratio is the figure. Target: each median within 2x; exit 1 when not.
# Environment: PORT (default 18090), REQUESTS (timed requests per measurement, default 400),
# SCRATCH, BIN (a `screenplay` binary to measure instead of building one, e.g. .build/debug/screenplay).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18090}
REQUESTS=${REQUESTS:-400}
SCRATCH=${SCRATCH:-.build-release}
case "${1:-}" in -h|--help) sed -n '2,21p' "$0"; exit 0 ;; "") ;; *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;; esac
for tool in curl python3; do command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }; done

if [ -z "${BIN:-}" ]; then
  echo "==> building screenplay (release, $SCRATCH)"
  swift build -c release --product screenplay --scratch-path "$SCRATCH" 2>&1 | grep -v "unhandled; explicitly declare" | tail -1
  BIN="$SCRATCH/release/screenplay"
fi
[ -x "$BIN" ] || { echo "no binary at $BIN" >&2; exit 1; }

WORK=$(mktemp -d /tmp/screenplay-fairness.XXXXXX)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# The flood needs a few thousand descriptors on each side.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
BASE="http://127.0.0.1:$PORT"
"$BIN" serve --port "$PORT" --data "$WORK/data" --promotions off --log-level error >"$WORK/server.out" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 1 100); do curl -sf "$BASE/health" >/dev/null 2>&1 && break; sleep 0.2; done
curl -sf "$BASE/health" >/dev/null || { echo "the server did not start:" >&2; cat "$WORK/server.out" "$WORK/server.log" >&2; exit 1; }
echo "==> server on $BASE (pid $SERVER_PID), open-file limit $(ulimit -n), $(nproc) cores"

status=0
python3 scripts/fairness_client.py --port "$PORT" --requests "$REQUESTS" || status=$?
kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server died:" >&2; cat "$WORK/server.log" >&2; exit 1; }
exit "$status"
