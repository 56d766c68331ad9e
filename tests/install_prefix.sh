#!/usr/bin/env bash
# `cmake --install BUILD --prefix TMP`: the engine in games/, the tools in bin/, the nets and books that are
# not built in in share/jiangjun, the manual page (it must render without warnings where groff is
# installed) and README.md; then a dialog with the installed engine (tests/installed_dialog.sh).
# usage: tests/install_prefix.sh BUILD_DIR PREFIX VERSION
set -euo pipefail
build=$1 prefix=$2 version=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" > /dev/null
for f in games/jiangjun bin/xqmatch bin/xqgen bin/xqtrain bin/xqbook bin/xqtune share/jiangjun/net1.nnue \
         share/man/man6/jiangjun.6 share/doc/jiangjun/README.md; do
    [ -e "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
# the built-in net and book are not installed again
[ ! -e "$prefix/share/jiangjun/default.nnue" ] && [ ! -e "$prefix/share/jiangjun/default.xqb" ] \
    || { echo "an embedded file was installed"; ls "$prefix/share/jiangjun"; exit 1; }
grep -q "^.TH JIANGJUN 6 .*Jiangjun $version" "$prefix/share/man/man6/jiangjun.6"
if command -v groff > /dev/null; then
    warnings=$(groff -man -Tutf8 -ww -z "$prefix/share/man/man6/jiangjun.6" 2>&1)
    [ -z "$warnings" ] || { echo "groff: $warnings"; exit 1; }
fi
"$here/installed_dialog.sh" "$prefix/games/jiangjun" "$version"
rm -rf "$prefix"
echo "install OK"
