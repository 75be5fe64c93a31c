#!/bin/bash
# Runs the libFuzzer targets of a PBEM_FUZZ build one after the other, each for a bounded time,
# and prints executions, executions per second and crashes per target.
#
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]     (default: every target)
#
# Each target starts from its seed corpus (tests/fuzz/corpus/<target>/, read only) and the
# corpus it grew in earlier runs (BUILD_DIR/fuzz/corpus/<target>/, never committed); crash
# inputs go to BUILD_DIR/fuzz/artifacts/<target>/, logs to BUILD_DIR/fuzz/logs/. Every run
# appends to BUILD_DIR/fuzz/totals.tsv, and the summary shows the executions of all runs so far.
# Runs niced (the machine is shared). Exits 1 when any target crashed (or failed to run).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
all=(orders_binary orders_text orders_json orders_detect mail_inbound archive_verify
  ruleset_text scenario_text)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")

# The longest input each target tries: mails and archives are larger than orders.
max_len() {
  case "$1" in
    mail_inbound | archive_verify) echo 65536 ;;
    ruleset_text | scenario_text) echo 32768 ;;
    *) echo 8192 ;;
  esac
}

work="$build/fuzz"
mkdir -p "$work/logs" "$work/dicts"
"$here/make_dicts.sh" "$work/dicts"
totals="$work/totals.tsv"
[[ -f $totals ]] || printf 'utc\ttarget\texecutions\tseconds\tcrashes\n' >"$totals"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export PBEM_SOURCE_DIR=${PBEM_SOURCE_DIR:-$(cd "$here/../.." && pwd)}

failed=0
printf '%-15s %12s %9s %8s %15s  %s\n' target executions exec/s crashes 'all runs' notes
for target in "${targets[@]}"; do
  exe="$build/bin/fuzz_$target"
  if [[ ! -x $exe ]]; then
    printf '%-15s %12s %9s %8s %15s  %s\n' "$target" - - - - "not built: $exe"
    failed=1
    continue
  fi
  corpus="$work/corpus/$target"
  artifacts="$work/artifacts/$target"
  log="$work/logs/$target.log"
  mkdir -p "$corpus" "$artifacts"
  dict=()
  [[ -f $work/dicts/$target.dict ]] && dict=("-dict=$work/dicts/$target.dict")
  # Failures: crash-, leak-, timeout- and oom- inputs. A slow-unit- input (one run over
  # libFuzzer's 10 s report threshold) is noted, not a failure: on a loaded machine a niced
  # fuzzer can be starved for that long on an input that takes microseconds.
  before=$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)
  slow_before=$(find "$artifacts" -type f -name 'slow-unit-*' | wc -l)
  start=$(date +%s)
  rc=0
  nice -n 10 "$exe" -max_total_time="$seconds" -print_final_stats=1 -timeout=25 \
    -rss_limit_mb=2560 -max_len="$(max_len "$target")" -artifact_prefix="$artifacts/" \
    "${dict[@]}" "$corpus" "$here/corpus/$target" >"$log" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - start))
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
  execs=${execs:-0}
  crashes=$(($(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l) - before))
  slow=$(($(find "$artifacts" -type f -name 'slow-unit-*' | wc -l) - slow_before))
  notes=""
  if [[ $rc -ne 0 || $crashes -ne 0 ]]; then
    failed=1
    [[ $crashes -eq 0 ]] && crashes=1
    notes="exit $rc, see $log; inputs in $artifacts/"
  elif [[ $slow -ne 0 ]]; then
    notes="$slow slow unit(s) noted (not failures; replay: $exe $artifacts/slow-unit-*)"
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$execs" "$elapsed" "$crashes" \
    >>"$totals"
  total=$(awk -F'\t' -v t="$target" '$2 == t { s += $3 } END { print s + 0 }' "$totals")
  printf '%-15s %12s %9s %8s %15s  %s\n' "$target" "$execs" "$((execs / (elapsed > 0 ? elapsed : 1)))" \
    "$crashes" "$total" "$notes"
done
exit "$failed"
