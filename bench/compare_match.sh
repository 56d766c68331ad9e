#!/usr/bin/env bash
# compare_match.sh - a match of Jiangjun against another engine with xqmatch.
# Usage: bench/compare_match.sh JIANGJUN JJ_PROTO OTHER OTHER_PROTO [TC] [ROUNDS] [CONCURRENCY] [OPENINGS]
#   PROTO: ucci, uci (ranks 0-9, Pikafish) or uci10 (Fairy-Stockfish).
#   TC defaults to 10+0.1, ROUNDS to 50 (100 games), CONCURRENCY to 1,
#   OPENINGS to tools/xqmatch/openings/openings.txt. Extra xqmatch options: XQMATCH_ARGS.
# Prints the exact xqmatch command, then its progress and summary (W/L/D, Elo
# with 95% error bar, LOS). The PGN goes to $TMPDIR (or /tmp)/match-<date>.pgn.
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
jj=$1 jjp=$2 other=$3 op=$4
tc=${5:-10+0.1} rounds=${6:-50} conc=${7:-1}
book=${8:-$here/tools/xqmatch/openings/openings.txt}
xq=${XQMATCH:-$here/build/tools/xqmatch}
pgn=${TMPDIR:-/tmp}/match-$(date +%Y%m%d-%H%M%S).pgn
cmd=("$xq" -engine name=Jiangjun "cmd=$jj" "proto=$jjp" -engine "name=$(basename "$other")" "cmd=$other" "proto=$op"
     -tc "$tc" -rounds "$rounds" -concurrency "$conc" -openings "$book" -shuffle 1 -pgn "$pgn")
# shellcheck disable=SC2206
extra=(${XQMATCH_ARGS:-})
printf 'command:'; printf ' %q' "${cmd[@]}" "${extra[@]}"; printf '\n'
"${cmd[@]}" "${extra[@]}"
