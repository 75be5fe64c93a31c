# Sourced by the test and benchmark scripts that start servers on loopback.
#   port_open PORT   true when something listens on 127.0.0.1:PORT
#   free_port        prints a port that nothing listens on (100 tries), below the kernel's
#                    ephemeral range (ip_local_port_range, usually from 32768): a port in that
#                    range may be the local end of some client connection or of a TIME_WAIT
#                    socket, and then a server cannot bind it ("Address already in use")
#                    although nothing listens there.
#   free_ports N     prints N distinct such ports on one line (free_port in $(...) cannot
#                    remember what it handed out, so two calls may give the same port)
#   listening_port LOG PID [SEEN]
#                    the port pbemd (process PID, logging to LOG; SEEN: how many listening
#                    lines LOG held before it started, for a log appended to) listens on: start it with
#                    -Dpbemd.http.port=0, so the system picks a port pbemd binds at once (no
#                    race with another process between picking and binding), then read it
#                    from its event=listening line. Waits up to 120 s; fails when PID exits.
# A picked port (free_port) can still be taken by another process before the server binds it:
# pbemd gets port 0 instead; servers that cannot (Postfix, Dovecot) retry on other ports
# (tests/mail/mailrig.sh exits 75 when a port was taken, e2e_common.sh starts it again).
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p low=32768
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
  ((low > 12000)) || low=32768
  for _ in $(seq 1 100); do
    p=$((10000 + RANDOM % (low - 10000)))
    port_open "$p" || { echo "$p"; return 0; }
  done
  return 1
}
free_ports() {
  local ports=() p
  while ((${#ports[@]} < $1)); do
    p=$(free_port) || return 1
    [[ " ${ports[*]} " == *" $p "* ]] || ports+=("$p")
  done
  echo "${ports[*]}"
}
listening_port() {
  local lines
  for _ in $(seq 1 1200); do
    lines=$(grep -o 'event=listening address=[^ ]* port=[0-9]*' "$1" 2>/dev/null) || lines=""
    if (($(grep -c . <<<"$lines") > ${3:-0})); then
      lines=$(tail -n 1 <<<"$lines")
      echo "${lines##*port=}"
      return 0
    fi
    kill -0 "$2" 2>/dev/null || { echo "listening_port: pbemd (pid $2) exited" >&2; return 1; }
    sleep 0.1
  done
  echo "listening_port: pbemd did not listen within 120 s ($1)" >&2
  return 1
}
