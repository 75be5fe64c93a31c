#!/bin/bash
# CLI test of `pbem play` (the bot-against-bot soak run) on the bundled scenario
# (engine/scenarios/bois-de-la-morne.textproto):
#  * 20 games with seed 7 exit 0 with zero violations, one line per game;
#  * a second run with the same seed prints the same output, byte for byte;
#  * another seed gives another final hash;
#  * a missing --seed is a usage error.
#
# usage: play.sh PBEM_BINARY REPO_DIR
set -u

PBEM=${1:?usage: play.sh PBEM_BINARY REPO_DIR}
REPO=${2:?usage: play.sh PBEM_BINARY REPO_DIR}
SCEN="$REPO/engine/scenarios/bois-de-la-morne.textproto"
export PBEM_DATA_DIR="$REPO"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pbem-play-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

failures=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# play OUT EXPECTED_EXIT ARGS...: stdout to $WORK/OUT, stderr to $WORK/OUT.err.
play() {
  local out=$1 want=$2
  shift 2
  "$PBEM" play "$@" >"$WORK/$out" 2>"$WORK/$out.err"
  local got=$?
  if [ "$got" -eq "$want" ]; then
    pass "play $* (exit $got)"
  else
    fail "play $*: exit $got, expected $want"
    sed 's/^/    out: /' "$WORK/$out" | tail -20
    sed 's/^/    err: /' "$WORK/$out.err"
  fi
}

play a 0 --scenario "$SCEN" --games 20 --seed 7 --quiet
play b 0 --scenario "$SCEN" --games 20 --seed 7 --quiet
play c 0 --scenario "$SCEN" --games 20 --seed 8 --quiet

final_a=$(tail -n 1 "$WORK/a")
final_b=$(tail -n 1 "$WORK/b")
final_c=$(tail -n 1 "$WORK/c")
if [[ "$final_a" =~ ^20\ games,\ 0\ violations,\ hash\ ([0-9a-f]{16})\ \(format\ 1\),\ ([0-9a-f]{16})\ \(format\ 2\)$ ]]; then
  pass "final line: '$final_a'"
  if [ "${BASH_REMATCH[1]}" != "${BASH_REMATCH[2]}" ]; then
    pass "the two formats hash differently"
  else
    fail "formats 1 and 2 give the same hash ${BASH_REMATCH[1]}: format 2 is not written"
  fi
else
  fail "final line '$final_a' is not '20 games, 0 violations, hash <16 hex> (format 1), <16 hex> (format 2)'"
fi
if grep -q violation: "$WORK/a"; then fail "violations reported"; else pass "no violation lines"; fi
games=$(grep -cE '^game [0-9]+: (blue|orange|draw) [a-z]+ vp [0-9]+-[0-9]+ after [0-9]+ player-turns, hash [0-9a-f]{16}$' "$WORK/a")
if [ "$games" -eq 20 ]; then pass "20 game lines"; else fail "$games well-formed game lines, expected 20"; fi
if [ "$final_a" = "$final_b" ]; then pass "same seed, same final line"; else fail "same seed: '$final_a' vs '$final_b'"; fi
if cmp -s "$WORK/a" "$WORK/b"; then pass "same seed, same output byte for byte"; else fail "same seed, outputs differ"; fi
hash_a=${final_a#*hash }
hash_c=${final_c#*hash }
if [ -n "$hash_a" ] && [ "$hash_a" != "$hash_c" ]; then
  pass "seed 8 gives another hash ($hash_c)"
else
  fail "seeds 7 and 8 give the same hash $hash_a"
fi

play usage 2 --scenario "$SCEN" --games 1
play usage2 2 --scenario "$SCEN" --games x --seed 1

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all play checks passed"
