#!/bin/bash
# archive_browser.sh PBEM MAKE_ARCHIVE_FIXTURE SOURCE_DIR
# Stores a whole bot game of the bundled scenario in SQLite, writes its archive with
# `pbem archive`, and walks it in headless Chromium (browser_walk.py). Needs chromium and
# chromium-driver (deploy/install-deps.sh test).
set -euo pipefail
pbem=$1
fixture=$2
source_dir=$3

for tool in chromium chromedriver; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "archive_browser: $tool is missing: run deploy/install-deps.sh test" >&2
    exit 1
  fi
done

work=$(mktemp -d /tmp/pbem-archive-browser-XXXXXX)
trap 'rm -rf "$work"' EXIT

"$fixture" "$source_dir" "$work/db" morne-1 100 2026
PBEM_DATA_DIR=$source_dir "$pbem" archive morne-1 -o "$work/site" --db "sqlite:$work/db"

# Bad input: a clear error, exit 1, nothing written and no database created.
expect_refusal() {
  local want=$1
  shift
  local rc=0
  err=$(PBEM_DATA_DIR=$source_dir "$pbem" archive "$@" 2>&1 >/dev/null) || rc=$?
  if [[ $rc -ne 1 || $err != *"$want"* ]]; then
    echo "archive_browser: pbem archive $*: expected exit 1 and '$want', got $rc: $err" >&2
    exit 1
  fi
}
expect_refusal "game 'nosuch': NOT_FOUND" nosuch -o "$work/none" --db "sqlite:$work/db"
expect_refusal "no database at $work/nodb/pbem.sqlite" morne-1 -o "$work/none" --db "sqlite:$work/nodb"
if [[ -e $work/none || -e $work/nodb ]]; then
  echo "archive_browser: a refused pbem archive left files behind" >&2
  exit 1
fi
# Debian's python3 (the stdlib is all the walk needs).
/usr/bin/python3 "$source_dir/tests/archive/browser_walk.py" "$work/site" "$work/screenshot.png"
