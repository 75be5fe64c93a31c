# Sourced by the test and benchmark scripts that start servers on loopback.
#   port_open PORT   true when something listens on 127.0.0.1:PORT
#   free_port        prints a port from 20000-59999 that nothing listens on (100 tries)
#   free_ports N     prints N distinct such ports on one line (free_port in $(...) cannot
#                    remember what it handed out, so two calls may give the same port)
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p
  for _ in $(seq 1 100); do
    p=$((20000 + RANDOM % 40000))
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
