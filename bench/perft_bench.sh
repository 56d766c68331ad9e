#!/usr/bin/env bash
# perft_bench.sh - reproducible perft speed benchmark.
# Usage: bench/perft_bench.sh [JIANGJUN] [DEPTH] [RUNS] [OTHER_UCI_ENGINE]
# Runs `JIANGJUN perft DEPTH` from the start position RUNS times and prints each
# wall time, the median and nodes/second. Given a UCI engine that supports
# `go perft` (e.g. Pikafish), it times that engine the same way, interleaved run
# by run with ours, and prints the ratio of the medians.
set -euo pipefail
jj=${1:-build/jiangjun}
depth=${2:-5}
runs=${3:-5}
other=${4:-}

# Wall time in seconds of a command, to milliseconds.
walltime() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

# Runs the other engine's go perft through its UCI loop.
other_perft() {
    printf 'uci\nposition startpos\ngo perft %s\nquit\n' "$depth" | "$other" >/tmp/perft_bench_other.$$ 2>&1
    grep -qi "nodes" /tmp/perft_bench_other.$$
}

# Median of the arguments.
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

nodes=$("$jj" perft "$depth" 2>/dev/null | awk '/Nodes searched/ {print $3}')
echo "command: $jj perft $depth   (nodes $nodes, $runs runs)"
[ -n "$other" ] && echo "command: printf 'uci\\nposition startpos\\ngo perft $depth\\nquit\\n' | $other"
ours=() theirs=()
for ((i = 0; i < runs; i++)); do
    ours+=("$(walltime "$jj" perft "$depth")")
    if [ -n "$other" ]; then theirs+=("$(walltime other_perft)"); fi
done
m=$(median "${ours[@]}")
echo "jiangjun times: ${ours[*]}"
echo "jiangjun median: ${m} s, $(awk -v n="$nodes" -v t="$m" 'BEGIN { printf "%.0f", n / t }') nodes/s"
if [ -n "$other" ]; then
    grep -i "nodes" /tmp/perft_bench_other.$$ | tail -1
    rm -f /tmp/perft_bench_other.$$
    o=$(median "${theirs[@]}")
    echo "other times: ${theirs[*]}"
    echo "other median: ${o} s, $(awk -v n="$nodes" -v t="$o" 'BEGIN { printf "%.0f", n / t }') nodes/s"
    echo "ratio jiangjun/other: $(awk -v a="$m" -v b="$o" 'BEGIN { printf "%.3f", a / b }')"
fi
