#!/bin/bash
# standings_browser.sh PBEM SOURCE_DIR
# A league of six players (accented and non-Latin names among them) run with `pbem league` in
# SQLite: round 1 started, its three results recorded; `pbem league standings --html` writes
# the standings page (and the games' archive pages) in English and in French; headless
# Chromium then loads both pages (standings_browser.py) and checks what a reader sees.
# Needs chromium and chromium-driver (deploy/install-deps.sh test).
set -euo pipefail
pbem=$1
source_dir=$2

for tool in chromium chromedriver; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "standings_browser: $tool is missing: run deploy/install-deps.sh test" >&2
    exit 1
  fi
done

work=$(mktemp -d /tmp/pbem-standings-browser-XXXXXX)
trap 'rm -rf "$work"' EXIT
export PBEM_DATA_DIR=$source_dir
league() { "$pbem" league "$@" --db "sqlite:$work/db" >>"$work/cli.log"; }

names=("Hélène Dupré" "Łukasz Żółć" "李小龍" "O'Brien" "Zoë" "bob")
league create club --token organiser --name "Club de la Morne"
i=0
for name in "${names[@]}"; do
  league add club "$name" --mail "p$i@example.org" --lang "$([[ $i == 0 ]] && echo fr || echo en)"
  i=$((i + 1))
done
league start club --token organiser
league result club-s1-r1-g1 --token organiser --winner blue --level major
league result club-s1-r1-g2 --token organiser --draw
league result club-s1-r1-g3 --token organiser --winner orange --level total --resigned
league standings club --html "$work/site-en" --lang en
league standings club --html "$work/site-fr" --lang fr

/usr/bin/python3 "$source_dir/tests/league/standings_browser.py" "$work/site-en" "$work/site-fr" \
  "$work/shots" "${names[@]}"
