#!/bin/bash
# Compares the mails of two `make demo` runs (build/demo/outbox kept from each), mail by mail,
# after tests/support/normalize_mail.py masked what differs from run to run (dates, tokens,
# the port, MIME boundaries). Exit 0 and "identical" when every mail matches.
# Usage: tests/support/compare_demo_mails.sh OUTBOX_A OUTBOX_B
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 OUTBOX_A OUTBOX_B" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in a b; do
  dir=$1
  [[ $side == b ]] && dir=$2
  mkdir "$work/$side"
  for mail in "$dir"/*.eml; do
    python3 "$here/normalize_mail.py" "$mail" >"$work/$side/$(basename "$mail").txt"
  done
done
if diff -r "$work/a" "$work/b"; then
  echo "identical: $(find "$work/a" -type f | wc -l) mails"
else
  exit 1
fi
