#!/bin/sh
# gen_games.sh - plays the games the eval tuner learns from (see tools/xqtune/README.md).
#
# usage: tools/xqtune/tuning/gen_games.sh selfplay|eleeye|eleself OUTDIR [BATCHES]
#   selfplay: Jiangjun against itself at a fixed node count per move; each batch
#             uses another node count (a fixed-node game is deterministic, so the
#             same opening at the same count would repeat the same game).
#   eleeye:   Jiangjun against ElephantEye 3.31 at a short fixed movetime
#             (timing noise makes every batch different). ElephantEye overshoots
#             short movetimes by ~100 ms, so the overrun margin is wide: a time
#             forfeit would label the positions with a result unrelated to them
#             (xqtune extract drops such games anyway). Caution: when the two
#             players differ, the tuner can learn to recognise the stronger
#             player's style instead of what wins (see tools/xqtune/README.md).
#   eleself:  ElephantEye against itself at the same movetime (stronger play,
#             both sides alike).
# Each batch plays every opening of tools/xqmatch/openings/openings.txt twice (colours
# swapped), shuffled, one game at a time, into OUTDIR/<mode>-<batch>.pgn.
# Environment: JJ (engine binary, default build/jiangjun copied to OUTDIR),
# ELEEYE_DIR (default /work/ext/eleeye/eleeye), ROUNDS (pairs per batch, default 200).
set -eu
mode=$1
out=$2
batches=${3:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
xqmatch=$root/build/tools/xqmatch
openings=$root/tools/xqmatch/openings/openings.txt
rounds=${ROUNDS:-200}
eleeye_dir=${ELEEYE_DIR:-/work/ext/eleeye/eleeye}
mkdir -p "$out"
jj=${JJ:-}
if [ -z "$jj" ]; then
    jj=$out/jj_gen
    cp "$root/build/jiangjun" "$jj"
fi
b=1
while [ "$b" -le "$batches" ]; do
    case $mode in
    selfplay)
        nodes=$((6000 + 2000 * b))
        "$xqmatch" -engine name=jj-a cmd="$jj" proto=ucci -engine name=jj-b cmd="$jj" proto=ucci \
            -nodes "$nodes" -openings "$openings" -shuffle "$b" -rounds "$rounds" -concurrency 1 \
            -quiet -pgn "$out/selfplay-$b.pgn" >"$out/selfplay-$b.log" 2>&1
        ;;
    eleeye)
        "$xqmatch" -engine name=jj cmd="$jj" proto=ucci \
            -engine name=eleeye cmd="$eleeye_dir/eleeye" dir="$eleeye_dir" proto=ucci \
            -movetime 40 -margin 1000 -openings "$openings" -shuffle "$((100 + b))" -rounds "$rounds" -concurrency 1 \
            -quiet -pgn "$out/eleeye-$b.pgn" >"$out/eleeye-$b.log" 2>&1
        ;;
    eleself)
        "$xqmatch" -engine name=eleeye-a cmd="$eleeye_dir/eleeye" dir="$eleeye_dir" proto=ucci \
            -engine name=eleeye-b cmd="$eleeye_dir/eleeye" dir="$eleeye_dir" proto=ucci \
            -movetime 40 -margin 1000 -openings "$openings" -shuffle "$((200 + b))" -rounds "$rounds" -concurrency 1 \
            -quiet -pgn "$out/eleself-$b.pgn" >"$out/eleself-$b.log" 2>&1
        ;;
    *)
        echo "usage: $0 selfplay|eleeye|eleself OUTDIR [BATCHES]" >&2
        exit 2
        ;;
    esac
    b=$((b + 1))
done
