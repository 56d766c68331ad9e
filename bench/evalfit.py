#!/usr/bin/env python3
"""evalfit.py - how well nets' static evals predict the results of another engine's games.

Usage: bench/evalfit.py LABELLED.txt [-every N] [-xqtrain PATH] NAME=NET.nnue [NAME=NET.nnue ...]

LABELLED.txt is the FEN;result;cp format of tools/TUNING.md (../shared/data/nnue/pika4000-seed*.txt.xz,
decompressed: Pikafish-HCE's self-play games, validation only). Every N-th line is kept (default 10), and
positions whose labelled cp is 2000 or more either way are left out. For the labels and each net (its
integer eval from `xqtrain probe`, the engine's eval bit for bit): the mean squared error of
1 / (1 + exp(-eval / K)) against the game result at the best K (searched in steps of 20 cp), the correlation
with the labelled cp, and how often its sign agrees with the label's. A net that has learnt the game, not
just its own self-play, predicts another engine's games better.
"""
import math
import statistics
import subprocess
import sys

PROBE_CHUNK = 200      # FENs per xqtrain probe call
CP_LIMIT = 2000        # labels beyond this (mates, won positions) are left out
CLIP = 2000            # evals are clipped to this for the correlation
SIGMOID_CLAMP = 8000   # evals are clamped to this in the sigmoid (exp would overflow on mate-sized ones)
K_RANGE = range(100, 1001, 20)


def read_labelled(path, every):
    """The kept (fen, result, cp) triples of a labelled file."""
    out = []
    with open(path) as f:
        for i, line in enumerate(f):
            if i % every:
                continue
            fen, result, cp = line.rstrip("\n").split(";")
            if abs(float(cp)) < CP_LIMIT:
                out.append((fen, float(result), float(cp)))
    return out


def net_evals(xqtrain, net, fens):
    """Red's-view integer evals of fens by a net, from xqtrain probe."""
    evals = []
    for i in range(0, len(fens), PROBE_CHUNK):
        args = [xqtrain, "probe", "-net", net]
        for fen in fens[i:i + PROBE_CHUNK]:
            args += ["-fen", fen]
        run = subprocess.run(args, capture_output=True, text=True)
        rows = run.stdout.splitlines()[1:]
        if run.returncode != 0 or len(rows) != len(fens[i:i + PROBE_CHUNK]):
            sys.exit(f"evalfit: xqtrain probe failed on {net}: {run.stderr.strip() or run.stdout[-200:]}")
        evals += [int(row.split()[1]) for row in rows]
    return evals


def mse(evals, results, k):
    """Mean squared error of the sigmoid of evals at scale k against results."""
    return sum((1 / (1 + math.exp(-max(-SIGMOID_CLAMP, min(SIGMOID_CLAMP, e)) / k)) - r) ** 2
               for e, r in zip(evals, results)) / len(evals)


def report(name, evals, results, cps):
    """Prints one line of figures for a list of evals."""
    best = min((mse(evals, results, k), k) for k in K_RANGE)
    clipped = [max(-CLIP, min(CLIP, e)) for e in evals]
    agree = sum(1 for e, c in zip(evals, cps) if (e > 0) == (c > 0)) / len(evals)
    r = statistics.correlation(clipped, cps)
    print(f"{name:>12}  mse {best[0]:.5f} (K {best[1]:4d})  corr {r:.4f}  sign {agree:.4f}")


def main():
    args = sys.argv[1:]
    every, xqtrain, nets, path = 10, "build/tools/xqtrain", [], None
    while args:
        a = args.pop(0)
        if a == "-every" and args:
            every = int(args.pop(0))
        elif a == "-xqtrain" and args:
            xqtrain = args.pop(0)
        elif "=" in a:
            nets.append(a.split("=", 1))
        elif path is None:
            path = a
        else:
            sys.exit(__doc__)
    if path is None or not nets or every < 1:
        sys.exit(__doc__)
    rows = read_labelled(path, every)
    fens, results, cps = [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]
    print(f"{len(rows)} positions (every {every}th line of {path}, |cp| < {CP_LIMIT})")
    report("labels", cps, results, cps)
    for name, net in nets:
        report(name, net_evals(xqtrain, net, fens), results, cps)


if __name__ == "__main__":
    main()
