#!/bin/bash
# Installs the Debian 12 packages pbem needs, and only those that are missing.
#
# Usage: deploy/install-deps.sh [GROUP...]     (default: build)
#   toolchain  compilers, CMake and make only (the engine needs nothing else)
#   build   toolchain + the C++ libraries (proto, storage, templates, daemon)
#   mail    Postfix + Dovecot (IMAP, LMTP) for the mail tests; postfix is preseeded to
#           "No configuration" so nothing under /etc is set up and nothing is started
#   bench   build + mail + the load tools of `make bench` (wrk, nginx as the yardstick,
#           python3 driving the mail benchmark, bc)
#   test    build + mail + bench (ctest runs each benchmark script once in a smoke mode)
#           + what the tests need (servers, tools)
#   fuzz    build + what `make fuzz` needs (clang-14's libFuzzer runtime, llvm-symbolizer)
#   demo    build + what `make demo` needs (chromium, for the standings page's screenshots)
#
# Idempotent and non-interactive: a second run installs nothing and runs no `apt-get update`.
# Runs as root; otherwise through sudo when it exists.
set -euo pipefail

TOOLCHAIN_PKGS=(cmake g++ make)

BUILD_PKGS=(
  pkg-config
  libpoco-dev libprotobuf-dev protobuf-compiler libspdlog-dev catch2
  libcurl4-openssl-dev libcairo2-dev libspng-dev libdeflate-dev libisal-dev fonts-dejavu-core
  libpq-dev libssl-dev libsqlite3-dev libbenchmark-dev
  libkainjow-mustache-dev
  clang-14 libclang-rt-14-dev
  # `make demo` (deploy/demo.sh) talks to pbemd's HTTP API with it.
  curl
)

# The mail servers the end-to-end mail tests start on loopback (tests/mail/mailrig.sh). Each
# test writes its own configuration under a scratch directory; /etc is never used.
# openssl makes the rig's throw-away CA and server certificate (STARTTLS and SMTPS tests).
MAIL_PKGS=(postfix dovecot-imapd dovecot-lmtpd openssl)

# tests/daemon/bench_http.sh (wrk against pbemd, beside nginx serving a static file) and
# tests/mail/bench_mail.sh (python3's smtplib/imaplib as the players' mail clients); bc does
# the arithmetic of both.
BENCH_PKGS=(wrk nginx python3 bc)

# `make fuzz` (tests/fuzz): -fsanitize=fuzzer links clang-14's libclang_rt.fuzzer, which is in
# libclang-rt-14-dev with the sanitizer runtimes (libfuzzer-14-dev, a standalone libFuzzer.a,
# is not needed); llvm-14 brings llvm-symbolizer, which names functions and lines in reports.
FUZZ_PKGS=(clang-14 libclang-rt-14-dev llvm-14)

# `make demo` (deploy/demo.sh) screenshots the league standings page in headless Chromium.
DEMO_PKGS=(chromium)

# Packages the tests need on top of BUILD_PKGS and MAIL_PKGS. Later issues add theirs here
# (the page screenshots: chromium).
TEST_PKGS=(
  postgresql-15
  curl
  # The archive page's browser test: headless Chromium driven over WebDriver (chromedriver).
  chromium chromium-driver
  # deploy/pbemd.service checked by systemd-analyze (verify, security --offline).
  systemd
  # tests/daemon/acknowledged_race.sh reads what pbemd stored in its SQLite file.
  sqlite3
)

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

is_installed() {
  [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true) == "install ok installed" ]]
}

groups=("$@")
if [[ ${#groups[@]} -eq 0 ]]; then
  groups=(build)
fi

# Expand the groups (test implies build), keeping each group once and in order.
expanded=()
for group in "${groups[@]}"; do
  case "$group" in
    toolchain) wanted=(toolchain) ;;
    build) wanted=(toolchain build) ;;
    mail) wanted=(mail) ;;
    bench) wanted=(toolchain build mail bench) ;;
    test) wanted=(toolchain build mail bench test) ;;
    fuzz) wanted=(toolchain build fuzz) ;;
    demo) wanted=(toolchain build demo) ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "install-deps.sh: unknown group '$group'" >&2
      usage >&2
      exit 2
      ;;
  esac
  for w in "${wanted[@]}"; do
    [[ " ${expanded[*]} " == *" $w "* ]] || expanded+=("$w")
  done
done

missing_all=()
for group in "${expanded[@]}"; do
  case "$group" in
    toolchain) pkgs=("${TOOLCHAIN_PKGS[@]}") ;;
    build) pkgs=("${BUILD_PKGS[@]}") ;;
    mail) pkgs=("${MAIL_PKGS[@]}") ;;
    bench) pkgs=("${BENCH_PKGS[@]}") ;;
    test) pkgs=("${TEST_PKGS[@]}") ;;
    fuzz) pkgs=("${FUZZ_PKGS[@]}") ;;
    demo) pkgs=("${DEMO_PKGS[@]}") ;;
  esac
  missing=()
  for pkg in "${pkgs[@]}"; do
    if ! is_installed "$pkg" && [[ " ${missing_all[*]} " != *" $pkg "* ]]; then
      missing+=("$pkg")
    fi
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-deps: $group: all present"
  else
    echo "install-deps: $group: installing ${missing[*]}"
    missing_all+=("${missing[@]}")
  fi
done

if [[ ${#missing_all[@]} -eq 0 ]]; then
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=(env DEBIAN_FRONTEND=noninteractive)
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo env DEBIAN_FRONTEND=noninteractive)
else
  echo "install-deps.sh: missing packages (${missing_all[*]}) and neither root nor sudo" >&2
  exit 1
fi

# Postfix asks how to configure itself: answer "No configuration" (no /etc/postfix/main.cf,
# nothing listening) before it is installed.
if [[ " ${missing_all[*]} " == *" postfix "* ]]; then
  printf '%s\n' "postfix postfix/main_mailer_type select No configuration" \
    "postfix postfix/mailname string localhost" | "${as_root[@]}" debconf-set-selections
fi

# nginx is only the benchmarks' yardstick (bench_http.sh starts its own on a loopback port):
# keep its package from starting the system nginx on port 80, which fails the install when
# that port is taken. A policy-rc.d of our own, only while apt runs, and only if none exists.
policy=/usr/sbin/policy-rc.d
if [[ " ${missing_all[*]} " == *" nginx "* && ! -e $policy ]]; then
  printf '%s\n' '#!/bin/sh' '# pbem deploy/install-deps.sh: no nginx start while installing' \
    '[ "$1" = nginx ] && exit 101' 'exit 0' | "${as_root[@]}" tee "$policy" >/dev/null
  "${as_root[@]}" chmod 755 "$policy"
  trap '"${as_root[@]}" rm -f "$policy"' EXIT
fi

# Wait for a concurrent apt/dpkg run instead of failing on its lock.
apt_opts=(-o DPkg::Lock::Timeout=600 -o APT::Get::Assume-Yes=true)
"${as_root[@]}" apt-get "${apt_opts[@]}" update -qq
"${as_root[@]}" apt-get "${apt_opts[@]}" install -y -q --no-install-recommends "${missing_all[@]}"

still_missing=()
for pkg in "${missing_all[@]}"; do
  is_installed "$pkg" || still_missing+=("$pkg")
done
if [[ ${#still_missing[@]} -ne 0 ]]; then
  echo "install-deps.sh: still missing after apt-get install: ${still_missing[*]}" >&2
  exit 1
fi
echo "install-deps: done"
