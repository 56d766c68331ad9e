#!/usr/bin/env bash
# npm pack of a package folder, for tests/wasm_npm.sh and tests/web_npm.sh: empties SCRATCH_DIR (and makes
# SCRATCH_DIR/prefix for an install), packs PACKAGE_DIR there, checks that the tarball is named TARBALL and
# holds each FILE (under package/); lists its contents on stderr and prints the tarball's path.
# usage: tests/wasm_npm_pack.sh NPM PACKAGE_DIR SCRATCH_DIR TARBALL FILE...
set -euo pipefail
npm=$1 pkg=$(cd "$2" && pwd) scratch=$3 want=$4 # absolute: npm takes a relative a/b for a GitHub repository
shift 4
rm -rf "$scratch" && mkdir -p "$scratch/prefix"
"$npm" pack --silent --pack-destination "$scratch" "$pkg" > "$scratch/name"
tgz="$scratch/$(tail -1 "$scratch/name")"
[ "$(basename "$tgz")" = "$want" ] || { echo "npm pack made $tgz, not $want" >&2; exit 1; }
tar -tzf "$tgz" | sort > "$scratch/contents"
cat "$scratch/contents" >&2
for f in "$@"; do
    grep -qx "package/$f" "$scratch/contents" || { echo "$f missing from the package" >&2; exit 1; }
done
echo "$tgz"
