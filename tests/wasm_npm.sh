#!/usr/bin/env bash
# The npm package of the wasm engine: `npm pack` of the package folder (build-wasm/npm) makes
# jiangjun-VERSION.tgz holding package.json, the command, the engine's .js, .wasm and .worker.js and the
# README; `npm install` of the tarball (offline: it has no dependencies) into a scratch prefix gives the
# command node_modules/.bin/jiangjun, whose UCCI dialog (tests/installed_dialog.sh's checks, with the
# built-in net) answers a legal move, run with plain node (no --no-experimental-fetch).
# usage: tests/wasm_npm.sh NPM PACKAGE_DIR SCRATCH_DIR VERSION
set -euo pipefail
npm=$1 pkg=$2 scratch=$3 version=$4
tgz=$("$(dirname "$0")/wasm_npm_pack.sh" "$npm" "$pkg" "$scratch" "jiangjun-$version.tgz" \
    package.json jiangjun-cli.js jiangjun.js jiangjun.wasm jiangjun.worker.js README.md)
"$npm" install --silent --offline --no-audit --no-fund --prefix "$scratch/prefix" "$tgz"
engine="$scratch/prefix/node_modules/.bin/jiangjun"
[ -x "$engine" ] || { echo "no $engine after npm install"; exit 1; }
out="$scratch/dialog.txt"
printf 'ucci\nposition startpos moves h2e2\ngo depth 6\n' | (cd "$scratch" && timeout 120 "$engine") > "$out"
cat "$out"
grep -qx "id name Jiangjun $version" "$out" && grep -qx 'ucciok' "$out"
move=$(sed -n 's/^bestmove \([a-i][0-9][a-i][0-9]\).*/\1/p' "$out")
[ -n "$move" ] || { echo "no bestmove"; exit 1; }
fen=$(printf 'position startpos moves h2e2\nd\nquit\n' | timeout 120 "$engine" | sed -n 's/^Fen: //p')
timeout 120 "$engine" perft 1 "$fen" 2>/dev/null | grep -q "^$move: " || { echo "illegal move $move in $fen"; exit 1; }
timeout 120 "$engine" --version | head -1 | grep -qx "Jiangjun $version"
echo "npm package OK: $(basename "$tgz"), $(stat -c %s "$tgz") bytes; installed command answers bestmove $move"
