#!/usr/bin/env bash
# stress_games.sh XQMATCH JIANGJUN OPENINGS OUTDIR [GAMES_TC] [GAMES_NODES] [MARGIN_MS]
# Stress run (ctest label stress): Jiangjun against itself through the match runner, two games at a
# time: GAMES_TC games (default 200) at 1 s + 0.01 s and GAMES_NODES games (default 100) at a fixed
# 1000 nodes per move. One side speaks UCCI, the other UCI, so both dialects play every game.
# Fails unless every game ended by a rule of the game or an adjudication: zero crashes, illegal
# moves, time forfeits, hangs, "no move" answers and start failures. Writes the PGNs, the match
# logs and summary.txt (the figures for bench/STRESS.md) to OUTDIR. MARGIN_MS (default 100, as xqmatch)
# is how late a move may arrive before it loses on time: raise it only to tell the engine's own
# overruns from a machine too busy to schedule it (see bench/STRESS.md). A count of 0 skips that run.
# The environment's XQ_STRESS_TC_GAMES and XQ_STRESS_NODE_GAMES set the counts when the arguments do not
# (.ci/run plays half of each; `ctest -L stress` by hand plays them all).
set -euo pipefail
xqmatch="$1" jiangjun="$2" openings="$3" out="$4"
games_tc="${5:-${XQ_STRESS_TC_GAMES:-200}}" games_nodes="${6:-${XQ_STRESS_NODE_GAMES:-100}}" margin="${7:-100}"
mkdir -p "$out"
rm -f "$out"/*.pgn "$out"/*.log "$out"/peak_kb.txt
touch "$out/tc.pgn" "$out/nodes.pgn" "$out/tc.log" "$out/nodes.log"
# The peak RSS of every engine process, when GNU time is there.
wrap=""
if [ -x /usr/bin/time ]; then
    wrap="/usr/bin/time -f %M -a -o $out/peak_kb.txt "
fi
engines=(-engine "name=JJ-ucci" "cmd=$wrap$jiangjun" proto=ucci
         -engine "name=JJ-uci" "cmd=$wrap$jiangjun" proto=uci)
start=$(date +%s)
if [ "$games_tc" -gt 0 ]; then
    "$xqmatch" "${engines[@]}" -tc 1+0.01 -margin "$margin" -openings "$openings" -shuffle 11 -games "$games_tc" \
        -concurrency 2 -pgn "$out/tc.pgn" >"$out/tc.log" 2>&1
fi
if [ "$games_nodes" -gt 0 ]; then
    "$xqmatch" "${engines[@]}" -nodes 1000 -openings "$openings" -shuffle 12 -games "$games_nodes" -concurrency 2 \
        -pgn "$out/nodes.pgn" >"$out/nodes.log" 2>&1
fi
elapsed=$(( $(date +%s) - start ))
count() { grep -h "$@" "$out"/tc.pgn "$out"/nodes.pgn | wc -l; }
total=$(count '^\[Result ')
bad=$(grep -h '^\[Termination ' "$out"/tc.pgn "$out"/nodes.pgn \
      | grep -c -E '"(crash|illegal move|time forfeit|hang|no move|start failure)"' || true)
{
    echo "stress: $elapsed s, $(nproc) CPUs, load average at the end $(cut -d' ' -f1-3 /proc/loadavg), margin $margin ms"
    for run in tc nodes; do
        echo "$run: $(grep -c '^\[Result ' "$out/$run.pgn") games; endings:"
        grep -h '^\[Termination ' "$out/$run.pgn" | sed 's/\[Termination "\(.*\)"\]/\1/' | sort | uniq -c | sed 's/^/  /' || true
        grep -A2 '^JJ-ucci vs JJ-uci' "$out/$run.log" | sed 's/^/  /' || true
    done
    echo "total: $total games; crashes, illegal moves, time forfeits, hangs, no-move answers, start failures: $bad"
    if [ -s "$out/peak_kb.txt" ]; then
        echo "engine processes: $(wc -l <"$out/peak_kb.txt"), peak RSS max $(sort -n "$out/peak_kb.txt" | tail -1) kB," \
             "median $(sort -n "$out/peak_kb.txt" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') kB"
    fi
} | tee "$out/summary.txt"
status=0
[ "$bad" -eq 0 ] || status=1
[ "$total" -eq $(( games_tc + games_nodes )) ] || { echo "expected $(( games_tc + games_nodes )) games, got $total"; status=1; }
exit $status
