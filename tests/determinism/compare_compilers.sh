#!/bin/bash
# Determinism across compilers (issue 4): the same scenario, orders and seed must give
# byte-identical results whether pbem was built with gcc or with clang. Plays the same bot
# games with both binaries and compares the hash of every turn result. The 1,000-game run is
# also the soak run: `pbem play` exits non-zero on any invariant violation or any bot order
# the engine refuses, which fails this script. Given the two builds' m42_soak too, the same
# for M42's 1,000-game soak (it exits non-zero on any invariant violation).
#
# Usage: tests/determinism/compare_compilers.sh GCC_PBEM CLANG_PBEM [GCC_M42_SOAK CLANG_M42_SOAK]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if [[ $# -ne 2 && $# -ne 4 ]]; then
  echo "usage: $0 GCC_PBEM CLANG_PBEM [GCC_M42_SOAK CLANG_M42_SOAK]" >&2
  exit 2
fi
scenario=engine/scenarios/bois-de-la-morne.textproto
passed=0
failed=0
# compare NAME OUTPUT_A OUTPUT_B: the two builds' outputs, byte for byte.
compare() {
  if [[ "$2" == "$3" ]]; then
    echo "$1: identical ($(tail -n 1 <<<"$2"))"
    passed=$((passed + 1))
  else
    echo "$1: gcc and clang DIFFER" >&2
    diff <(echo "$2") <(echo "$3") | head -n 20 >&2 || true
    failed=$((failed + 1))
  fi
}
for run in "1 1000" "11 40"; do
  read -r seed games <<<"$run"
  compare "seed $seed" "$("$1" play --scenario "$scenario" --games "$games" --seed "$seed" --quiet)" \
    "$("$2" play --scenario "$scenario" --games "$games" --seed "$seed" --quiet)"
done
if [[ $# -eq 4 ]]; then
  compare "m42 seed 1" "$("$3" --games 1000 --seed 1)" "$("$4" --games 1000 --seed 1)"
fi
echo "determinism: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
