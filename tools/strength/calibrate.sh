#!/usr/bin/env bash
# Calibration matches of the strength levels (Skill Level) against Jiangjun at fixed nodes per move.
# usage: tools/strength/calibrate.sh JIANGJUN XQMATCH OUTDIR [ROUNDS] [SHUFFLE] [check]
# Each match is ROUNDS game pairs (default 20: 40 games) at one game at a time. A reference "Rn" is
# Jiangjun at full strength searching n nodes a move (a sed filter rewrites the runner's
# "go nodes 1000000" to n); a level "Lk" is Jiangjun with `setoption skilllevel k` under the same
# "go nodes 1000000", so its own node cap (strength.h) is what limits it. The pairings form a tree
# (L0-L5-R256-R1024-R4096-R8192-R16384, L10-R1024, L15-R4096, L19-R16384, and R4096-R16384 directly):
# tools/strength/ladder.py puts every player on one scale from the results (OUTDIR/*.log). A match
# whose finished log is already in OUTDIR is not played again.
set -euo pipefail
jj="$(realpath "$1")"; xqmatch="$(realpath "$2")"; out="$3"; rounds="${4:-20}"; shuffle="${5:-11}"
openings="$(dirname "$0")/../openings/openings.txt"
mkdir -p "$out"
engine_args() { # NAME -> the xqmatch -engine arguments of that player, in ARGS
    case "$1" in
        R*) ARGS=("name=$1" "cmd=sed -u 's/nodes [0-9][0-9]*/nodes ${1#R}/' | $jj" proto=ucci) ;;
        L*) ARGS=("name=$1" "cmd=$jj" proto=ucci "option.skilllevel=${1#L}") ;;
        E*) ARGS=("name=$1" "cmd=$jj" proto=ucci option.limitstrength=true "option.elo=${1#E}") ;;
    esac
}
match() { # A B: one match, its log and PGN in OUTDIR (skipped when OUTDIR has its finished log)
    if grep -qs "games played" "$out/$1-$2.log"; then tail -n 4 "$out/$1-$2.log"; return; fi
    engine_args "$1"; local a=("${ARGS[@]}")
    engine_args "$2"; local b=("${ARGS[@]}")
    "$xqmatch" -engine "${a[@]}" -engine "${b[@]}" -nodes 1000000 -openings "$openings" -shuffle "$shuffle" \
        -rounds "$rounds" -concurrency 1 -quiet -pgn "$out/$1-$2.pgn" > "$out/$1-$2.log" 2>&1
    tail -n 4 "$out/$1-$2.log"
}
pairs=("L0 L5" "L5 R256" "R256 R1024" "L10 R1024" "R1024 R4096" "L15 R4096" "R4096 R16384" "L19 R16384"
       "R4096 R8192" "R8192 R16384")
# "check": UCI_Elo players (E1200 = UCI_LimitStrength with UCI_Elo 1200) against references, to compare
# with what the table predicts; run after the table in src/search/strength.c is filled in.
[ "${6:-}" = check ] && pairs=("E1200 R1024" "E2000 R4096")
for pair in "${pairs[@]}"; do
    match $pair
done
