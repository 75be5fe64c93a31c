#!/bin/bash
# check_deploy.sh PBEMD SOURCE_DIR
# What can be checked of deploy/ without a running systemd or a container engine:
#  1. deploy/pbemd.service parses: `systemd-analyze verify` on a copy whose ExecStart names
#     the pbemd just built must print nothing (unknown keys and bad values are warnings
#     there, so any output fails); a copy with a misspelt key must be reported (the check
#     can fail).
#  2. its sandbox: `systemd-analyze security --offline` exposure at most 2.0 (of 10).
#  3. deploy/Containerfile: every path it copies from the source tree exists (what it builds
#     in build-release/ aside), and the
#     scripts it runs are there and executable.
# The container image itself is not built here (no container engine or registry offline).
set -euo pipefail
pbemd=$1
source_dir=$2
unit=$source_dir/deploy/pbemd.service
containerfile=$source_dir/deploy/Containerfile

if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "check_deploy: systemd-analyze is missing: run deploy/install-deps.sh test" >&2
  exit 1
fi
work=$(mktemp -d /tmp/pbem-deploy-XXXXXX)
trap 'rm -rf "$work"' EXIT

grep -q '^ExecStart=/usr/local/bin/pbemd ' "$unit" || {
  echo "check_deploy: ExecStart does not start /usr/local/bin/pbemd" >&2
  exit 1
}
sed "s|^ExecStart=/usr/local/bin/pbemd |ExecStart=$pbemd |" "$unit" > "$work/pbemd.service"
if ! out=$(systemd-analyze verify "$work/pbemd.service" 2>&1) || [[ -n $out ]]; then
  echo "check_deploy: systemd-analyze verify pbemd.service:" >&2
  echo "$out" >&2
  exit 1
fi
echo "pbemd.service: verify clean"

mkdir "$work/bad"
sed 's/^ProtectClock=yes/ProtectClok=yes/' "$work/pbemd.service" > "$work/bad/pbemd.service"
bad=$(systemd-analyze verify "$work/bad/pbemd.service" 2>&1 || true)
if [[ $bad != *"Unknown key"* ]]; then
  echo "check_deploy: a misspelt key went unreported: '$bad'" >&2
  exit 1
fi

if ! security=$(systemd-analyze security --offline=true --threshold=20 "$work/pbemd.service" 2>&1); then
  echo "$security" | tail -20 >&2
  echo "check_deploy: the unit's exposure is above 2.0" >&2
  exit 1
fi
echo "pbemd.service: $(echo "$security" | grep -o 'Overall exposure level.*')"

status=0
while read -r src; do
  if [[ ! -e $source_dir/$src ]]; then
    echo "check_deploy: Containerfile copies $src, which does not exist" >&2
    status=1
  fi
done < <(sed -n 's|^COPY --from=build /src/\([^ ]*\) .*|\1|p' "$containerfile" | grep -v '^build-release/')
for script in $(grep -o 'deploy/[a-z-]*\.sh' "$containerfile" | sort -u); do
  if [[ ! -x $source_dir/$script ]]; then
    echo "check_deploy: Containerfile runs $script, which is missing or not executable" >&2
    status=1
  fi
done
copies=$(grep -c '^COPY --from=build /src/' "$containerfile")
if [[ $copies -lt 5 ]]; then
  echo "check_deploy: expected the Containerfile to copy the binaries and data ($copies COPY lines)" >&2
  status=1
fi
[[ $status -eq 0 ]] && echo "Containerfile: $copies copies from the source tree, all present"
exit $status
