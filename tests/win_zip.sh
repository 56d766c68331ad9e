#!/usr/bin/env bash
# The Windows zip made by `cpack -G ZIP` in the MinGW build folder: one top folder jiangjun-VERSION-win64
# with jiangjun.exe (a PE32+ executable where `file` is installed), README-Windows.txt (CRLF lines, the
# version filled in, the GUIs it explains) and README.md, and nothing that the exe embeds.
# usage: tests/win_zip.sh BUILD_WIN_DIR
set -euo pipefail
build=$1
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
zip="$build/jiangjun-$version-win64.zip"
top="jiangjun-$version-win64"
[ -f "$zip" ] || { echo "no $zip"; exit 1; }
names=$(unzip -Z1 "$zip")
echo "$names"
for f in jiangjun.exe README-Windows.txt README.md; do
    grep -qx "$top/$f" <<< "$names" || { echo "not in the zip: $top/$f"; exit 1; }
done
! grep -q 'default\.\(nnue\|xqb\)$' <<< "$names" || { echo "an embedded file is in the zip"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
unzip -q "$zip" -d "$dir"
text="$dir/$top/README-Windows.txt"
head -1 "$text" | grep -q "^Jiangjun $version for Windows" || { echo "README-Windows.txt: no version line"; exit 1; }
[ "$(grep -c $'\r$' "$text")" = "$(wc -l < "$text")" ] || { echo "README-Windows.txt: not CRLF"; exit 1; }
for gui in "XiangQi Wizard" "UCI GUIs" "WinBoard"; do
    grep -q "$gui" "$text" || { echo "README-Windows.txt does not cover $gui"; exit 1; }
done
if command -v file > /dev/null; then
    file "$dir/$top/jiangjun.exe" | grep -q 'PE32+' || { echo "jiangjun.exe is not a 64-bit Windows executable"; exit 1; }
fi
echo "zip OK: $zip ($(stat -c %s "$zip") bytes)"
