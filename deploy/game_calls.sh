# shellcheck shell=bash
# Sourced by deploy/demo.sh and tests/deploy/installed_pbemd.sh: a game of the bundled
# scenario played over pbemd's HTTP API. Needs API (http://127.0.0.1:PORT) and a function
# fail MESSAGE (prints and exits).
#   call METHOD PATH TOKEN [CONTENT_TYPE BODY_FILE]  prints the body, then the HTTP status
#                                                    on a line of its own (no TOKEN: no header)
#   wait_turns N         waits until game demo has N turns committed (20 s, else fail)
#   write_demo_game FILE writes the POST /v1/games body of game demo of bois-de-la-morne
#                        (blue reads English, orange French; tokens SIDE-secret-1)
call() {
  local args=(-sS --max-time 20 -X "$1")
  [[ -n $3 ]] && args+=(-H "Authorization: Bearer $3")
  [[ $# -ge 5 ]] && args+=(-H "Content-Type: $4" --data-binary "@$5")
  curl "${args[@]}" -w '\n%{http_code}' "$API$2"
}
turns_committed() {
  curl -sS --max-time 5 "$API/v1/games/demo" | grep -o '"turnsCommitted" *: *[0-9]*' | grep -o '[0-9]*$'
}
wait_turns() {
  for _ in $(seq 1 200); do
    [[ $(turns_committed) -ge $1 ]] && return 0
    sleep 0.1
  done
  fail "turn $1 was not resolved within 20 s"
}
write_demo_game() {
  cat >"$1" <<'JSON'
{"id": "demo", "scenario": "bois-de-la-morne",
 "players": [
   {"side": "blue", "address": "blue@players.example", "token": "blue-secret-1"},
   {"side": "orange", "address": "orange@players.example", "token": "orange-secret-1",
    "language": "fr"}]}
JSON
}
