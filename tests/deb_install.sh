#!/usr/bin/env bash
# The Debian package: builds it with CPack in BUILD_DIR, installs it with `apt-get install ./jiangjun_*.deb`
# (as a user would), checks what the package put where (the engine in /usr/games, the manual page, the
# net in /usr/share/jiangjun), runs the installed engine's UCCI dialog (tests/installed_dialog.sh), then
# removes the package and checks that nothing of it is left. Needs root and apt; .ci/run runs it.
# Refuses (exit 1) when a jiangjun package is installed already: it would be replaced and removed.
# usage: tests/deb_install.sh BUILD_DIR VERSION
set -euo pipefail
build=$1 version=$2
here=$(cd "$(dirname "$0")" && pwd)
export DEBIAN_FRONTEND=noninteractive
[ "$(id -u)" = 0 ] || { echo "deb_install.sh: needs root (apt-get install)"; exit 1; }
if dpkg -s jiangjun > /dev/null 2>&1; then
    echo "deb_install.sh: a jiangjun package is installed already; not touching it"
    exit 1
fi
rm -f "$build"/jiangjun_*.deb
(cd "$build" && cpack -G DEB > /dev/null)
deb=$(realpath "$build"/jiangjun_"$version"_*.deb) # apt takes a file only as a path with a slash
echo "package: $deb ($(stat -c %s "$deb") bytes)"
trap 'apt-get remove -y jiangjun > /dev/null 2>&1 || true' EXIT
apt-get install -y --no-install-recommends "$deb"
[ "$(dpkg-query -W -f '${Version}' jiangjun)" = "$version" ]
for f in /usr/games/jiangjun /usr/bin/xqmatch /usr/share/man/man6/jiangjun.6 /usr/share/jiangjun/net1.nnue \
         /usr/share/doc/jiangjun/README.md; do
    [ -e "$f" ] || { echo "not installed: $f"; exit 1; }
done
if command -v man > /dev/null; then
    [ "$(man -w jiangjun)" = /usr/share/man/man6/jiangjun.6 ] || { echo "man does not find jiangjun(6)"; exit 1; }
fi
"$here/installed_dialog.sh" /usr/games/jiangjun "$version"
apt-get remove -y jiangjun
trap - EXIT
! dpkg -s jiangjun > /dev/null 2>&1 || { echo "still installed"; exit 1; }
[ ! -e /usr/games/jiangjun ] && [ ! -e /usr/share/jiangjun/net1.nnue ] || { echo "files left after remove"; exit 1; }
echo "deb OK"
