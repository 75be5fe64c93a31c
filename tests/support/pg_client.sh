# Sourced by the test scripts that run under tests/storage/with_postgres.sh (PBEM_TEST_PG set).
#   sql SQL                           runs SQL on the test database; rows unaligned, fields
#                                     separated by '|', no header
#   wait_for SECONDS WHAT COMMAND...  polls COMMAND every 0.1 s until it succeeds; after
#                                     SECONDS, calls `fail "WHAT: not within SECONDS s"` (the
#                                     sourcing script defines fail, which exits)
PGBIN=${PGBIN:-$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)}
PSQL=("$PGBIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -d "$PBEM_TEST_PG")
sql() { "${PSQL[@]}" -c "$1"; }
wait_for() {
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    ((SECONDS < deadline)) || fail "$what: not within $limit s"
    sleep 0.1
  done
}
