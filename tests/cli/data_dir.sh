#!/bin/bash
# Where `pbem` finds its data (rulesets, scenarios): $PBEM_DATA_DIR, else <its directory>/../share/pbem
# when that holds engine/scenarios (an installed pbem, as pbemd), else the source tree it was
# built from. A copy of the binary in a prefix whose share/pbem holds a scenario with another
# title tells which one `pbem demo` read (seen failing before the fix: the source tree's title).
# Usage: data_dir.sh PBEM SOURCE_DIR
set -euo pipefail
PBEM=${1:?usage: data_dir.sh PBEM SOURCE_DIR}
SRC=${2:?usage: data_dir.sh PBEM SOURCE_DIR}
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d /tmp/pbem-data-dir-XXXXXX)
trap 'rm -rf "$work"' EXIT

prefix=$work/prefix
mkdir -p "$prefix/bin" "$prefix/share/pbem/engine" "$prefix/share/pbem/templates" "$work/alone/bin"
cp "$PBEM" "$prefix/bin/pbem"
cp "$PBEM" "$work/alone/bin/pbem"
cp -r "$SRC/engine/rulesets" "$SRC/engine/scenarios" "$prefix/share/pbem/engine/"
cp -r "$SRC/templates/mail" "$prefix/share/pbem/templates/"
sed -i 's/^title: "Le Bois de la Morne"$/title: "Installed copy"/' \
  "$prefix/share/pbem/engine/scenarios/bois-de-la-morne.textproto"
grep -q '^title: "Installed copy"$' "$prefix/share/pbem/engine/scenarios/bois-de-la-morne.textproto" ||
  fail "the copied scenario's title was not changed"

echo "check: an installed pbem reads <prefix>/share/pbem"
out=$(env -u PBEM_DATA_DIR "$prefix/bin/pbem" demo) || fail "pbem demo failed: $out"
grep -q "Installed copy" <<<"$out" || fail "the installed pbem did not read its share/pbem: $out"

echo "check: \$PBEM_DATA_DIR comes first"
out=$(PBEM_DATA_DIR=$SRC "$prefix/bin/pbem" demo) || fail "pbem demo failed: $out"
grep -q "Le Bois de la Morne" <<<"$out" || fail "PBEM_DATA_DIR was not read first: $out"

echo "check: without share/pbem, the source tree"
out=$(env -u PBEM_DATA_DIR "$work/alone/bin/pbem" demo) || fail "pbem demo failed: $out"
grep -q "Le Bois de la Morne" <<<"$out" || fail "the source tree was not read: $out"
grep -q "share/pbem" <("$prefix/bin/pbem" --help) || fail "--help does not name share/pbem"
echo "ok"
