#!/usr/bin/env bash
# compare_perft.sh - perft time of Jiangjun against other engines' `go perft`.
# Usage: bench/compare_perft.sh JIANGJUN DEPTH RUNS PROTO:ENGINE...
#   PROTO is uci (Pikafish) or uci10 (Fairy-Stockfish: UCI_Variant xiangqi is set first).
# Runs are interleaved (ours, then each other engine, RUNS times) from the start
# position; prints every command, each wall time, the medians and the ratios
# ours/theirs (below 1 = Jiangjun is faster). Wall times include each engine's
# start-up, so use a depth where the search dominates (5 or more).
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
jj=$1 depth=$2 runs=$3
shift 3
others=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Wall time of a command in seconds (ms resolution); its output goes to $tmp/out.
walltime() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >"$tmp/out" 2>&1
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

# The UCI commands for an engine's perft.
perft_input() {
    local proto=$1
    printf 'uci\n'
    [ "$proto" = uci10 ] && printf 'setoption name UCI_Variant value xiangqi\n'
    printf 'isready\nposition startpos\ngo perft %s\nisready\nquit\n' "$depth"
}

# Runs one engine's perft through its protocol loop.
other_perft() {
    local proto=$1 path=$2
    perft_input "$proto" | "$path"
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

nodes=$("$jj" perft "$depth" 2>/dev/null | awk '/Nodes searched/ {print $3}')
echo "command: $jj perft $depth    (nodes $nodes, $runs interleaved runs)"
for spec in "${others[@]}"; do
    echo "command: printf '$(perft_input "${spec%%:*}" | tr '\n' '|' | sed 's/|/\\n/g')' | ${spec#*:}"
done
declare -A times
ours=()
for ((i = 0; i < runs; i++)); do
    ours+=("$(walltime "$jj" perft "$depth")")
    for spec in "${others[@]}"; do
        times[$spec]+="$(walltime other_perft "${spec%%:*}" "${spec#*:}") "
        got=$(awk '/Nodes searched/ {print $3}' "$tmp/out" | tail -1)
        [ "$got" = "$nodes" ] || echo "warning: ${spec#*:} counted '$got' nodes, jiangjun $nodes"
    done
done
m=$(median "${ours[@]}")
echo "jiangjun: times ${ours[*]}; median $m s, $(awk -v n="$nodes" -v t="$m" 'BEGIN { printf "%.0f", n / t }') nodes/s"
for spec in "${others[@]}"; do
    # shellcheck disable=SC2086
    o=$(median ${times[$spec]})
    echo "${spec#*:}: times ${times[$spec]}; median $o s, $(awk -v n="$nodes" -v t="$o" 'BEGIN { printf "%.0f", n / t }') nodes/s"
    echo "  ratio jiangjun/$(basename "${spec#*:}"): $(awk -v a="$m" -v b="$o" 'BEGIN { printf "%.3f", a / b }')"
done
