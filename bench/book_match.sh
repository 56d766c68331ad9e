#!/bin/sh
# book_match.sh [BUILD_DIR] [GAMES] [TC|nodes=N] [OUT_DIR] - Jiangjun with its built-in book (UCCI usebook true)
# against Jiangjun without, every game from the start position (no -openings), one game at a time, then how
# varied the games were (bench/book_variety.py). Defaults: build, 100 games, 2+0.02, build/book_match.
# The issue's measurement is 200 games at 10+0.1: ./bench/book_match.sh build 200 10+0.1
set -eu
build="${1:-build}"
games="${2:-100}"
limit="${3:-2+0.02}"
out="${4:-$build/book_match}"
mkdir -p "$out"
case "$limit" in
    nodes=*) lim="-nodes ${limit#nodes=}" ;;
    *) lim="-tc $limit" ;;
esac
# shellcheck disable=SC2086 # $lim is two words
"$build/tools/xqmatch" -engine name=book cmd="$build/jiangjun" proto=ucci option.usebook=true \
    -engine name=nobook cmd="$build/jiangjun" proto=ucci $lim -games "$games" -concurrency 1 \
    -pgn "$out/games.pgn" | tee "$out/match.txt"
python3 "$(dirname "$0")/book_variety.py" "$out/games.pgn" | tee -a "$out/match.txt"
