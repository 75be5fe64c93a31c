#!/bin/bash
# The HTTP throughput benchmark of issue 7 (a benchmark, not a timed test).
#   tests/daemon/bench_http.sh PBEMD [SECONDS] [CONNECTIONS]
#   make bench   (runs it with the defaults: 5 s per run, 10 connections)
# Starts pbemd (SQLite, a temporary data directory) and nginx serving a 2.7 KB static file,
# both on loopback, creates game "demo" over the API, then runs wrk (1 thread, CONNECTIONS
# connections, SECONDS each) against, in this order:
#   GET /healthz; GET /v1/games/demo as JSON and as protobuf (state reads, answered from the
#     read cache after the first: daemon/read_cache.h);
#   POST /v1/games/demo/orders/check (parse + token + full validation, nothing stored);
#   POST /v1/games/demo/orders, a distinct body each request (a comment with a counter): every
#     request is parsed, authenticated, validated and stored as a new accepted submission (the
#     game is paused, so the orders are taken but the turn is not resolved);
#   POST /v1/games/demo/orders, the same body each time (stored once, then found a duplicate).
# Each pbemd line is preceded by the same wrk run against nginx's static file: its yardstick,
# measured under the same load a few seconds apart (a machine shared with builds changes its
# load from one minute to the next, so one nginx figure for the whole run would not do).
# Prints requests/s of both and their ratio (the figure to quote), the CPU time each server
# spent per request and their ratio (nginx's over pbemd's: steadier under load), and the
# 1-minute load average after each pair, the machine's load average before and after the whole run, and fails on
# any non-2xx answer or socket error. pbemd and nginx are stopped by PID.
# Needs wrk and nginx: installed here through deploy/install-deps.sh bench when missing.
# With SECONDS=1 it is the smoke run ctest does (bench_http_smoke), so the script cannot rot.
set -euo pipefail
PBEMD=${1:?usage: bench_http.sh PBEMD [SECONDS] [CONNECTIONS]}
SECS=${2:-5}
CONNS=${3:-10}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
  "$SRC/deploy/install-deps.sh" bench
fi

work=$(mktemp -d /tmp/pbem-bench-http-XXXXXX)
chmod 755 "$work"
pbemd_pid=""
nginx_pid=""
cleanup() {
  [[ -n $pbemd_pid ]] && kill -TERM "$pbemd_pid" 2>/dev/null && wait "$pbemd_pid" 2>/dev/null
  [[ -n $nginx_pid ]] && kill -QUIT "$nginx_pid" 2>/dev/null
  sleep 0.3
  [[ -n ${KEEP_WORK:-} ]] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  [[ -f $work/pbemd.log ]] && tail -20 "$work/pbemd.log" >&2
  exit 1
}
. "$SRC/tests/support/ports.sh"  # port_open, free_port
. "$SRC/tests/support/wait.sh"   # wait_pidfile, wait_port, wait_child
read -r P N <<<"$(free_ports 2)"
ADMIN=bench-admin-token-0123456789
"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port="$P" -Dpbemd.http.admin_token=$ADMIN \
  >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
up=""
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$P/healthz" >/dev/null && { up=1; break; }
  kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
  sleep 0.1
done
[[ -n $up ]] || fail "pbemd did not answer /healthz within 60 s"
curl -sf -X POST "http://127.0.0.1:$P/v1/games" -H "Authorization: Bearer $ADMIN" \
  -H 'Content-Type: application/json' \
  -d '{"id":"demo","scenario":"bois-de-la-morne","players":[{"side":"blue","address":"a@x.test","token":"tok-blue-123"},{"side":"orange","address":"b@x.test","token":"tok-orange-123"}]}' \
  >/dev/null || fail "could not create game demo"
# Paused, the game takes orders but its turn is not resolved: every submission of the runs
# below is accepted and stored, none starts a resolution (map, results mails) behind wrk's back.
curl -sf -X POST "http://127.0.0.1:$P/v1/games/demo/pause" -H "Authorization: Bearer $ADMIN" \
  >/dev/null || fail "could not pause game demo"

mkdir -p "$work/nginx/logs" "$work/nginx/html"
head -c 2048 /dev/urandom | base64 >"$work/nginx/html/static.txt"
cat >"$work/nginx/nginx.conf" <<EOF
daemon on;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
worker_processes 1;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $work/nginx/tmp_body;
  proxy_temp_path $work/nginx/tmp_proxy;
  fastcgi_temp_path $work/nginx/tmp_fcgi;
  uwsgi_temp_path $work/nginx/tmp_uwsgi;
  scgi_temp_path $work/nginx/tmp_scgi;
  server { listen 127.0.0.1:$N; root $work/nginx/html; }
}
EOF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" \
  </dev/null >/dev/null 2>&1 || fail "nginx did not start ($(cat "$work/nginx/logs/error.log"))"
# nginx forks into the background: its pid file and its worker come after the command returns.
nginx_pid=$(wait_pidfile "$work/nginx/nginx.pid") || fail "nginx wrote no pid file"
wait_port "$N" || fail "nginx is not listening on 127.0.0.1:$N"

orders=$(cat "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto")
lua_post() {  # lua_post FILE DISTINCT: a wrk script posting blue's orders
  { echo 'wrk.method = "POST"'
    echo 'wrk.headers["Authorization"] = "Bearer tok-blue-123"'
    echo 'wrk.headers["Content-Type"] = "text/plain"'
    printf 'local body = [==[%s]==]\n' "$orders"
    if [[ $2 == distinct ]]; then
      echo 'local n = 0'
      echo 'request = function()'
      echo '  n = n + 1'
      echo '  return wrk.format(nil, nil, nil, body .. "\n# request " .. n .. " " .. math.random(1e9) .. "\n")'
      echo 'end'
    else
      echo 'wrk.body = body'
    fi
  } >"$1"
}
lua_post "$work/post-same.lua" same
lua_post "$work/post-distinct.lua" distinct

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # user + system time of PID
TICK=$(getconf CLK_TCK)
# run PID URL [WRK OPTIONS...]: prints requests/s and the CPU time PID spent per request (us);
# fails on non-2xx answers or socket errors.
run() {
  local pid=$1 url=$2 out rps requests t0
  shift 2
  t0=$(cpu_ticks "$pid")
  # --timeout 10s: on a loaded machine a slow answer (a stored submission waits for SQLite's
  # commit) is slow, not lost; only a connection error or an answer never given fails the run.
  out=$(wrk -t1 -c"$CONNS" -d"${SECS}s" --timeout 10s "$@" "$url") || fail "wrk $url"
  if grep -qE "Non-2xx|Socket errors" <<<"$out"; then
    echo "$out" >&2
    fail "errors answering $url"
  fi
  rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
  requests=$(awk '/ requests in / { print $1 }' <<<"$out")
  [[ -n $rps && -n $requests ]] || fail "no Requests/sec from wrk for $url"
  echo "$rps $(echo "($(cpu_ticks "$pid") - $t0) * 1000000 / $TICK / $requests" | bc -l)"
}

echo "bench_http: wrk -t1 -c$CONNS -d${SECS}s --timeout 10s per run; $(nproc) cores;" \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
nginx_worker=$(wait_child "$nginx_pid") || fail "no nginx worker process"
# Throughput is what the issue's goals are in; CPU per request (the server's own user+system
# time over the run, divided by the requests answered) is the steadier figure on a loaded
# machine, where a one-process nginx gets a smaller share of the cores than pbemd's threads.
printf '  %-42s %9s %9s %7s | %-24s %7s | %s\n' "" "pbemd" "nginx" "ratio" \
  "CPU us/request pbemd nginx" "ratio" "load"
G="http://127.0.0.1:$P/v1/games/demo"
line() {  # line NAME URL [WRK OPTIONS...]: nginx's static file, then URL
  local name=$1 rps nginx_rps cpu nginx_cpu
  shift
  read -r nginx_rps nginx_cpu <<<"$(run "$nginx_worker" "http://127.0.0.1:$N/static.txt")"
  read -r rps cpu <<<"$(run "$pbemd_pid" "$@")"
  printf '  %-42s %9s %9s %6.1f%% | %14.1f %9.1f %6.1f%% | %s\n' "$name" "$rps" "$nginx_rps" \
    "$(echo "100 * $rps / $nginx_rps" | bc -l)" "$cpu" "$nginx_cpu" \
    "$(echo "100 * $nginx_cpu / ($cpu + 0.001)" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
}
line "pbemd: GET /healthz" "http://127.0.0.1:$P/healthz"
line "pbemd: GET game state (JSON)" "$G"
line "pbemd: GET game state (protobuf)" "$G" -H "Accept: application/x-protobuf"
line "pbemd: POST orders/check (text, validated)" "$G/orders/check" -s "$work/post-same.lua"
before=$(curl -sf "http://127.0.0.1:$P/metrics" | awk '/^pbemd_submissions_accepted_total/ { s += $2 } END { print s + 0 }')
line "pbemd: POST orders (text, each one stored)" "$G/orders" -s "$work/post-distinct.lua"
after=$(curl -sf "http://127.0.0.1:$P/metrics" | awk '/^pbemd_submissions_accepted_total/ { s += $2 } END { print s + 0 }')
line "pbemd: POST orders (text, duplicates)" "$G/orders" -s "$work/post-same.lua"
echo "  submissions accepted and stored during the distinct-body run: $((after - before))"
((after > before)) || fail "no submission was stored by the distinct-body run"
echo "bench_http: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
