#!/usr/bin/env python3
"""Fits the win/draw/loss model of src/eval/wdl.c to game results (standard library only).

Input: records as `xqgen dump` prints them, FEN;result;cp;ply;flags (result 1 / 0.5 / 0 and cp from
red's view; flags 1 = in check, 2 = the best move is a capture). Positions before ply MIN_PLY, in check,
before a capture, or with a mate score are skipped.

Model, for the side to move's score s (centipawns) and the material m (rooks count 2, horses and
cannons 1, both sides: 0..16):
    a = A0 + A1 * m / 16,  b = B0 + B1 * m / 16
    P(win) = 1 / (1 + exp((a - s) / b)),  P(loss) = 1 / (1 + exp((a + s) / b)),  P(draw) = the rest
fitted by maximum likelihood (Nelder-Mead over the four constants, on counts bucketed by score and m).

Usage: xqgen dump FILE.bin | tools/wdl/wdl_fit.py [MAX_RECORDS]
"""
import math
import sys
from collections import Counter

MIN_PLY = 16
SCORE_BUCKET = 10
SCORE_MAX = 2000
MATERIAL = {'r': 2, 'n': 1, 'c': 1, 'R': 2, 'N': 1, 'C': 1}


def material(board):
    """Material count m of a FEN board field."""
    return sum(MATERIAL.get(ch, 0) for ch in board)


def read(stream, limit):
    """Bucketed counts: (score bucket, m) -> [wins, draws, losses] for the side to move."""
    counts = {}
    used = skipped = 0
    for line in stream:
        parts = line.strip().split(';')
        if len(parts) < 5:
            continue
        fen, result, cp, ply, flags = parts[0], float(parts[1]), int(parts[2]), int(parts[3]), int(parts[4])
        if ply < MIN_PLY or flags & 3 or abs(cp) >= SCORE_MAX:
            skipped += 1
            continue
        board, side = fen.split()[0], fen.split()[1]
        if side == 'b':
            cp, result = -cp, 1.0 - result
        key = (round(cp / SCORE_BUCKET) * SCORE_BUCKET, material(board))
        c = counts.setdefault(key, [0, 0, 0])
        c[0 if result == 1.0 else (1 if result == 0.5 else 2)] += 1
        used += 1
        if limit and used >= limit:
            break
    return counts, used, skipped


def sigmoid(x):
    """Logistic function, safe for large |x|."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def probs(params, s, m):
    """P(win), P(draw), P(loss) of the model."""
    a0, a1, b0, b1 = params
    a, b = a0 + a1 * m / 16.0, b0 + b1 * m / 16.0
    if b <= 1 or a < 0:
        return None
    w, l = sigmoid((s - a) / b), sigmoid((-s - a) / b)
    return w, max(1.0 - w - l, 1e-9), l


def nll(params, counts):
    """Negative log-likelihood per position."""
    total = n = 0.0
    for (s, m), (w, d, l) in counts.items():
        p = probs(params, s, m)
        if p is None:
            return float('inf')
        total -= w * math.log(max(p[0], 1e-12)) + d * math.log(p[1]) + l * math.log(max(p[2], 1e-12))
        n += w + d + l
    return total / n


def nelder_mead(f, x0, step, iters=600):
    """Minimises f from x0 (plain Nelder-Mead)."""
    pts = [list(x0)] + [[x + (step[i] if j == i else 0) for j, x in enumerate(x0)] for i in range(len(x0))]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(len(pts)), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        centroid = [sum(p[j] for p in pts[:-1]) / (len(pts) - 1) for j in range(len(x0))]
        refl = [c + (c - w) for c, w in zip(centroid, pts[-1])]
        fr = f(refl)
        if fr < vals[0]:
            exp = [c + 2 * (c - w) for c, w in zip(centroid, pts[-1])]
            fe = f(exp)
            pts[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [c + 0.5 * (w - c) for c, w in zip(centroid, pts[-1])]
            fc = f(con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                for i in range(1, len(pts)):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(len(x0))]
                    vals[i] = f(pts[i])
    best = min(range(len(pts)), key=lambda i: vals[i])
    return pts[best], vals[best]


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    counts, used, skipped = read(sys.stdin, limit)
    params, value = nelder_mead(lambda p: nll(p, counts), [150.0, 0.0, 150.0, 0.0], [50.0, 50.0, 50.0, 50.0])
    w = sum(c[0] for c in counts.values())
    d = sum(c[1] for c in counts.values())
    base = [w / used, d / used, 1 - (w + d) / used]
    base_nll = -sum(c * math.log(max(b, 1e-12)) for c, b in zip([w, d, used - w - d], base)) / used
    print(f"positions used {used}, skipped {skipped}")
    print(f"A0 {params[0]:.1f} A1 {params[1]:.1f} B0 {params[2]:.1f} B1 {params[3]:.1f}")
    print(f"log-likelihood per position: model {-value:.4f}, constant rates {-base_nll:.4f}")
    for m in (4, 10, 16):
        row = []
        for s in (-300, -100, 0, 100, 300):
            p = probs(params, s, m)
            row.append(f"{s:+d}: {round(1000 * p[0])}/{round(1000 * p[1])}/{round(1000 * p[2])}")
        print(f"m {m:2d}  " + "  ".join(row))


if __name__ == "__main__":
    main()
