#!/usr/bin/env python3
"""depthcmp.py - how many nodes each depth costs, engine A against engine B, on the bench positions.

Usage: bench/depthcmp.py A B NODES [STEP]

A and B are `ENGINE[;NAME=VALUE...]`: an engine speaking UCI and the options to set first, e.g.
`build/jiangjun;Hash=256` or `build-tune/jiangjun;lmr_divisor=170` (a tuning build, -DXQ_TUNE_SEARCH=ON).
Each engine searches every STEP-th position of tests/data/bench_positions.epd (default 4) with
`go nodes NODES`, a fresh process per search, and reports, per depth reached by both on at least 3
positions, the median over positions of nodes(B) / nodes(A) at the `info depth` line that completed the
iteration (exact scores only: bound lines are skipped), then each engine's median deepest depth. With a
fixed node budget and one thread the figures are deterministic, so the machine's load does not matter.
"""
import os
import statistics
import sys

from compare_nps import HERE, talk

MIN_POSITIONS = 3
POSITIONS = os.path.join(HERE, "..", "tests", "data", "bench_positions.epd")


def nodes_per_depth(spec, fen, nodes):
    """Runs one search; returns {depth: nodes} from the completed iterations' info lines."""
    engine, *options = spec.split(";")
    setup = ["setoption name %s value %s" % tuple(o.split("=", 1)) for o in options]
    found = {}
    for line in talk(engine, "uci", setup + ["position fen " + fen, "go nodes %d" % nodes], "bestmove"):
        words = line.split()
        if words[:1] == ["info"] and "depth" in words and "nodes" in words and "pv" in words \
                and "upperbound" not in words and "lowerbound" not in words:
            found[int(words[words.index("depth") + 1])] = int(words[words.index("nodes") + 1])
    return found


def main():
    """Parses the arguments, runs both engines on the positions and prints the ratios."""
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    spec_a, spec_b, nodes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    step = int(sys.argv[4]) if len(sys.argv) == 5 else 4
    with open(POSITIONS) as f:
        fens = [line.strip() for line in f if line.strip()][::step]
    runs_a = [nodes_per_depth(spec_a, fen, nodes) for fen in fens]
    runs_b = [nodes_per_depth(spec_b, fen, nodes) for fen in fens]
    for depth in range(1, 128):
        ratios = [b[depth] / a[depth] for a, b in zip(runs_a, runs_b) if depth in a and depth in b]
        if len(ratios) >= MIN_POSITIONS:
            print("depth %d: %d positions, median nodes(B) / nodes(A) = %.3f"
                  % (depth, len(ratios), statistics.median(ratios)))
    for name, runs in (("A", runs_a), ("B", runs_b)):
        print("%s: median deepest depth %s" % (name, statistics.median(max(r) for r in runs if r)))


if __name__ == "__main__":
    main()
