#!/usr/bin/env bash
# with_postgres.sh COMMAND [ARGS...]
#
# Runs COMMAND against a throwaway PostgreSQL server: initdb's a cluster in a fresh temp dir,
# starts it on a free loopback port (127.0.0.1 only, Unix socket in the temp dir, trust auth),
# creates the database pbem_test, runs COMMAND with PBEM_TEST_PG set to its connection string,
# then stops the server by its PID and removes the temp dir, also when something fails or the
# script gets SIGINT/SIGTERM/SIGHUP (not SIGKILL: nothing can clean up after that).
# Exits with COMMAND's status; 77 when no PostgreSQL server binaries are installed.
#
# Root cannot run initdb: as root, the server commands run as the user postgres (runuser).
# PGBIN overrides the directory of initdb/pg_ctl/createdb (default: the newest
# /usr/lib/postgresql/*/bin).
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

if [[ -z "${PGBIN:-}" ]]; then
  PGBIN=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
if [[ -z "${PGBIN}" || ! -x "${PGBIN}/initdb" ]]; then
  echo "with_postgres.sh: no PostgreSQL server binaries (initdb) found; set PGBIN or install" \
       "postgresql-15 (deploy/install-deps.sh test)" >&2
  exit 77
fi

as_server_user=()
if [[ $(id -u) -eq 0 ]]; then
  as_server_user=(runuser -u postgres --)
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/pbem-pg-XXXXXX")
data="${scratch}/data"
log="${scratch}/server.log"
if [[ $(id -u) -eq 0 ]]; then
  chown postgres:postgres "${scratch}"
fi

cleanup() {
  local status=$?
  if [[ -f "${data}/postmaster.pid" ]]; then
    local pid
    pid=$(head -n 1 "${data}/postmaster.pid")
    if [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null; then
      kill -INT "${pid}" 2>/dev/null || true  # fast shutdown
      for _ in $(seq 1 100); do
        kill -0 "${pid}" 2>/dev/null || break
        sleep 0.1
      done
      if kill -0 "${pid}" 2>/dev/null; then
        echo "with_postgres.sh: server ${pid} did not stop in 10 s; killing it" >&2
        kill -KILL "${pid}" 2>/dev/null || true
      fi
    fi
  fi
  if [[ ${status} -ne 0 && -f "${log}" ]]; then
    echo "with_postgres.sh: exit ${status}; the server log follows" >&2
    tail -n 30 "${log}" >&2 || true
  fi
  rm -rf "${scratch}"
  exit "${status}"
}
child=""
# On a signal, stop COMMAND (by its PID) and let the EXIT trap stop the server.
on_signal() {
  if [[ -n "${child}" ]]; then kill -TERM "${child}" 2>/dev/null || true; fi
  exit "$1"
}
trap cleanup EXIT
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

"${as_server_user[@]}" "${PGBIN}/initdb" -D "${data}" -U postgres --auth=trust -E UTF8 \
  --locale=C.UTF-8 --no-sync >"${scratch}/initdb.log" 2>&1 \
  || { cat "${scratch}/initdb.log" >&2; exit 1; }

# A free port: one nobody answers on, then the server's own bind decides (retry if taken).
port=""
for _ in $(seq 1 10); do
  candidate=$((20000 + RANDOM % 12000))
  if (exec 3<>"/dev/tcp/127.0.0.1/${candidate}") 2>/dev/null; then
    continue  # something listens there
  fi
  pg_options="-p ${candidate} -c listen_addresses=127.0.0.1 -k ${scratch} -c fsync=off \
-c synchronous_commit=off -c full_page_writes=off"
  if "${as_server_user[@]}" "${PGBIN}/pg_ctl" -D "${data}" -l "${log}" -w -t 30 \
       -o "${pg_options}" start </dev/null >/dev/null; then
    port=${candidate}
    break
  fi
done
if [[ -z "${port}" ]]; then
  echo "with_postgres.sh: could not start a server on a free loopback port" >&2
  exit 1
fi

"${PGBIN}/createdb" -h 127.0.0.1 -p "${port}" -U postgres pbem_test

export PBEM_TEST_PG="host=127.0.0.1 port=${port} user=postgres dbname=pbem_test connect_timeout=5"
# For tests that restart the server under a running pbemd: "$PBEM_TEST_PG_CTL stop" stops it
# (fast shutdown: open connections are cut), "$PBEM_TEST_PG_CTL start" starts it again on the
# same port and data; both wait until done. The EXIT trap stops it in either state.
{
  echo '#!/bin/bash'
  echo 'case "${1:-}" in'
  printf '  stop) exec %s "%s/pg_ctl" -D "%s" -m fast -w -t 30 stop ;;\n' \
    "${as_server_user[*]}" "${PGBIN}" "${data}"
  printf '  start) exec %s "%s/pg_ctl" -D "%s" -l "%s" -w -t 30 -o "%s" start </dev/null ;;\n' \
    "${as_server_user[*]}" "${PGBIN}" "${data}" "${log}" "${pg_options}"
  echo '  *) echo "usage: $0 stop|start" >&2; exit 2 ;;'
  echo 'esac'
} >"${scratch}/pg_ctl.sh"
chmod 755 "${scratch}/pg_ctl.sh"
export PBEM_TEST_PG_CTL="${scratch}/pg_ctl.sh"
echo "with_postgres.sh: PostgreSQL $("${PGBIN}/postgres" --version | awk '{print $3}') on" \
     "127.0.0.1:${port}, PBEM_TEST_PG=\"${PBEM_TEST_PG}\""
# In the background, so that a signal reaches the traps at once, not after COMMAND ends.
"$@" &
child=$!
wait "${child}"
