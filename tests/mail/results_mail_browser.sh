#!/bin/bash
# results_mail_browser.sh PBEMD SOURCE_DIR
# What `make demo` does (deploy/demo.sh: pbemd on SQLite and the file outbox, a game of the
# bundled scenario played for two player-turns over HTTP), then its results mails opened in
# headless Chromium (results_mail_browser.py): the action crop at full scale above the text,
# the whole map attached. Needs chromium and chromium-driver (deploy/install-deps.sh test).
set -euo pipefail
pbemd=$1
source_dir=$2
work=$(mktemp -d /tmp/pbem-results-browser-XXXXXX)
trap 'rm -rf "$work"' EXIT
bash "$source_dir/deploy/demo.sh" "$pbemd" "$work/demo" >"$work/demo.log" 2>&1 || {
  cat "$work/demo.log" >&2
  exit 1
}
mkdir -p "$work/pages"
/usr/bin/python3 "$source_dir/tests/mail/results_mail_browser.py" "$work/demo/outbox" "$work/pages"
