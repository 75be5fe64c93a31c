# Sourced by the test and benchmark scripts that start servers on loopback.
#   port_open PORT   true when something listens on 127.0.0.1:PORT
#   free_port        prints a port from 20000-59999 that nothing listens on (100 tries)
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p
  for _ in $(seq 1 100); do
    p=$((20000 + RANDOM % 40000))
    port_open "$p" || { echo "$p"; return 0; }
  done
  return 1
}
