#!/usr/bin/env bash
# Load test of the demo server, every figure against a baseline measured in the same run.
#
#   bash scripts/load.sh                 # the routes, one after another (about 2 minutes plus the build)
#   bash scripts/load.sh --soak 10       # then a 10-minute mixed soak with an attacker and 1 000 event
#                                        # streams open: errors, streams lost and memory
#   bash scripts/load.sh --database postgres
#                                        # the main rows on SQLite, then on PostgreSQL with one replica and
#                                        # with two, against one baseline (the command rows also as they were,
#                                        # every write in a transaction); then the time from a write on
#                                        # replica A until replica B serves it (about 7 minutes)
#
# Builds the `screenplay` product in release (scratch path $SCRATCH, default .build-release, so a
# debug build in .build is left alone), starts the demo on loopback with a fresh database and the
# baseline route (`GET /baseline`: the signed-in user's home screen bytes, read once from a file
# and sent as they are), and measures with wrk (installed from Debian when missing):
#
#   baseline       GET /baseline                      the same bytes, precomputed (Hummingbird and the socket only)
#   floor          GET /health                        2 bytes: the framework's own cost per request
#   user home      GET /api/v4/screens/home           a signed-in user's home, answered from memory before routing
#   304            the same with If-None-Match        revalidation, no body
#   shared         GET /api/v4/screens/composer/bach  a screen shared by everyone
#   shop           GET /api/v4/screens/shop           a composed page (three verticals, one a flaky service), cached per shape
#   HTML home      GET / with the user's cookie       the rendered page, answered from memory before routing
#   command        POST favorites/add|remove          a write per request, alternating, all one user's
#   keyed command  the same, each with an Idempotency-Key (the answer recorded in the write's transaction)
#   commands, N users  the same, CONNECTIONS users in turn (one user's writes take turns; many users' need not)
#   isolation      user home again, while a light user, then a heavy one, writes and rebuilds
#                  their home in a loop
#
# With --database postgres, a private PostgreSQL cluster (scripts/postgres.sh, Debian's `postgresql`)
# runs in a temporary folder on PG_PORT (default 18432) and is stopped at the end. Two replicas share
# the load as a load balancer would: the connections are split between them, requests per second
# are the sum, p50 and p99 the worse of the two.
#
# The soak's streams (SOAK_STREAMS, default 1 000, one user each) are held open by
# scripts/fanout_client.py --hold, opened again when the server ends one as idle; once a minute one of
# their users writes and must hear it. A stream closed otherwise, or a write not heard, fails the soak.
#
# Environment: DURATION (seconds per route, default 10), CONNECTIONS (default 16), PORT (default
# 18080; a second replica uses PORT+1), SCRATCH, LATENCY_WRITES (default 1000), CACHE_MIB (the server's cache budget in all, default 96: a small one lets a
# soak reach its plateau in minutes). Targets (a benchmark, not a test): user home >= 1.0x, 304 >= 1.0x, HTML home
# >= 1.0x, shop >= 0.8x, command p99 < 50 ms; isolation: the user home p99 beside a heavy neighbour within 3x of
# its p99 beside a light one (and, printed too, against nobody).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-16}
PORT=${PORT:-18080}
SCRATCH=${SCRATCH:-.build-release}
CACHE_MIB=${CACHE_MIB:-96}
SOAK_STREAMS=${SOAK_STREAMS:-1000}
SOAK_MINUTES=0
DATABASE=sqlite
PG_PORT=${PG_PORT:-18432}
LATENCY_WRITES=${LATENCY_WRITES:-1000}
while [ $# -gt 0 ]; do
  case "$1" in
    --soak) SOAK_MINUTES="${2:?--soak takes a number of minutes}"; shift 2 ;;
    --database) DATABASE="${2:?--database takes sqlite or postgres}"; shift 2 ;;
    -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$SOAK_MINUTES" in ''|*[!0-9]*) echo "--soak takes whole minutes, got '$SOAK_MINUTES'" >&2; exit 2 ;; esac
case "$DATABASE" in
  sqlite) ;;
  postgres) [ "$SOAK_MINUTES" -eq 0 ] || { echo "--soak runs on SQLite only; leave out --database postgres to soak" >&2; exit 2; } ;;
  *) echo "--database takes sqlite or postgres, got '$DATABASE'" >&2; exit 2 ;;
esac

if ! command -v wrk >/dev/null 2>&1; then
  echo "==> installing wrk"
  export DEBIAN_FRONTEND=noninteractive
  if [ "$(id -u)" -eq 0 ]; then apt-get update -qq && apt-get install -y -qq wrk; else sudo apt-get update -qq && sudo apt-get install -y -qq wrk; fi
fi
for tool in curl python3; do command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }; done
# The soak's streams: a socket each here and in the server, which inherits this limit.
if [ "$SOAK_MINUTES" -gt 0 ] && [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((SOAK_STREAMS * 2 + 1024)) ]; then
  ulimit -n $((SOAK_STREAMS * 2 + 1024)) 2>/dev/null || { echo "open-file limit $(ulimit -n) is under $((SOAK_STREAMS * 2 + 1024)) and cannot be raised" >&2; exit 1; }
fi

# The PostgreSQL rows need the driver the default build leaves out (the postgres trait).
TRAIT_FLAGS=()
[ "$DATABASE" = postgres ] && TRAIT_FLAGS=(--traits postgres)
echo "==> building screenplay (release, $SCRATCH${TRAIT_FLAGS:+, ${TRAIT_FLAGS[*]}})"
swift build -c release --product screenplay --scratch-path "$SCRATCH" "${TRAIT_FLAGS[@]}" 2>&1 | grep -v "unhandled; explicitly declare" | tail -1
BIN="$SCRATCH/release/screenplay"

WORK=$(mktemp -d /tmp/screenplay-load.XXXXXX)
CLUSTER=""
SERVER_PIDS=()
BACKGROUND_PIDS=()
stop_servers() {
  for pid in "${SERVER_PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  SERVER_PIDS=()
}
cleanup() {
  for pid in "${BACKGROUND_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  stop_servers
  if [ -n "$CLUSTER" ]; then bash scripts/postgres.sh stop "$CLUSTER" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# start_server PORT [serve arguments…]: the demo on loopback; returns once it answers. Commands per
# identity are limited to 10/s by default; the load run measures the command path, not the
# limiter, so it raises the limit.
start_server() {
  local port=$1; shift
  # --max-connections-per-address: the soak's streams all come from loopback, past the 64 one
  # address may hold by default.
  # --memory-report: what the caches hold, every 30 s into the server's log (the soak prints it).
  "$BIN" serve --port "$port" --log-level error --command-rate 1000000 --cache-mib "$CACHE_MIB" --max-connections-per-address 2048 \
    --baseline-file "$WORK/home.json" --memory-report 30 "$@" >"$WORK/server-$port.log" 2>&1 &
  SERVER_PIDS+=($!)
  for _ in $(seq 1 150); do curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "the server on port $port did not start:" >&2; cat "$WORK/server-$port.log" >&2; exit 1
}

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/${SERVER_PIDS[0]}/status"; }

# new_user NAME: creates a user by its first command (a playlist called NAME) on the first server;
# prints its token.
new_user() {
  curl -s -D - -o /dev/null -X POST -H 'Content-Type: application/json' \
    --data "$(python3 -c 'import json,sys; print(json.dumps({"name": sys.argv[1]}))' "$1")" \
    "${BASES[0]}/api/v4/commands/playlists/create" | tr -d '\r' | awk -F': ' 'tolower($1)=="screenplay-token" {print $2}'
}

# new_user_refusal NAME: what the server answers a new user's first command when new_user got no
# token (its status line and body), for the error.
new_user_refusal() {
  curl -s -i -X POST -H 'Content-Type: application/json' \
    --data "$(python3 -c 'import json,sys; print(json.dumps({"name": sys.argv[1]}))' "$1")" \
    "${BASES[0]}/api/v4/commands/playlists/create" | tr -d '\r' | sed -n '1p;$p'
}

# etag_of BASE: the user's home ETag from that server.
etag_of() {
  curl -s -o /dev/null -D - -H "Authorization: Bearer $TOKEN" "$1/api/v4/screens/home" \
    | tr -d '\r' | awk -F': ' 'tolower($1)=="etag" {print $2}'
}

# prepare_user: a fresh user with one playlist (TOKEN, PLAYLIST), their home's ETag (ETAG, which
# every server must give alike, or the 304 row would measure 200s) and its bytes in
# $WORK/home.json, the baseline's file.
prepare_user() {
  TOKEN=$(new_user "Load test")
  [ -n "$TOKEN" ] || { echo "could not create a user" >&2; exit 1; }
  curl -s -H "Authorization: Bearer $TOKEN" -o "$WORK/home.json" "${BASES[0]}/api/v4/screens/home"
  ETAG=$(etag_of "${BASES[0]}")
  local base
  for base in "${BASES[@]}"; do
    [ "$(etag_of "$base")" = "$ETAG" ] || { echo "$base gives another ETag for the home than ${BASES[0]} ($ETAG)" >&2; exit 1; }
  done
  PLAYLIST=$(python3 -c '
import json, sys
entities = json.load(open(sys.argv[1])).get("entities", {})
print(next(key.split("/")[1] for key in entities if key.startswith("playlist/")))' "$WORK/home.json")
  echo "==> user home: $(wc -c <"$WORK/home.json") bytes, ETag $ETAG, playlist $PLAYLIST; ${#BASES[@]} server(s), $CONNECTIONS connections, ${DURATION}s a route"
  cat >"$WORK/command.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
local n = 0
request = function()
  n = n + 1
  local path = (n % 2 == 0) and "/api/v4/commands/favorites/add" or "/api/v4/commands/favorites/remove"
  return wrk.format(nil, path, nil, '{"playlistId":$PLAYLIST}')
end
EOF
  # The same writes, each with an Idempotency-Key of its own (as the client core sends them): the
  # answer is recorded in the command's transaction. Headers given to wrk.format replace
  # wrk.headers, so the key goes in a copy of them (else the writes would go without a token,
  # each a new identity, refused 429 once an address made too many). The key names the server's
  # port: with two replicas, two wrk processes count n alike, and a key sent to both at once is a
  # retry in flight (409), not a new write.
  { echo "local run = '$(date +%s%N)'"
    sed 's/return wrk.format(nil, path, nil,/local headers = { ["Idempotency-Key"] = "load-" .. run .. "-" .. tostring(wrk.port) .. "-" .. n }\
  for name, value in pairs(wrk.headers) do headers[name] = value end\
  return wrk.format(nil, path, headers,/' "$WORK/command.lua"
  } >"$WORK/command-keyed.lua"
}

# measure NAME [wrk arguments…] PATH: wrk on PATH of every server in BASES at once, the connections
# split between them as a load balancer would; stores "req/s p50_ms p99_ms errors" in $WORK/NAME,
# req/s summed over the servers, p50 and p99 the worse server's.
measure() {
  local name=$1; shift
  local path=${!#}
  local args=("${@:1:$(($# - 1))}")
  local index=0 pids=() base
  for base in "${BASES[@]}"; do
    wrk -t1 -c"$((CONNECTIONS / ${#BASES[@]}))" -d"${DURATION}s" --latency "${args[@]}" "$base$path" >"$WORK/$name.$index.out" 2>&1 &
    pids+=($!)
    index=$((index + 1))
  done
  wait "${pids[@]}"
  cat "$WORK/$name".[0-9]*.out >"$WORK/$name.out"
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /^Requests\/sec:/ { rps += $2 }
    /^ +50%/ { if (ms($2) > p50) p50 = ms($2) }
    /^ +99%/ { if (ms($2) > p99) p99 = ms($2) }
    /Non-2xx or 3xx responses:/ { errors += $NF }
    /Socket errors:/ { gsub(",", ""); errors += $4 + $6 + $8 + $10 }
    END { printf "%.0f %.2f %.2f %d\n", rps, p50, p99, errors }' "$WORK/$name.out" >"$WORK/$name"
}

# measure_routes PREFIX: the signed-in rows, the shared screen, the composed page and a write per
# request, for the user prepare_user made, into $WORK/PREFIX-ROUTE.
measure_routes() {
  local prefix=$1 base
  local auth="Authorization: Bearer $TOKEN"
  measure "$prefix-home" -H "$auth" /api/v4/screens/home
  measure "$prefix-revalidation" -H "$auth" -H "If-None-Match: $ETAG" /api/v4/screens/home
  measure "$prefix-shared" /api/v4/screens/composer/bach
  # Composed once before measuring, like the routes above: the first composition waits on the
  # promotions vertical (up to its 300 ms timeout), and every request queued behind it with it.
  for base in "${BASES[@]}"; do curl -s -o /dev/null -H "Screenplay-Platform: ios" "$base/api/v4/screens/shop"; done
  measure "$prefix-shop" -H "Screenplay-Platform: ios" /api/v4/screens/shop
  measure "$prefix-html" -H "Cookie: screenplay_token=$TOKEN" /
  RSS_BEFORE_COMMANDS=$(rss_kib)
  measure "$prefix-command" -s "$WORK/command.lua" /
  RSS_AFTER_COMMANDS=$(rss_kib)
  measure "$prefix-command-keyed" -s "$WORK/command-keyed.lua" /
  # The same writes from as many users as connections, in turn: one user's writes take turns
  # (their revision is bumped first, which is what keeps the per-user limits under concurrency),
  # so the row above measures that turn-taking; this one the write path itself.
  local users="" index token playlist
  for index in $(seq 1 "$CONNECTIONS"); do
    token=$(new_user "Writer $index")
    [ -n "$token" ] || { echo "could not create writer $index: $(new_user_refusal "Writer $index")" >&2; exit 1; }
    playlist=$(curl -s -H "Authorization: Bearer $token" "${BASES[0]}/api/v4/screens/home" | python3 -c '
import json, sys
print(next(key.split("/")[1] for key in json.load(sys.stdin).get("entities", {}) if key.startswith("playlist/")))')
    users="$users{\"$token\",$playlist},"
  done
  cat >"$WORK/commands-many.lua" <<EOF
wrk.method = "POST"
local users = { $users }
local n = 0
request = function()
  n = n + 1
  local user = users[(n % #users) + 1]
  local path = (math.floor(n / #users) % 2 == 0) and "/api/v4/commands/favorites/add" or "/api/v4/commands/favorites/remove"
  return wrk.format(nil, path, { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. user[1] },
    '{"playlistId":' .. user[2] .. '}')
end
EOF
  measure "$prefix-commands-many" -s "$WORK/commands-many.lua" /
}

header() { printf '%-44s %9s %9s %9s %7s %7s  %s\n' route "req/s" "p50 ms" "p99 ms" errors ratio target; }
# row NAME LABEL TARGET: one line of the table, its requests per second against the baseline's.
row() {
  local name=$1 label=$2 target=$3 rps p50 p99 errors
  read -r rps p50 p99 errors <"$WORK/$name"
  printf '%-44s %9s %9s %9s %7s %6.2fx  %s\n' "$label" "$rps" "$p50" "$p99" "$errors" \
    "$(python3 -c "print($rps / $BASE_RPS)")" "$target"
}

BASE="http://127.0.0.1:$PORT"
BASES=("$BASE")
start_server "$PORT" --data "$WORK/data"
prepare_user
measure baseline /baseline
read -r BASE_RPS _ _ _ <"$WORK/baseline"
# The framework's floor: a 2-byte answer. When it is no faster than the baseline, the bytes do not
# matter at this size, and no route that Hummingbird routes can beat the baseline by much. The 304
# can: the demo's home is remembered, so its revalidation is answered before routing.
measure floor /health
measure_routes main

if [ "$DATABASE" = postgres ]; then
  stop_servers
  # As root the cluster's folder belongs to the postgres user, so it lives outside $WORK.
  CLUSTER=$(mktemp -d /tmp/screenplay-load-pg.XXXXXX)
  echo "==> PostgreSQL: a private cluster on 127.0.0.1:$PG_PORT"
  DATABASE_URL=$(bash scripts/postgres.sh start "$CLUSTER" "$PG_PORT" | tail -1)
  start_server "$PORT" --database "$DATABASE_URL" --replica-name a --data "$WORK/data-a"
  prepare_user
  measure_routes pg1
  # The same replica with every write in a transaction, as before one-statement writes: the
  # command rows' "before", in this run.
  stop_servers
  start_server "$PORT" --database "$DATABASE_URL" --replica-name a --data "$WORK/data-a" --test-writes-in-transactions
  prepare_user
  measure_routes pgtx
  stop_servers
  start_server "$PORT" --database "$DATABASE_URL" --replica-name a --data "$WORK/data-a"
  B_PORT=$((PORT + 1))
  start_server "$B_PORT" --database "$DATABASE_URL" --replica-name b --data "$WORK/data-b"
  BASES=("$BASE" "http://127.0.0.1:$B_PORT")
  prepare_user
  measure_routes pg2
  # The same baseline again, on one server: how far the machine drifted during the run.
  BASES=("$BASE")
  measure baseline-end /baseline
  stop_servers

  echo
  header
  row baseline "baseline: the same bytes, precomputed" ""
  row baseline-end "  the baseline again, at the end" ""
  row floor "framework floor: GET /health (2 bytes)" ""
  for route in home revalidation shared shop html command command-keyed commands-many; do
    case "$route" in
      home) echo "user home (encoded cache)" ;;
      revalidation) echo "304 (If-None-Match)" ;;
      shared) echo "shared screen (composer/bach)" ;;
      shop) echo "composed page (shop; cached per shape)" ;;
      html) echo "HTML home, signed in (page cache)" ;;
      command) echo "command (favorite add/remove, a write each)" ;;
      command-keyed) echo "  the same, each with an Idempotency-Key" ;;
      commands-many) echo "the same commands, $CONNECTIONS users in turn" ;;
    esac
    row "main-$route" "  SQLite" ""
    case "$route" in
      command*) row "pgtx-$route" "  PostgreSQL, one replica, in transactions" "(before)" ;;
    esac
    row "pg1-$route" "  PostgreSQL, one replica" ""
    row "pg2-$route" "  PostgreSQL, two replicas" ""
  done
  echo
  echo "==> the time from a write on replica A until replica B serves it ($LATENCY_WRITES writes)"
  SCREENPLAY_BINARY="$BIN" SCREENPLAY_TEST_DATABASE_URL="$DATABASE_URL" SCREENPLAY_TEST_POSTGRES_DIR="$CLUSTER" \
    python3 scripts/replica_latency.py "$LATENCY_WRITES"
  exit 0
fi

# Isolation: a neighbour writes and reloads their home in a loop, so it is rebuilt again and
# again, while the first user's home is measured as before. First a light neighbour (one
# playlist), then a heavy one (100 playlists, the most allowed, with the longest names): on two
# cores shared with wrk, any neighbour's loop takes CPU, so the heavy one is compared with the
# light one doing the same (what heaviness itself costs others), and with nobody (both printed).
neighbour_loop() {
  local token=$1 playlist=$2 n=0 action
  while true; do
    n=$((n + 1))
    action=$([ $((n % 2)) -eq 0 ] && echo add || echo remove)
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $token" \
      --data "{\"playlistId\":$playlist}" "$BASE/api/v4/commands/favorites/$action"
    curl -s -o /dev/null -H "Authorization: Bearer $token" "$BASE/api/v4/screens/home"
  done
}
first_playlist() {
  curl -s -H "Authorization: Bearer $1" "$BASE/api/v4/screens/home" | python3 -c '
import json, sys
print(next(key.split("/")[1] for key in json.load(sys.stdin).get("entities", {}) if key.startswith("playlist/")))'
}
LIGHT=$(new_user "Light 0")
neighbour_loop "$LIGHT" "$(first_playlist "$LIGHT")" &
BACKGROUND_PIDS+=($!)
measure isolation-light -H "Authorization: Bearer $TOKEN" /api/v4/screens/home
kill "${BACKGROUND_PIDS[@]}" 2>/dev/null || true
BACKGROUND_PIDS=()

HEAVY=$(new_user "Heavy 0")
LONG_NAME=$(python3 -c 'print("Ω" * 100)')
for i in $(seq 1 99); do
  curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $HEAVY" \
    --data "{\"name\":\"$LONG_NAME\"}" "$BASE/api/v4/commands/playlists/create"
done
neighbour_loop "$HEAVY" "$(first_playlist "$HEAVY")" &
BACKGROUND_PIDS+=($!)
measure isolation -H "Authorization: Bearer $TOKEN" /api/v4/screens/home
HEAVY_BYTES=$(curl -s -H "Authorization: Bearer $HEAVY" "$BASE/api/v4/screens/home" | wc -c)
kill "${BACKGROUND_PIDS[@]}" 2>/dev/null || true
BACKGROUND_PIDS=()

echo
header
row baseline "baseline: the same bytes, precomputed" ""
row floor "framework floor: GET /health (2 bytes)" ""
row main-home "user home (answered from memory)" ">= 1.0x"
row main-revalidation "304 (If-None-Match)" ">= 1.0x"
row main-shared "shared screen (composer/bach)" ""
row main-shop "composed page (shop; cached per shape)" ">= 0.8x"
row main-html "HTML home, signed in (from memory)" ">= 1.0x"
row main-command "command (favorite add/remove, a write each)" "p99 < 50 ms"
row main-command-keyed "  the same, each with an Idempotency-Key" "p99 < 50 ms"
row main-commands-many "the same commands, $CONNECTIONS users in turn" ""
row isolation-light "user home while a light user rebuilds" ""
row isolation "user home while a heavy user rebuilds" "p99 <= 3x light"
read -r _ _ HOME_P99 _ <"$WORK/main-home"
read -r _ _ LIGHT_P99 _ <"$WORK/isolation-light"
read -r _ _ ISO_P99 _ <"$WORK/isolation"
echo "isolation: the user home's p99 beside a heavy neighbour is $(python3 -c "print(round($ISO_P99 / max($LIGHT_P99, 0.001), 2))")x its p99 beside a light one doing the same (target <= 3x), $(python3 -c "print(round($ISO_P99 / max($HOME_P99, 0.001), 2))")x its p99 alone; the heavy user's home is $HEAVY_BYTES bytes"
echo "server resident memory after the routes: $(( $(rss_kib) / 1024 )) MiB; the command route (every request a body) added $(( (RSS_AFTER_COMMANDS - RSS_BEFORE_COMMANDS) / 1024 )) MiB"

[ "$SOAK_MINUTES" -gt 0 ] || exit 0

# Soak: every route above in one mix for SOAK_MINUTES, while an attacker makes new users, each
# with the most playlists allowed under names of the most bytes allowed (combining marks), and
# keeps their homes changing, so that caches fill with large, short-lived screens.
echo
echo "==> soak: ${SOAK_MINUTES} min, mixed routes at $CONNECTIONS connections, plus an attacker, with $SOAK_STREAMS event streams open"
if [ "$SOAK_STREAMS" -gt 0 ]; then
  python3 scripts/fanout_client.py --port "$PORT" --server-pid "${SERVER_PIDS[0]}" --streams "$SOAK_STREAMS" \
    --hold $((SOAK_MINUTES * 60 + 30)) >"$WORK/streams.out" 2>&1 &
  HOLDER=$!
  for _ in $(seq 1 600); do grep -q "^==> holding" "$WORK/streams.out" && break; kill -0 "$HOLDER" 2>/dev/null || break; sleep 0.5; done
  grep -q "^==> holding" "$WORK/streams.out" || { echo "soak: the streams did not open:"; cat "$WORK/streams.out"; exit 1; }
  echo "soak: $SOAK_STREAMS streams open, resident memory $(( $(rss_kib) / 1024 )) MiB"
fi
cat >"$WORK/mix.lua" <<EOF
local requests = {}
local n = 0
init = function()
  local auth = { ["Authorization"] = "Bearer $TOKEN" }
  requests = {
    wrk.format("GET", "/api/v4/screens/home", auth),
    wrk.format("GET", "/api/v4/screens/home", { ["Authorization"] = "Bearer $TOKEN", ["If-None-Match"] = '$ETAG' }),
    wrk.format("GET", "/api/v4/screens/composer/bach"),
    wrk.format("GET", "/", { ["Cookie"] = "screenplay_token=$TOKEN" }),
    wrk.format("POST", "/api/v4/commands/favorites/add", { ["Authorization"] = "Bearer $TOKEN", ["Content-Type"] = "application/json" }, '{"playlistId":$PLAYLIST}'),
    wrk.format("POST", "/api/v4/commands/favorites/remove", { ["Authorization"] = "Bearer $TOKEN", ["Content-Type"] = "application/json" }, '{"playlistId":$PLAYLIST}'),
  }
end
request = function()
  n = n + 1
  return requests[(n % #requests) + 1]
end
EOF
# The most bytes a name may have: 80 characters (grapheme clusters) of "a" and two combining
# marks, 5 bytes each, is the 400-byte limit (the server refuses a byte more).
ATTACK_NAME=$(python3 -c 'print("a\u0301\u0302" * 80)')
(
  round=0
  while true; do
    round=$((round + 1))
    attacker=$(new_user "Attack $round")
    [ -n "$attacker" ] || { sleep 1; continue; }
    for i in $(seq 1 99); do
      curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $attacker" \
        --data "{\"name\":\"$ATTACK_NAME\"}" "$BASE/api/v4/commands/playlists/create"
      curl -s -o /dev/null -H "Authorization: Bearer $attacker" "$BASE/api/v4/screens/home"
      curl -s -o /dev/null -H "Cookie: screenplay_token=$attacker" "$BASE/"
    done
  done
) &
BACKGROUND_PIDS+=($!)
sleep 5
RSS_START=$(rss_kib)
RSS_PEAK=$RSS_START
MEMORY_LOG="$WORK/server-$PORT.log"
MEMORY_FROM=$(wc -l <"$MEMORY_LOG")
(
  while true; do sleep 5; rss_kib >>"$WORK/rss"; done
) &
BACKGROUND_PIDS+=($!)
DURATION=$((SOAK_MINUTES * 60)) measure soak -s "$WORK/mix.lua" /
RSS_END=$(rss_kib)
kill "${BACKGROUND_PIDS[@]}" 2>/dev/null || true
BACKGROUND_PIDS=()
[ -f "$WORK/rss" ] && RSS_PEAK=$(sort -n "$WORK/rss" | tail -1)
read -r SOAK_RPS SOAK_P50 SOAK_P99 SOAK_ERRORS <"$WORK/soak"
USERS=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from screenplay_users").fetchone()[0])' "$WORK/data/screenplay-demo.sqlite" 2>/dev/null || echo "?")
echo "soak: $SOAK_RPS req/s, p50 $SOAK_P50 ms, p99 $SOAK_P99 ms, errors $SOAK_ERRORS; users in the database: $USERS"
echo "soak: resident memory $((RSS_START / 1024)) MiB at start, $((RSS_END / 1024)) MiB at end, $((RSS_PEAK / 1024)) MiB at peak"
# The curve, in fifths of the soak: it should level off once the caches reach their byte budget
# (CACHE_MIB in all) instead of growing with what the attacker sends.
if [ -f "$WORK/rss" ]; then
  python3 -c '
import sys
samples = [int(line) for line in open(sys.argv[1]) if line.strip()]
marks = [samples[min(len(samples) - 1, len(samples) * k // 5)] // 1024 for k in range(1, 6)]
print("soak: resident memory by fifths of the run (MiB):", " ".join(map(str, marks)))' "$WORK/rss"
fi
# What the server said its memory holds during the soak (every 30 s): a cache still growing
# toward its budget, or resident memory growing while every cache stands still.
tail -n +"$((MEMORY_FROM + 1))" "$MEMORY_LOG" | grep "^memory: " | sed 's/^/soak: /' || true
STREAMS_STATUS=0
if [ "$SOAK_STREAMS" -gt 0 ]; then
  wait "$HOLDER" || STREAMS_STATUS=$?
  grep -E "^  [0-9]+ min:|^held streams|^  user" "$WORK/streams.out" | sed 's/^/soak: /'
fi
[ "$SOAK_ERRORS" -eq 0 ] || { echo "soak: errors (see wrk output below)"; cat "$WORK/soak.out"; exit 1; }
[ "$STREAMS_STATUS" -eq 0 ] || { echo "soak: the event streams failed (above)"; exit 1; }
