#!/bin/bash
# CLI test of `pbem reach` on the bundled scenario (engine/scenarios/bois-de-la-morne.textproto),
# initial state. Hand-verified facts:
#  * b-i1 (infantry, MA 3, in command) stands at 1404 on clear ground, away from roads and
#    streams; its six neighbours 1304 1504 (row 04), 1403 1503 (row 03), 1405 1505 (row 05)
#    are clear and empty, so each is reached at cost 1 by the one-step path.
#  * b-lc1 (light cavalry) at 2204 is next to 2203 (b-ha1) and 2303 (b-hc1): occupied hexes
#    never appear; nor does any hex where a unit starts, for any unit listed below.
#  * output is sorted by cost then label.
#  * an unknown unit gives exit 1 and a message naming it; a missing UNIT is a usage error.
#
# usage: reach.sh PBEM_BINARY REPO_DIR
set -u

PBEM=${1:?usage: reach.sh PBEM_BINARY REPO_DIR}
REPO=${2:?usage: reach.sh PBEM_BINARY REPO_DIR}
SCEN="$REPO/engine/scenarios/bois-de-la-morne.textproto"
export PBEM_DATA_DIR="$REPO"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pbem-reach-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

failures=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# run NAME EXPECTED_EXIT CMD...: stdout to $WORK/out, stderr to $WORK/err, checks the exit code.
run() {
  local name=$1 want=$2
  shift 2
  "$@" >"$WORK/out" 2>"$WORK/err"
  local got=$?
  if [ "$got" -eq "$want" ]; then
    pass "$name (exit $got)"
  else
    fail "$name: exit $got, expected $want"
    sed 's/^/    out: /' "$WORK/out"
    sed 's/^/    err: /' "$WORK/err"
  fi
}

# has_line NAME LINE: the last run's stdout has exactly this line.
has_line() {
  if grep -qxF -- "$2" "$WORK/out"; then pass "$1: '$2'"; else fail "$1: no line '$2'"; fi
}

# --- b-i1: neighbours on clear terrain at cost 1 --------------------------------------------
run "reach b-i1" 0 "$PBEM" reach --scenario "$SCEN" b-i1
has_line "b-i1 header" "b-i1 at 1404 movement points 3 (in command)"
for n in 1304 1504 1403 1503 1405 1505; do
  has_line "b-i1 neighbour" "$n cost 1 path $n"
done
if grep -q '^1404 ' "$WORK/out"; then fail "b-i1: its own hex 1404 is listed"; else pass "b-i1: own hex not listed"; fi
# Sorted by cost, then label.
tail -n +2 "$WORK/out" | awk '{print $3, $1}' >"$WORK/keys"
if sort -k1,1n -k2,2 -c "$WORK/keys" 2>/dev/null; then
  pass "b-i1: sorted by cost then label"
else
  fail "b-i1: not sorted by cost then label"
fi
# Every cost is within the 3 movement points and every path ends at its hex.
if tail -n +2 "$WORK/out" | awk '$3 > 3 || $NF != $1 { bad = 1 } END { exit bad }'; then
  pass "b-i1: costs within 3 points, paths end at their hex"
else
  fail "b-i1: a cost above 3 or a path not ending at its hex"
fi

# --- occupied hexes never appear --------------------------------------------------------------
starts=$(grep -o 'start_hex: "[0-9]*"' "$SCEN" | grep -o '[0-9][0-9]*')
if [ -z "$starts" ]; then fail "no start_hex found in $SCEN"; fi
for unit in b-lc1 b-i1 b-hc1 o-lc1 o-i1; do
  run "reach $unit" 0 "$PBEM" reach --scenario "$SCEN" "$unit"
  bad=""
  for h in $starts; do
    if grep -q "^$h " "$WORK/out"; then bad="$bad $h"; fi
  done
  if [ -z "$bad" ]; then pass "$unit: no occupied hex listed"; else fail "$unit: occupied hexes listed:$bad"; fi
done
run "reach b-lc1" 0 "$PBEM" reach --scenario "$SCEN" b-lc1
has_line "b-lc1 neighbour" "2104 cost 1 path 2104"
for h in 2203 2303; do
  if grep -q "^$h " "$WORK/out"; then fail "b-lc1: occupied $h listed"; else pass "b-lc1: occupied $h not listed"; fi
done

# --- errors -----------------------------------------------------------------------------------
run "unknown unit" 1 "$PBEM" reach --scenario "$SCEN" no-such-unit
if grep -qF "no-such-unit" "$WORK/err"; then pass "unknown unit: named"; else fail "unknown unit: message does not name it"; fi
run "no unit" 2 "$PBEM" reach --scenario "$SCEN"
run "no scenario" 2 "$PBEM" reach b-i1

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all reach checks passed"
