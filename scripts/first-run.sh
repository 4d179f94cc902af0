#!/usr/bin/env bash
# What a new user waits for: clones each commit into a folder of its own, runs the README's first
# command (`swift run screenplay serve`, on a free port, with a fresh data folder) and times it
# until the demo answers its URL. Prints, for each commit: the seconds to an answer, SwiftPM's own
# build time, the build's step count (the M of its last `[N/M]`) and how many C, C++ and assembly
# files were compiled (object files in the build folder, by source kind), then each commit against
# the first.
#
#   bash scripts/first-run.sh                   # 05056a5 (before the default build was trimmed) and HEAD
#   bash scripts/first-run.sh COMMIT [COMMIT…]  # any commits of this repository, in that order
#   KEEP=1 bash scripts/first-run.sh …          # keep the clones (and their build folders) to look at
#
# Runs one commit after the other on the same machine (about 5 + 8 minutes on 2 quiet cores).
# Seconds depend on what else the machine does; steps and file counts do not. Nothing is shared
# between the clones but what any new clone on this machine shares: the toolchain, the packages'
# git copies and SwiftPM's caches.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
commits=("$@")
[ ${#commits[@]} -gt 0 ] || commits=(05056a5 HEAD)

work="$(mktemp -d /tmp/screenplay-first-run-XXXXXX)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill -- "-$server_pid" 2>/dev/null || true; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "==> kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

say() { printf '==> %s\n' "$*"; }

# Object files in a build folder by the kind of source they came from: "C C++ asm".
compiled_files() {
  local build=$1 c cxx asm
  c=$(find "$build" -name '*.c.o' | wc -l)
  cxx=$(find "$build" \( -name '*.cc.o' -o -name '*.cpp.o' -o -name '*.cxx.o' \) | wc -l)
  asm=$(find "$build" \( -name '*.S.o' -o -name '*.s.o' \) | wc -l)
  echo "$c $cxx $asm"
}

results=()
for commit in "${commits[@]}"; do
  id=$(git -C "$repo" rev-parse --short "$commit")
  clone="$work/$id"
  say "$commit ($id): cloning into $clone"
  git clone --quiet --no-local "$repo" "$clone"
  git -C "$clone" checkout --quiet "$id"
  data="$clone/data-first-run"
  log="$work/$id.log"
  say "$id: swift run screenplay serve --port 0 (log: $log)"
  start=$(date +%s.%N)
  # Its own process group, so the server and the promotions child it starts stop together.
  (cd "$clone" && exec setsid swift run screenplay serve --port 0 --data "$data" >"$log" 2>&1) &
  server_pid=$!
  url=""
  answered=""
  while kill -0 "$server_pid" 2>/dev/null; do
    if [ -z "$url" ]; then
      url=$(grep -oE 'Open http://127\.0\.0\.1:[0-9]+/' "$log" | head -1 | cut -c6- || true)
    fi
    if [ -n "$url" ] && curl -fsS -o /dev/null --max-time 5 "$url"; then
      answered=$(date +%s.%N)
      break
    fi
    sleep 0.2
  done
  if [ -z "$answered" ]; then
    echo "==> FAILED: $id never answered; the log ends with:" >&2
    tail -20 "$log" >&2
    exit 1
  fi
  kill -- "-$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  seconds=$(awk -v s="$start" -v e="$answered" 'BEGIN {printf "%.0f", e - s}')
  steps=$(grep -oE '^\[[0-9]+/[0-9]+\]' "$log" | tail -1 | sed -E 's/.*\/([0-9]+)\]/\1/' || true)
  swiftpm=$(grep -oE 'Build of product .screenplay. complete! \([0-9.]+s\)' "$log" | grep -oE '[0-9.]+s' | tail -1 || true)
  read -r c cxx asm < <(compiled_files "$clone/.build")
  say "$id: answered $url after ${seconds} s (SwiftPM's build: ${swiftpm:-?}); ${steps:-?} steps; compiled $c C, $cxx C++, $asm assembly files"
  results+=("$id $seconds ${swiftpm:-?} ${steps:-?} $c $cxx $asm")
  # Each clone's build folder is a few GB: keep only what KEEP asks for.
  [ "${KEEP:-0}" = 1 ] || rm -rf "$clone"
done

echo
printf '%-10s %18s %14s %7s %5s %5s %5s\n' commit "to the demo (s)" "SwiftPM (s)" steps C C++ asm
for row in "${results[@]}"; do
  # shellcheck disable=SC2086
  printf '%-10s %18s %14s %7s %5s %5s %5s\n' $row
done
if [ ${#results[@]} -ge 2 ]; then
  read -r _ first_seconds _ first_steps _ <<<"${results[0]}"
  for row in "${results[@]:1}"; do
    read -r id seconds _ steps _ <<<"$row"
    echo "$id against ${results[0]%% *}: $(awk -v a="$seconds" -v b="$first_seconds" 'BEGIN {printf "%.0f", 100 * a / b}') % of the time, $(awk -v a="$steps" -v b="$first_steps" 'BEGIN {printf "%.0f", 100 * a / b}') % of the steps"
  done
fi
