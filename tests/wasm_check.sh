#!/usr/bin/env bash
# The WebAssembly engine under node (the emscripten build, build-wasm/jiangjun.js + .wasm): bench with the
# built-in net gives bench/signature's node count (the same search as the native build), the built-in book
# answers from the start position, a UCCI dialog answers a legal move (checked with the wasm's perft), a bad
# FEN gets one error line, hash sizes too big for 32 bits fall back, and every run ends by itself (timeout:
# the runtime must exit when main returns).
# --version must name the net's kernels SIMD (sse2 with wasm SIMD, else scalar).
# usage: tests/wasm_check.sh NODE ENGINE_JS SIGNATURE_FILE SIMD
set -euo pipefail
node=$1 js=$2 signature=$3 simd=$4
run() { timeout "${XQ_WASM_TIMEOUT:-300}" "$node" --no-experimental-fetch "$js" "$@"; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run bench > "$out" 2>&1 || { cat "$out"; echo "wasm bench failed or did not exit"; exit 1; }
got=$(sed -n 's/^Nodes searched: //p' "$out")
want=$(tr -d '[:space:]' < "$signature")
[ "$got" = "$want" ] || { cat "$out"; echo "wasm bench signature $got, bench/signature $want"; exit 1; }
echo "wasm bench $got nodes = signature; $(grep '^Nodes/second' "$out")"

printf 'ucci\nsetoption usebook true\nposition startpos\ngo depth 4\n' | run > "$out"
grep -q '^info depth 0 score -\?[0-9]* pv h2e2$' "$out" || { cat "$out"; echo "no book move from the built-in book"; exit 1; }

printf 'ucci\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1\nposition startpos moves h2e2\ngo depth 6\n' \
    | run > "$out"
cat "$out"
[ "$(grep -c '^info string error: ' "$out")" = 1 ] || { echo "the bad FEN did not get one error line"; exit 1; }
move=$(sed -n 's/^bestmove \([a-i][0-9][a-i][0-9]\).*/\1/p' "$out")
[ -n "$move" ] || { echo "no bestmove"; exit 1; }
fen=$(printf 'position startpos moves h2e2\nd\nquit\n' | run | sed -n 's/^Fen: //p')
run perft 1 "$fen" 2>/dev/null | grep -q "^$move: " || { echo "illegal move $move in $fen"; exit 1; }
run --version | grep -qx "simd: $simd" || { run --version; echo "--version does not say simd: $simd"; exit 1; }

# Hash sizes of 2 GiB and more do not fit wasm32's 32-bit size_t: each falls back to a table that fits
# (the sizing loop never ended on them, and 4096 MB wrapped around to a table of one bucket, "using 0 MB").
printf 'ucci
setoption hashsize 2048
setoption hashsize 4095
setoption hashsize 4096
isready
position startpos
go depth 4
' \
    | run > "$out" || { rc=$?; cat "$out"; echo "the hash dialog failed or did not end (rc $rc)"; exit 1; }
grep '^info string hash\|^readyok\|^bestmove' "$out"
[ "$(grep -c '^info string hash of [0-9]* MB not available, using [1-9][0-9]* MB$' "$out")" = 3 ] \
    || { echo "a hash size of 2 GiB or more did not fall back to a table that fits"; exit 1; }
grep -qx readyok "$out" && grep -q '^bestmove [a-i][0-9][a-i][0-9]' "$out"
echo "wasm engine OK: bestmove $move"
