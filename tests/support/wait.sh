# Sourced by the test scripts that start daemons. A daemon that forks into the background
# (Dovecot, nginx) returns to the shell BEFORE its pid file is written, and may already be
# listening by then: reading the pid file right after the start command, or as soon as the port
# answers, is a race a loaded machine loses. These wait for the positive signal instead, up to
# a bound (never a sleep that hopes it was long enough).
#   wait_pidfile FILE [SECONDS]   waits until FILE holds the pid of a running process and prints
#                                 it; returns 1 after SECONDS (default 60) without one.
#   wait_port PORT [SECONDS]      waits until something listens on 127.0.0.1:PORT; returns 1
#                                 after SECONDS (default 60).
#   wait_child PID [SECONDS]      waits until process PID has a child (e.g. nginx's worker) and
#                                 prints the first one; returns 1 after SECONDS (default 60).
wait_pidfile() {
  local file=$1 tries=$((${2:-60} * 20)) pid
  for _ in $(seq 1 "$tries"); do
    pid=$(tr -d ' \n' <"$file" 2>/dev/null || true)
    if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
      echo "$pid"
      return 0
    fi
    sleep 0.05
  done
  echo "wait_pidfile: no running process in $file after ${2:-60} s" >&2
  return 1
}
wait_port() {
  local tries=$((${2:-60} * 20))
  for _ in $(seq 1 "$tries"); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.05
  done
  echo "wait_port: nothing listens on 127.0.0.1:$1 after ${2:-60} s" >&2
  return 1
}
wait_child() {
  local parent=$1 tries=$((${2:-60} * 20)) child
  for _ in $(seq 1 "$tries"); do
    child=$(pgrep -P "$parent" | head -n 1 || true)
    [[ -n $child ]] && { echo "$child"; return 0; }
    kill -0 "$parent" 2>/dev/null || break
    sleep 0.05
  done
  echo "wait_child: process $parent has no child" >&2
  return 1
}
