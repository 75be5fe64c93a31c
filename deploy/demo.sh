#!/bin/bash
# The main job on embedded defaults (what `make demo` runs): pbemd with SQLite and the file
# outbox, a game of the bundled scenario created over HTTP, both sides' bundled orders
# submitted over HTTP, each player-turn resolved by pbemd's scheduler, and the welcome mails
# (one per player, queued with the game) and the results mails left as .eml files in the
# outbox directory. Then a club league: six players join over HTTP (accented and non-Latin
# names, two reading French), round 1 starts (each player's games, tokens, deadline and links
# by mail), the organiser records its results with `pbem league`, and the standings page is
# screenshotted in headless Chromium in English and French (DIR/standings-en.png,
# DIR/standings-fr.png). Everything lives under DIR (emptied first);
# pbemd listens on a free loopback port and is stopped with SIGTERM at the end.
# Usage: deploy/demo.sh PBEMD [DIR]   (DIR defaults to ./pbem-demo; pbem beside PBEMD)
set -euo pipefail
PBEMD=${1:?usage: demo.sh PBEMD [DIR]}
DIR=${2:-pbem-demo}
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
rm -rf "${DIR:?}/data" "$DIR/outbox" "$DIR/maps" "$DIR/pbemd.log" "$DIR"/standings-*.{html,png} \
  "$DIR/chromium"
PBEM=$(dirname "$PBEMD")/pbem
command -v chromium >/dev/null || {
  echo "demo: chromium is missing (deploy/install-deps.sh demo installs it)" >&2
  exit 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT=""
for _ in $(seq 1 100); do
  p=$((20000 + RANDOM % 12000))
  port_open "$p" || { PORT=$p; break; }
done
[[ -n $PORT ]] || { echo "demo: no free port" >&2; exit 1; }
API=http://127.0.0.1:$PORT
ADMIN=demo-admin-token
# Where players mail their orders: pbemd and the league commands must give the same address.
REFEREE=referee@pbem.example

"$PBEMD" -Dpbemd.data_dir="$DIR/data" -Dpbemd.outbox_dir="$DIR/outbox" \
  -Dpbemd.http.port="$PORT" -Dpbemd.http.admin_token="$ADMIN" \
  -Dpbemd.mail.from="$REFEREE" -Dpbemd.turns.poll_ms=100 \
  -Dpbemd.http.public_url="http://127.0.0.1:$PORT" \
  -Dpbemd.mail.out.poll_ms=100 >"$DIR/pbemd.log" 2>&1 </dev/null &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true' EXIT
fail() { echo "demo: $*" >&2; tail -20 "$DIR/pbemd.log" >&2; exit 1; }
for _ in $(seq 1 100); do
  curl -sf "$API/healthz" >/dev/null 2>&1 && break
  kill -0 $pid 2>/dev/null || fail "pbemd exited"
  sleep 0.1
done
curl -sf "$API/healthz" >/dev/null || fail "pbemd does not answer on $API"
echo "pbemd runs on $API (SQLite in $DIR/data, file outbox in $DIR/outbox)"

# shellcheck source=deploy/game_calls.sh
source "$SRC/deploy/game_calls.sh"
check() {  # check WHAT REPLY: the reply's status line is 2xx
  local status=${2##*$'\n'}
  [[ $status == 2* ]] || fail "$1: HTTP $status: ${2%$'\n'*}"
  echo "${2%$'\n'*}"
}
write_demo_game "$DIR/game.json"
echo
echo "1. create game demo of bois-de-la-morne (blue reads English, orange French):"
check "creating the game" "$(call POST /v1/games "$ADMIN" application/json "$DIR/game.json")"

submit() {  # submit STEP SIDE TURNS_AFTER: the side's bundled orders over HTTP, then its turn
  local orders=engine/scenarios/bois-de-la-morne.orders-$2.textproto
  echo
  echo "$1. $2 submits its bundled orders ($orders):"
  check "$2's orders" "$(call POST /v1/games/demo/orders "$2-secret-1" text/plain \
    "$SRC/$orders")" | cut -c1-300
  wait_turns "$3"
  echo "   -> $2's player-turn resolved"
}
submit 2 blue 1
submit 3 orange 2

# Two welcome mails and four results mails (two player-turns, two players), sent by the
# outbox to .eml files.
for _ in $(seq 1 200); do
  [[ $(find "$DIR/outbox" -name '*.eml' 2>/dev/null | wc -l) -ge 6 ]] && break
  sleep 0.1
done

echo
echo "4. a club league: six players join over HTTP, round 1 starts (3-day turns):"
ORGANISER=demo-organiser-token
printf '{"id": "club", "name": "Club de la Morne", "organiserToken": "%s",
 "turnTimeoutSeconds": 259200}\n' "$ORGANISER" >"$DIR/league.json"
check "creating the league" "$(call POST /v1/leagues "$ADMIN" application/json "$DIR/league.json")" \
  | cut -c1-120
players=("Hélène Dupré|helene@players.example|fr" "Łukasz Żółć|lukasz@players.example|en"
  "Μαρία Παππά|maria@players.example|en" "Gustave Leroux|gustave@players.example|fr"
  "O'Brien|obrien@players.example|en" "Zoë Martin|zoe@players.example|en")
for p in "${players[@]}"; do
  IFS='|' read -r name address lang <<<"$p"
  printf '{"name": "%s", "email": "%s", "language": "%s"}\n' "$name" "$address" "$lang" \
    >"$DIR/join.json"
  check "$name joining" "$(call POST /v1/leagues/club/players "" application/json "$DIR/join.json")" \
    >/dev/null
  echo "   $name joined ($lang); the confirmation and the league token go by mail"
done
echo '{}' >"$DIR/start.json"
check "starting round 1" \
  "$(call POST /v1/leagues/club/start "$ORGANISER" application/json "$DIR/start.json")" | cut -c1-300
echo
echo "5. the organiser records round 1's results (pbem league result):"
for result in "g1 --winner blue --level major" "g2 --draw" \
  "g3 --winner orange --level total --resigned"; do
  read -r game rest <<<"$result"
  # shellcheck disable=SC2086  # the options are words
  "$PBEM" league result "club-s1-r1-$game" --token "$ORGANISER" $rest --db "sqlite:$DIR/data" \
    --address "$REFEREE" --url "$API" || fail "recording club-s1-r1-$game"
done

echo
echo "6. the standings page in headless Chromium:"
for lang in en fr; do
  curl -sf "$API/v1/leagues/club/standings.html?lang=$lang" -o "$DIR/standings-$lang.html" ||
    fail "GET /v1/leagues/club/standings.html?lang=$lang"
  grep -q "Hélène Dupré" "$DIR/standings-$lang.html" || fail "the $lang page does not name Hélène Dupré"
  chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --user-data-dir="$DIR/chromium" --window-size=1100,1150 \
    --screenshot="$DIR/standings-$lang.png" "$API/v1/leagues/club/standings.html?lang=$lang" \
    >"$DIR/chromium.log" 2>&1 || fail "chromium could not screenshot the $lang page"
  [[ -s $DIR/standings-$lang.png ]] || fail "no screenshot $DIR/standings-$lang.png"
  echo "   $DIR/standings-$lang.png"
done
rm -rf "$DIR/chromium"
kill -TERM $pid
wait $pid || fail "pbemd did not stop cleanly"
trap - EXIT

echo
echo "Welcome mails (side, token, how to play, rules; the first side's orders template) and"
echo "results mails (text, HTML with the turn's action map at the top, the whole map attached;"
echo "the revealed seed and the next commitment; the side to move's orders template):"
# The subject as a mail client shows it (folded lines joined, RFC 2047 words decoded) when
# python3 is there; else as written in the file.
subject_of() {
  if command -v python3 >/dev/null; then
    python3 -c 'import email, email.header, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"))
print("Subject: " + str(email.header.make_header(email.header.decode_header(m["Subject"] or ""))))' "$1"
  else
    grep -m1 '^Subject:' "$1"
  fi
}
subjects=""
for f in "$DIR"/outbox/*.eml; do
  subject=$(subject_of "$f")
  subjects+="$subject"$'\n'
  printf '  %s  %s  %s\n' "$f" "$(grep -m1 '^To:' "$f")" "$subject"
done
[[ $(ls "$DIR"/outbox/*.eml | wc -l) -ge 6 ]] ||
  fail "expected 2 welcome and 4 results mails in $DIR/outbox"
[[ $(grep -c '^Subject: .*Game demo: you play blue' <<<"$subjects") -eq 1 ]] ||
  fail "no welcome mail for blue in $DIR/outbox"
# French puts a no-break space (U+00A0) before the colon (templates/README.md).
grep -q $'^Subject: Partie demo\xc2\xa0: vous jouez le camp orange' <<<"$subjects" ||
  fail "no welcome mail for orange (in French) in $DIR/outbox"
echo "The standings page, as pbemd serves it: $DIR/standings-en.png, $DIR/standings-fr.png"
echo "pbemd's log: $DIR/pbemd.log; the game store: $DIR/data/pbem.sqlite"
