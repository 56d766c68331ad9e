#!/usr/bin/env bash
# `cmake --install BUILD --prefix TMP`: the engine in games/, the tools in bin/, the nets and books that are
# not built in in share/jiangjun, the manual page (it must render without warnings where groff is
# installed) and README.md; then a dialog with the installed engine (tests/installed_dialog.sh), and the
# starter tablebases in share/jiangjun/tb found by tb probe and by egtbpaths tb.
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
# the starter tablebases (built unless XQ_TB_STARTER is off): installed in share/jiangjun/tb, where tb probe
# looks without -dir and where UCCI egtbpaths tb finds them, run from a folder without tables
if [ -d "$build/tb" ]; then
    [ -e "$prefix/share/jiangjun/tb/KR-KAA.jjtb" ] || { echo "not installed: share/jiangjun/tb"; exit 1; }
    work=$(mktemp -d)
    probe=$(cd "$work" && "$prefix/games/jiangjun" tb probe "4k4/9/9/9/9/9/9/9/9/R2K5 w")
    [ "$probe" = "wdl win dtm 3" ] || { echo "tb probe from the install: $probe"; exit 1; }
    dialog=$(cd "$work" && printf 'ucci\nsetoption egtbpaths tb\nisready\nquit\n' | timeout 60 "$prefix/games/jiangjun")
    echo "$dialog" | grep -q "^info string tablebases: 24 loaded from" \
        || { echo "egtbpaths tb did not find the installed tables: $dialog"; exit 1; }
    rm -rf "$work"
fi
rm -rf "$prefix"
echo "install OK"
