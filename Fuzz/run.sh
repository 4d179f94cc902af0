#!/usr/bin/env bash
# Builds the libFuzzer targets (release, -sanitize=fuzzer, dead stripping off so the coverage
# counters stay) and runs each for a bounded time; see Fuzz/README.md.
#
#   bash Fuzz/run.sh                     # every target, FUZZ_TIME seconds each (default 30)
#   bash Fuzz/run.sh --time 60 FuzzHTMLRenderer FuzzJSONSyntax
#   bash Fuzz/run.sh --planted           # prove each target finds its planted bug (FUZZ_PLANTED_TIME, default 600 s)
#   bash Fuzz/run.sh --asan              # fuzz with AddressSanitizer too (slower; separate build in Fuzz/.build-asan)
#   bash Fuzz/run.sh --build-only        # build the fuzz targets and stop (scripts/test.sh builds while the tests run)
#   bash Fuzz/run.sh --built             # fuzz what --build-only just built (skips SwiftPM's ~20 s look)
#
# Before fuzzing, every input in Fuzz/Regressions/<Target>/ is replayed. Each target fuzzes a
# working copy of its seeds in Fuzz/.work/<Target>/corpus (kept between local runs, never
# committed). Exits non-zero when a target crashes (the input's path is printed) or, with
# --planted, when a planted bug is not found in time.
set -euo pipefail
fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
cd "$fuzz_dir"

all_targets=(FuzzJSONSyntax FuzzScreenDecoding FuzzCommandPayload FuzzDowngrade FuzzHTMLRenderer FuzzLiveInput FuzzExpressions)
time_per_target="${FUZZ_TIME:-30}"
planted_time="${FUZZ_PLANTED_TIME:-600}"
mode=fuzz
asan=0
build_only=0
built=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time_per_target="$2"; planted_time="$2"; shift 2 ;;
    --planted) mode=planted; shift ;;
    --asan) asan=1; shift ;;
    --build-only) build_only=1; shift ;;
    --built) built=1; shift ;;
    -h|--help) sed -n '2,15p' "$fuzz_dir/run.sh"; exit 0 ;;
    Fuzz*) targets+=("$1"); shift ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# The Swift runtime's backtracer would catch the trap first and exit without libFuzzer writing
# the crashing input: leave crashes to libFuzzer.
export SWIFT_BACKTRACE=enable=no

scratch="$fuzz_dir/.build"
build_flags=(-c release --sanitize=fuzzer --disable-dead-strip)
if [ "$asan" = 1 ]; then
  # Two --sanitize flags keep only one instrumentation; one -sanitize=fuzzer,address keeps both.
  scratch="$fuzz_dir/.build-asan"
  build_flags+=(-Xswiftc -sanitize=fuzzer,address)
fi
if [ "$mode" = planted ]; then
  export FUZZ_PLANTED_BUG=1   # read by Package.swift: compiles the planted bugs into FuzzSupport
  export FUZZ_IGNORE_KNOWN=1  # a known, unfixed bug must not pass for the planted one
else
  unset FUZZ_PLANTED_BUG
fi

# What the last build in $scratch was for (fuzzing or planted bugs, with or without ASan) and
# where its products are: --built fuzzes only a plain fuzz build of this mode, never a planted one.
stamp="$scratch/built-for"
if [ "$built" = 1 ]; then
  [ "$mode" = fuzz ] && [ "$build_only" = 0 ] || { echo "--built fuzzes a plain fuzz build: not with --planted or --build-only" >&2; exit 2; }
  { read -r built_for && read -r bin; } 2>/dev/null <"$stamp" || { echo "==> FAILED: --built, but nothing was built in $scratch (run --build-only first)" >&2; exit 1; }
  [ "$built_for" = "fuzz asan=$asan" ] || { echo "==> FAILED: --built, but the last build in $scratch was for '$built_for' (run --build-only again)" >&2; exit 1; }
  for target in "${targets[@]}"; do
    [ -x "$bin/$target" ] || { echo "==> FAILED: --built, but $bin/$target is not there (run --build-only again)" >&2; exit 1; }
  done
  echo "==> fuzzing what was built: $bin"
else
  echo "==> building fuzz targets (swift build ${build_flags[*]})"
  build_start=$(date +%s)
  rm -f "$stamp"  # said again once this build succeeds
  swift build --package-path "$fuzz_dir" --scratch-path "$scratch" "${build_flags[@]}" 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)' || true
  [ "${PIPESTATUS[0]}" = 0 ] || { echo "==> FAILED: the fuzz targets do not build" >&2; exit 1; }
  bin="$(swift build --package-path "$fuzz_dir" --scratch-path "$scratch" "${build_flags[@]}" --show-bin-path)"
  printf '%s\n' "$mode asan=$asan" "$bin" >"$stamp"
  echo "==> built in $(( $(date +%s) - build_start )) s: $bin"
fi
[ "$build_only" = 0 ] || exit 0

max_len() { echo 4096; }  # every seed fits; small inputs mutate (and run) faster
dict_flag() {
  case "$1" in
    FuzzHTMLRenderer) ;;
    FuzzExpressions) echo "-dict=$fuzz_dir/expressions.dict" ;;
    *) echo "-dict=$fuzz_dir/json.dict" ;;
  esac
}
stat() { { grep -E "^stat::$1:" "$2" || true; } | tail -1 | awk '{print $2}'; }
last_status() { { grep -E '^#[0-9]+.*(DONE|INITED|NEW|REDUCE|pulse)' "$1" || true; } | tail -1; }
field() { sed -nE "s/.* $1: ([0-9]+(\/[0-9]+[a-zA-Z]*)?).*/\1/p" <<<"$2"; }

# One target: replay its regressions, then fuzz it. Prints one summary line to fd 3 and returns
# non-zero when it failed. Runs in a subshell of its own, so targets can fuzz side by side.
fuzz_one() {
  local target=$1 work log regressions seconds start status elapsed line runs speed cov ft corp artifact
  work="$fuzz_dir/.work/$target"
  [ "$mode" = planted ] && work="$fuzz_dir/.work/planted/$target"
  mkdir -p "$work/corpus"
  log="$work/fuzz.log"

  # 1. Every input that once crashed must not crash any more.
  regressions=("$fuzz_dir/Regressions/$target"/*)
  if [ "$mode" = fuzz ] && [ -e "${regressions[0]}" ]; then
    echo "==> $target: replaying ${#regressions[@]} regression input(s)"
    if ! "$bin/$target" -runs=1 "${regressions[@]}" >"$work/regressions.log" 2>&1; then
      echo "==> $target: a regression input crashes again:" >&2
      grep -E 'Running:|oracle violated|Fatal error|ERROR' "$work/regressions.log" | tail -4 | swift demangle --simplified >&2 || true
      echo "$target: REGRESSION (see $work/regressions.log)" >&3
      return 1
    fi
  fi

  # 2. Fuzz a copy of the seeds (plus, locally, what earlier runs found).
  if [ "$mode" = planted ]; then rm -rf "$work/corpus"; mkdir -p "$work/corpus"; fi
  cp -n "$fuzz_dir/Corpus/$target"/* "$work/corpus/" 2>/dev/null || true
  seconds="$time_per_target"
  [ "$mode" = planted ] && seconds="$planted_time"
  echo "==> $target: fuzzing for ${seconds} s ($(ls "$work/corpus" | wc -l) inputs to start)"
  rm -f "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-*
  start=$(date +%s.%N)
  set +e
  # shellcheck disable=SC2046
  "$bin/$target" -max_total_time="$seconds" -max_len="$(max_len "$target")" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$work/" $(dict_flag "$target") "$work/corpus" >"$log" 2>&1
  status=$?
  set -e
  elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')
  line="$(last_status "$log")"
  runs="$(stat number_of_executed_units "$log")"
  speed="$(stat average_exec_per_sec "$log")"
  cov="$(field cov "$line")"; ft="$(field ft "$line")"; corp="$(field corp "$line")"
  artifact="$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -1)"

  if [ "$mode" = planted ]; then
    if [ "$status" != 0 ] && grep -q "PLANTED BUG reached" "$log"; then
      echo "$target: planted bug found in ${elapsed} s after ${runs:-?} executions ($(grep -o 'PLANTED BUG reached: .*' "$log" | head -1 | cut -c22-))" >&3
    elif [ "$status" != 0 ]; then
      echo "$target: crashed on something else before the planted bug: $artifact" >&3
      grep -E 'oracle violated|Fatal error' "$log" | head -2 || true
      return 1
    else
      echo "$target: planted bug NOT found in ${seconds} s (${runs:-?} executions)" >&3
      return 1
    fi
    return 0
  fi

  if [ "$status" != 0 ]; then
    echo "==> $target: CRASH after ${elapsed} s; input: ${artifact:-?}" >&2
    grep -E 'oracle violated|Fatal error|ERROR: libFuzzer|==ERROR|SUMMARY' "$log" | head -4 | swift demangle --simplified >&2 || true
    grep -E '^ +#[0-9]+ 0x' "$log" | grep -Ev 'libFuzzer|compiler-rt|libc\.so|libswiftCore' | head -12 | swift demangle --simplified >&2 || true
    echo "    reproduce: $bin/$target $artifact   (full log: $log)" >&2
    echo "$target: CRASH ${artifact:-?} (execs ${runs:-?}, cov ${cov:-?}, ft ${ft:-?})" >&3
    return 1
  fi
  printf '%-19s %5ss  execs %9s  exec/s %6s  cov %5s  ft %6s  corpus %s  crashes 0\n' "$target" "$seconds" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" >&3
}

# Targets fuzz side by side, FUZZ_JOBS at a time (default: one per core); each is
# single-threaded, so on an otherwise idle machine each still has a core to itself.
jobs_at_once="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
pids=()
for index in "${!targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  # errexit stays on inside fuzz_one (it would be off in an `if` or `||`); the outer subshell
  # only records how it ended.
  ( set +e; ( set -e; fuzz_one "${targets[$index]}" 3>"$results/$index.line" ); echo $? >"$results/$index.status" ) &
  pids+=($!)
done
wait "${pids[@]}" 2>/dev/null || true

failures=0
summary=()
for index in "${!targets[@]}"; do
  summary+=("$(cat "$results/$index.line" 2>/dev/null || echo "${targets[$index]}: no result")")
  [ "$(cat "$results/$index.status" 2>/dev/null || echo 1)" = 0 ] || failures=$((failures + 1))
done

echo "==> fuzz summary ($mode)"
for entry in "${summary[@]}"; do echo "    $entry"; done
if [ "$failures" -gt 0 ]; then
  echo "==> $failures target(s) failed" >&2
  exit 1
fi
