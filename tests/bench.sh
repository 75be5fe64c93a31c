#!/bin/bash
# `make bench`: every benchmark of the project in one run (benchmarks, not timed tests), on
# loopback only, bounded in count and time (a few minutes):
#   tests/bench.sh BUILD
#   1. the Google Benchmark micro-benchmarks (the `bench` target: engine, maps, store);
#   2. HTTP (tests/daemon/bench_http.sh): each pbemd figure beside the same wrk run against
#      nginx serving a static file just before it, as a ratio;
#   3. mail (tests/mail/bench_mail.sh, as root: Postfix and Dovecot on loopback);
#   4. the scheduler (tests/daemon/scheduler_pass_bench.cc): a pass over 10,000 and 100,000
#      games on a throwaway PostgreSQL server, beside the listing of every game it made before.
# The machine's load average is printed before and after the whole run and before each part
# (the figures of a machine shared with builds are only comparable with their load said), and
# at the end a summary of the figures to quote, each with its yardstick where it has one.
# Each part's full output is shown as it runs; a part that fails fails the run.
set -euo pipefail
BUILD=${1:?usage: tests/bench.sh BUILD}
out=$(mktemp -d /tmp/pbem-bench-XXXXXX)
trap 'rm -rf "$out"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "make bench: $(nproc) cores; load average before: $(load)"
part() {  # part NAME TARGET
  echo "== $1 (load average before: $(load))"
  cmake --build "$BUILD" --target "$2" 2>&1 | tee "$out/$2.txt"
}
part "micro-benchmarks" bench
part "HTTP: pbemd beside nginx" bench_http
part "mail: order mails to results mails" bench_mail
part "scheduler: a pass over 10,000 and 100,000 games on PostgreSQL" bench_scheduler

echo "== summary (yardstick and ratio where there is one; load average = 1-minute figure)"
echo "HTTP: requests/s of pbemd and of nginx (its static file, run just before), ratio; CPU us per request of each, nginx/pbemd; load:"
grep -E '^  pbemd: ' "$out/bench_http.txt" || true
echo "mail:"
grep -E '^  (order mail|last order mail|[0-9]+ order mails)' "$out/bench_mail.txt" || true
echo "scheduler: a pass with a few hundred games due, and idle; the pass before issue 19 (estimated) and the listing of every game (yardstick), as ratios:"
grep -E '^  scheduler pass, ' "$out/bench_scheduler.txt" || true
echo "micro-benchmarks (absolute: no yardstick in the same run):"
grep -E '^BM_(PlayerTurn|DecodeEncode)/' "$out/bench.txt" || true
echo "a player-turn's resolution as a multiple of decoding and encoding its state and orders (the floor):"
awk '$1 ~ /^BM_(PlayerTurn|DecodeEncode)\/units_a_side:[0-9]+$/ {
       split($1, a, ":"); t = $2; if ($3 == "us") t /= 1000; if ($3 == "ns") t /= 1e6
       if ($1 ~ /PlayerTurn/) turn[a[2]] = t; else floor_[a[2]] = t
     }
     END { for (n in turn) if (floor_[n] > 0)
             printf "  %s units a side: %.3f ms / %.3f ms = %.1fx\n", n, turn[n], floor_[n], turn[n] / floor_[n] }' \
  "$out/bench.txt" | sort -n -k1 || true
echo "make bench: load average after: $(load)"
