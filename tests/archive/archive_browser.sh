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
# Debian's python3 (the stdlib is all the walk needs).
/usr/bin/python3 "$source_dir/tests/archive/browser_walk.py" "$work/site" "$work/screenshot.png"
