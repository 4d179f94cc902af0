#!/usr/bin/env bash
# Event fan-out benchmark: 1 000 open screen event streams, every figure against a baseline
# measured in the same run.
#
#   bash scripts/fanout.sh               # about 2 minutes plus the build
#   STREAMS=200 bash scripts/fanout.sh   # fewer streams, for a quick look
#
# Builds the `screenplay` product in release (scratch path $SCRATCH, default .build-release, so a
# debug build in .build is left alone), creates a layout admin and an API token in a fresh data
# folder, starts `screenplay serve` on loopback, and runs scripts/fanout_client.py (Python 3,
# standard library only), which creates one user per stream and measures:
#
#   (a) write    a user's favorites/remove|add -> the `screen` event on that user's own stream:
#                1 stream open (baseline) against 1 000; the other streams must hear nothing
#   (b) publish  the shop page's kill switch (deal-price off|on, a publish in one request) -> the
#                `shop` event on every stream: 10 streams open (baseline) against 1 000
#   memory       the server's VmRSS with the users and their screens built, and with 1 000
#                streams open: KiB per open stream
#
# Every stream watches home, playlist/1 and shop, one per user (the server allows 8 per identity
# and 1 024 in all). Times are from sending the request to the kernel's receive stamp of the event.
# The baselines run before the 1 000 streams open and again after they close, pooled. Creating
# the users takes about 40 s of the run: the server makes at most 20 new identities a second (and
# 1 a second per address after 20, so they come from 100 loopback addresses, 127.0.0.2-101).
#
# Environment: PORT (default 19100), STREAMS (default 1000, at most 1024), WRITES (per (a) run,
# default 300), PUBLISHES (per (b) run, default 20), SCRATCH. Exits 1 when a stream heard a stray
# event, an event never came, or a stream closed by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-19100}
STREAMS=${STREAMS:-1000}
WRITES=${WRITES:-300}
PUBLISHES=${PUBLISHES:-20}
SCRATCH=${SCRATCH:-.build-release}
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "") ;;
  *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
esac
for tool in curl python3; do command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }; done

# Each stream is a socket here and one in the server (which inherits this limit), plus the
# database, the writers and the listening socket.
NEEDED_FILES=$((STREAMS * 2 + 256))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$NEEDED_FILES" ]; then
  ulimit -n "$NEEDED_FILES" 2>/dev/null || { echo "open-file limit $(ulimit -n) is under $NEEDED_FILES and cannot be raised" >&2; exit 1; }
fi

echo "==> building screenplay (release, $SCRATCH)"
swift build -c release --product screenplay --scratch-path "$SCRATCH" 2>&1 | grep -v "unhandled; explicitly declare" | tail -1
BIN="$SCRATCH/release/screenplay"

WORK=$(mktemp -d /tmp/fanout-XXXXXX)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# The admin and its token go into the database before the server opens it.
echo "fan-out benchmark password" | "$BIN" admin create-user fanout --data "$WORK/data" >/dev/null
ADMIN_TOKEN=$("$BIN" admin create-token fanout --label fanout --data "$WORK/data")

BASE="http://127.0.0.1:$PORT"
# --command-rate: the baseline's single user writes a few hundred times in seconds, past the
# default 10 commands a second per user; the benchmark measures the event path, not the limiter.
# --max-connections-per-address: the streams all come from 127.0.0.1, past the 64 one address
# may open; the benchmark measures fan-out, not the cap.
"$BIN" serve --port "$PORT" --data "$WORK/data" --promotions off --log-level error --command-rate 1000000 \
  --max-connections-per-address 2048 \
  >"$WORK/server.out" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 1 100); do curl -sf "$BASE/health" >/dev/null 2>&1 && break; sleep 0.2; done
curl -sf "$BASE/health" >/dev/null || { echo "the server did not start:" >&2; cat "$WORK/server.out" "$WORK/server.log" >&2; exit 1; }
echo "==> server on $BASE (pid $SERVER_PID), open-file limit $(ulimit -n)"

status=0
python3 scripts/fanout_client.py --port "$PORT" --server-pid "$SERVER_PID" --admin-token "$ADMIN_TOKEN" \
  --streams "$STREAMS" --writes "$WRITES" --publishes "$PUBLISHES" || status=$?
if [ -s "$WORK/server.log" ]; then
  echo "server log (level error and above):"
  tail -20 "$WORK/server.log"
fi
exit "$status"
