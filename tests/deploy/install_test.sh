#!/bin/bash
# The installed pbemd runs on its own: `cmake --install` into a prefix under /tmp, then, in a
# mount namespace where an empty directory hides the source and build trees, pbemd is started
# from the prefix with the systemd unit's Environment= lines and working directory (each
# /usr/local of deploy/pbemd.service read as the prefix) and the installed sample
# configuration. A game is created over HTTP, both sides submit the bundled orders read from
# the prefix, the turns resolve and the results mails land in the file outbox; the archive
# page (archive templates) and a league's standings page (league templates) are served. With
# the trees hidden, whatever pbemd read came from the prefix; its config log line must name
# the prefix's scenarios, rulesets and mail templates.
# Usage: install_test.sh SOURCE_DIR BUILD_DIR   (needs root: unshare -m and mount --bind)
set -euo pipefail
SRC=$(cd "${1:?usage: install_test.sh SOURCE_DIR BUILD_DIR}" && pwd -P)
BUILD=$(cd "${2:?usage: install_test.sh SOURCE_DIR BUILD_DIR}" && pwd -P)
source "$SRC/tests/support/ports.sh"
fail() { echo "install_test: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || fail "needs root (unshare -m and mount --bind hide the trees)"

TMP=$(mktemp -d /tmp/pbem-install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
[[ $TMP != "$SRC"/* && $TMP != "$BUILD"/* ]] || fail "$TMP lies inside a tree to hide"
PREFIX=$TMP/prefix
cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.log" || {
  cat "$TMP/install.log" >&2
  fail "cmake --install failed"
}
UNIT=$PREFIX/share/pbem/deploy/pbemd.service
[[ -f $UNIT ]] || fail "the unit is not installed ($UNIT)"

# The unit's settings, /usr/local read as the prefix and /etc/pbem and /var/lib/pbem as
# directories of $TMP (the unit's ConfigurationDirectory and StateDirectory).
unit_value() { sed -n "s/^$1=//p" "$UNIT"; }
relocate() { sed -e "s#/usr/local#$PREFIX#g" -e "s#/etc/pbem#$TMP/etc#g" -e "s#/var/lib/pbem#$TMP/state#g"; }
mapfile -t ENVIRONMENT < <(unit_value Environment | relocate)
read -r -a EXEC <<<"$(unit_value ExecStart | relocate)"
WORKDIR=$(unit_value WorkingDirectory | relocate)
((${#ENVIRONMENT[@]} > 0)) || fail "no Environment= line in $UNIT"
[[ ${EXEC[0]} == "$PREFIX/bin/pbemd" ]] || fail "ExecStart runs ${EXEC[0]}, not the installed pbemd"
mkdir -p "$TMP/etc" "$WORKDIR" "$TMP/empty"
install -m 0640 "$PREFIX/share/pbem/deploy/pbemd.properties" "$TMP/etc/pbemd.properties"
cp "$SRC/tests/deploy/installed_pbemd.sh" "$SRC/deploy/game_calls.sh" "$TMP/"

# A sanitizer build (make sanitize) keeps its runtime options; the LSan suppressions file is
# copied out of the source tree, which pbemd will not see.
for var in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
  value=${!var:-}
  [[ -n $value ]] || continue
  if [[ $var == LSAN_OPTIONS && $value =~ suppressions=([^:]*) ]]; then
    cp "${BASH_REMATCH[1]}" "$TMP/lsan.supp"
    value=${value/"${BASH_REMATCH[1]}"/$TMP/lsan.supp}
  fi
  ENVIRONMENT+=("$var=$value")
done

PORT=$(free_port) || fail "no free port"
export SRC BUILD TMP PREFIX WORKDIR PORT
# A new mount namespace, private so the bind mounts stay in it; the build tree first (it may
# lie inside the source tree, which hides it once covered).
# shellcheck disable=SC2016  # expanded by the inner bash
unshare -m --propagation private bash -c '
  set -e
  mount --bind "$TMP/empty" "$BUILD"
  mount --bind "$TMP/empty" "$SRC"
  exec bash "$TMP/installed_pbemd.sh" "$@"' installed_pbemd "${ENVIRONMENT[@]}" -- "${EXEC[@]}"
echo "install_test: ok (installed in $PREFIX, trees hidden, a game played, mails sent)"
