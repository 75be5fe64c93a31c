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
#
# With FUZZ_UNTIL=N in the environment, runs rounds (each target SECONDS) until every target
# has N executions in totals.tsv, then stops; a target that crashed is not run again.
# `make fuzz-long` is FUZZ_UNTIL=10000000 (tests/fuzz/README.md: the time it takes).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
all=(orders_binary orders_text orders_json orders_detect mail_inbound archive_verify
  ruleset_text scenario_text m42_ruleset_text m42_scenario_text m42_orders wme_ruleset_text
  wme_scenario_text wme_orders wme_turn_result system_states
  m42_turn_result system_turn_results)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")

# The longest input each target tries: mails and archives are larger than orders.
max_len() {
  case "$1" in
    mail_inbound | archive_verify) echo 65536 ;;
    ruleset_text | scenario_text | m42_ruleset_text | m42_scenario_text | wme_ruleset_text | \
      wme_scenario_text) echo 32768 ;;
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

until=${FUZZ_UNTIL:-0}
[[ $until =~ ^[0-9]+$ ]] || { echo "FUZZ_UNTIL: not a number: $until" >&2; exit 2; }

# The executions of all runs of target $1 so far.
total_of() {
  awk -F'\t' -v t="$1" '$2 == t { s += $3 } END { print s + 0 }' "$totals"
}

failed=0
interrupted=0
printf '%-15s %12s %9s %8s %15s  %s\n' target executions exec/s crashes 'all runs' notes
# One run of target $1; returns 1 when it crashed or could not run.
run_one() {
  local target=$1
  local exe="$build/bin/fuzz_$target"
  if [[ ! -x $exe ]]; then
    printf '%-15s %12s %9s %8s %15s  %s\n' "$target" - - - - "not built: $exe"
    return 1
  fi
  local corpus artifacts log dict before slow_before start rc elapsed execs crashes slow notes
  local total
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
  # -entropic_feature_frequency_threshold=16: libFuzzer's entropic schedule keeps every
  # feature seen fewer than 255 times (the default) in a "rare" list it searches linearly for
  # each feature of each execution; on archive_verify (20,000 features an input) that list
  # took over half of all time. At 16 the schedule is the same kind (rarest features first)
  # and archive_verify ran 4.4x as many inputs in 20 s from the seeds, with more features
  # found (484 -> 2,141 exec/s, ft 21,656 -> 24,208, same seed), 2.1x from a grown corpus;
  # the other targets 1.1x to 1.8x (tests/fuzz/README.md). What runs on each input, and
  # what is checked, is unchanged.
  nice -n 10 "$exe" -max_total_time="$seconds" -print_final_stats=1 -timeout=25 \
    -rss_limit_mb=2560 -max_len="$(max_len "$target")" -artifact_prefix="$artifacts/" \
    -entropic_feature_frequency_threshold=16 \
    "${dict[@]}" "$corpus" "$here/corpus/$target" >"$log" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - start))
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
  execs=${execs:-0}
  crashes=$(($(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l) - before))
  slow=$(($(find "$artifacts" -type f -name 'slow-unit-*' | wc -l) - slow_before))
  notes=""
  # libFuzzer exits 72 after SIGINT (an operator stopping a long run): not a crash; the
  # executions done count and the whole run stops after this target.
  if [[ $rc -eq 72 && $crashes -eq 0 ]] && grep -q 'run interrupted' "$log"; then
    rc=0
    interrupted=1
    notes="interrupted"
  fi
  if [[ $rc -ne 0 || $crashes -ne 0 ]]; then
    [[ $crashes -eq 0 ]] && crashes=1
    notes="exit $rc, see $log; inputs in $artifacts/"
  elif [[ $slow -ne 0 ]]; then
    notes="$slow slow unit(s) noted (not failures; replay: $exe $artifacts/slow-unit-*)"
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$execs" "$elapsed" "$crashes" \
    >>"$totals"
  total=$(total_of "$target")
  printf '%-15s %12s %9s %8s %15s  %s\n' "$target" "$execs" "$((execs / (elapsed > 0 ? elapsed : 1)))" \
    "$crashes" "$total" "$notes"
  [[ $crashes -eq 0 ]]
}

while :; do
  round=()
  for target in "${targets[@]}"; do
    [[ $until -gt 0 && $(total_of "$target") -ge $until ]] && continue
    round+=("$target")
  done
  [[ ${#round[@]} -gt 0 ]] || break
  left=()
  for target in "${round[@]}"; do
    if run_one "$target"; then left+=("$target"); else failed=1; fi
    [[ $interrupted -eq 0 ]] || exit 130
  done
  [[ $until -gt 0 && ${#left[@]} -gt 0 ]] || break
  targets=("${left[@]}")
done
exit "$failed"
