#!/bin/bash
# Starts the real pbemd on a free loopback port with a temporary data directory, polls
# GET /healthz until it answers 200 (at most ~10 s), sends SIGTERM, and checks that pbemd exits
# with status 0 and the port is closed. Also checks --help, a refused bad configuration and
# that a second pbemd cannot share the port.
# Usage: pbemd_start_stop.sh PATH_TO_PBEMD   (ctest passes $<TARGET_FILE:pbemd>)
set -euo pipefail

PBEMD=${1:?usage: pbemd_start_stop.sh PATH_TO_PBEMD}
tmp=$(mktemp -d)
pid=""
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  if [[ -f $tmp/pbemd.log ]]; then
    echo "--- pbemd output:" >&2
    cat "$tmp/pbemd.log" >&2
  fi
  exit 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 12000))
    if ! port_open "$port"; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

echo "check: --help exits 0 and lists the options"
"$PBEMD" --help >"$tmp/help.txt" 2>&1 || fail "--help exited with $?"
grep -q -- "--config" "$tmp/help.txt" || fail "--help does not mention --config"

echo "check: a bad port is refused with an error naming the key"
rc=0
"$PBEMD" -Dpbemd.data_dir="$tmp/unused" -Dpbemd.http.port=70000 >"$tmp/pbemd.log" 2>&1 || rc=$?
[[ $rc -ne 0 ]] || fail "pbemd accepted pbemd.http.port=70000"
grep -qF 'pbemd.http.port: \"70000\" is not a valid TCP port' "$tmp/pbemd.log" ||
  fail "the error does not name pbemd.http.port"

cat >"$tmp/pbemd.properties" <<EOF
pbemd.data_dir = $tmp/data
pbemd.http.address = 127.0.0.1
EOF

ready=""
for attempt in 1 2 3 4 5; do
  port=$(pick_free_port) || fail "no free loopback port found"
  echo "start: pbemd on 127.0.0.1:$port (attempt $attempt)"
  "$PBEMD" --config="$tmp/pbemd.properties" -Dpbemd.http.port="$port" >"$tmp/pbemd.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do  # up to 60 s: a loaded machine starts slowly
    if ! kill -0 "$pid" 2>/dev/null; then
      rc=0
      wait "$pid" || rc=$?
      pid=""
      if grep -q "event=startup_failed" "$tmp/pbemd.log" && grep -qi "in use" "$tmp/pbemd.log"; then
        echo "port $port was taken meanwhile; trying another"
        break
      fi
      fail "pbemd exited with $rc before /healthz answered"
    fi
    code=$(curl -s -o "$tmp/body" -w '%{http_code}' --max-time 2 \
      "http://127.0.0.1:$port/healthz" || true)
    if [[ $code == 200 ]]; then
      ready=yes
      break
    fi
    sleep 0.1
  done
  [[ -n $ready || -z $pid ]] || fail "/healthz did not answer 200 within ~10 s"
  [[ -z $ready ]] || break
done
[[ -n $ready ]] || fail "pbemd never started"

echo "check: /healthz body, a JSON 404, the data directory"
[[ $(cat "$tmp/body") == '{"database":"up","status":"ok"}' ]] || fail "unexpected /healthz body: $(cat "$tmp/body")"
code=$(curl -s -o "$tmp/body404" -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/nope" || true)
[[ $code == 404 ]] || fail "GET /nope answered $code, expected 404"
grep -q '"code":"not_found"' "$tmp/body404" || fail "unexpected 404 body: $(cat "$tmp/body404")"
[[ -f $tmp/data/pbem.sqlite ]] || fail "no database in the data directory"
[[ -d $tmp/data/outbox ]] || fail "no outbox directory"
grep -q "event=listening address=127.0.0.1 port=$port" "$tmp/pbemd.log" ||
  fail "no event=listening log line"

echo "check: a second pbemd on the same port fails instead of sharing it"
rc=0
timeout 60 "$PBEMD" -Dpbemd.data_dir="$tmp/data2" -Dpbemd.http.port="$port" \
  >"$tmp/second.log" 2>&1 || rc=$?
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "a second pbemd on port $port exited with $rc"
grep -q "event=startup_failed" "$tmp/second.log" || fail "second pbemd: $(cat "$tmp/second.log")"

echo "stop: SIGTERM to pid $pid"
kill -TERM "$pid"
for _ in $(seq 1 600); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "pbemd still running 60 s after SIGTERM"
rc=0
wait "$pid" || rc=$?
pid=""
[[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM, expected 0"
port_open "$port" && fail "port $port still open after pbemd exited"
grep -q "event=stopped" "$tmp/pbemd.log" || fail "no event=stopped log line"

echo "PASS: pbemd started, answered /healthz, stopped with status 0 and closed port $port"
