#!/bin/bash
# Not a test (not in ctest): the HTTP throughput benchmark of issue 7, run by hand.
#   tests/daemon/bench_http.sh build/bin/pbemd [SECONDS]
# Starts pbemd (SQLite, temporary data dir) and nginx serving a small static file, both on
# loopback, then runs wrk (1 thread, 10 connections) against: nginx's static file, GET
# /healthz, GET /v1/games/demo (JSON state), POST /v1/games/demo/orders/check (validation,
# nothing stored) and POST /v1/games/demo/orders (the same orders each time: stored once,
# then answered as duplicates). Prints requests/s and the ratio to nginx. Stops both by PID.
# Needs: wrk, nginx (apt-get install wrk nginx).
set -euo pipefail
PBEMD=${1:?usage: bench_http.sh PBEMD [SECONDS]}
SECS=${2:-5}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/pbem-bench-XXXXXX); chmod 755 "$work"
pbemd_pid=""; nginx_pid=""
cleanup() {
  [[ -n $pbemd_pid ]] && kill -TERM "$pbemd_pid" 2>/dev/null || true
  [[ -n $nginx_pid ]] && kill -QUIT "$nginx_pid" 2>/dev/null || true
  sleep 0.5; rm -rf "$work"
}
trap cleanup EXIT
port() { echo $((20000 + RANDOM % 40000)); }
P=$(port); N=$(port)
ADMIN=bench-admin-token-0123456789
"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=$P -Dpbemd.http.admin_token=$ADMIN \
  >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$P/healthz" >/dev/null && break; sleep 0.1; done
curl -sf -X POST "http://127.0.0.1:$P/v1/games" -H "Authorization: Bearer $ADMIN" \
  -H 'Content-Type: application/json' \
  -d '{"id":"demo","scenario":"bois-de-la-morne","players":[{"side":"blue","address":"a@x.test","token":"tok-blue-123"},{"side":"orange","address":"b@x.test","token":"tok-orange-123"}]}' >/dev/null

mkdir -p "$work/nginx/logs" "$work/nginx/html"
head -c 2048 /dev/urandom | base64 > "$work/nginx/html/static.txt"
cat > "$work/nginx/nginx.conf" <<EOF
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
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" </dev/null >/dev/null 2>&1
nginx_pid=$(cat "$work/nginx/nginx.pid")

{ echo 'wrk.method = "POST"'
  echo 'wrk.headers["Authorization"] = "Bearer tok-blue-123"'
  echo 'wrk.headers["Content-Type"] = "text/plain"'
  printf 'wrk.body = [==[%s]==]\n' "$(cat "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto")"
} > "$work/post.lua"

run() {  # run NAME URL [LUA]
  local out rps
  out=$(wrk -t1 -c10 -d"${SECS}s" ${3:+-s "$3"} "$2")
  rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
  grep -q "Non-2xx" <<<"$out" && { echo "$1: non-2xx answers" >&2; echo "$out" >&2; exit 1; }
  echo "$rps"
}
nginx_rps=$(run nginx "http://127.0.0.1:$N/static.txt")
printf '%-34s %10s req/s\n' "nginx static file (2.7 KB)" "$nginx_rps"
for spec in "GET /healthz|http://127.0.0.1:$P/healthz|" \
            "GET /v1/games/demo (JSON state)|http://127.0.0.1:$P/v1/games/demo|" \
            "POST orders/check (text)|http://127.0.0.1:$P/v1/games/demo/orders/check|$work/post.lua" \
            "POST orders (text, duplicates)|http://127.0.0.1:$P/v1/games/demo/orders|$work/post.lua"; do
  IFS='|' read -r name url lua <<<"$spec"
  rps=$(run "$name" "$url" "$lua")
  printf '%-34s %10s req/s   %5.1f%% of nginx\n' "$name" "$rps" "$(echo "100*$rps/$nginx_rps" | bc -l)"
done
