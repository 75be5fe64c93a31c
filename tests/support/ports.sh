# Sourced by the test and benchmark scripts that start servers on loopback.
#   port_open PORT   true when something listens on 127.0.0.1:PORT
#   free_port        prints a port that nothing listens on (100 tries), below the kernel's
#                    ephemeral range (ip_local_port_range, usually from 32768): a port in that
#                    range may be the local end of some client connection or of a TIME_WAIT
#                    socket, and then a server cannot bind it ("Address already in use")
#                    although nothing listens there.
#   free_ports N     prints N distinct such ports on one line (free_port in $(...) cannot
#                    remember what it handed out, so two calls may give the same port)
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
