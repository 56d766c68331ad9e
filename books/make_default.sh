#!/bin/sh
# make_default.sh [BUILD_DIR] [OUT] - regenerates the shipped book, books/default.xqb, from Jiangjun's own
# analysis (books/README.md: the recipe, its cost, how to make a bigger one). Deterministic: the same
# engine and parameters give the same file. Run it niced on a shared machine.
set -eu
build="${1:-build}"
out="${2:-books/default.xqb}"
# From the start position, every position up to 7 plies deep on the tree is searched to depth 14 with the
# hand-crafted evaluation (named, so that a build with a net makes the same book), again without the moves found so far,
# and up to 4 moves within 30 of the best are kept (the best weighs 100, one 30 worse 50).
exec "$build/tools/xqbook" analyse -o "$out" -plies 7 -depth 14 -margin 30 -width 4 -hash 64 -eval hce -progress 60
