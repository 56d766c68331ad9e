#!/usr/bin/env python3
"""Puts the players of tools/strength/calibrate.sh on one Elo scale (standard library only).

usage: tools/strength/ladder.py OUTDIR [ANCHOR=R1024] [ANCHOR_ELO=1500]

Reads every OUTDIR/A-B.log (xqmatch summaries "A vs B: N games, W w L l D d"), turns each score into
an Elo difference (-400 log10(1/s - 1); a one-sided score is counted as 0.5 game won or lost, so the
difference stays finite, and said) with its 95% error as xqmatch reports it (half the Elo width of
score +- 1.96 standard errors; where that interval leaves 0..1, the slope of the Elo curve at the score
times 1.96 standard errors), then fits one rating per player to all the differences by weighted least
squares with the anchor fixed. On a tree of pairings a player's error is the root of the sum of the
squares of the errors on its path to the anchor.
"""
import glob
import math
import os
import re
import sys

LINE = re.compile(r"^(\S+) vs (\S+): (\d+) games, W (\d+) L (\d+) D (\d+)")


def elo(score):
    """Elo difference of a score fraction."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def match_result(w, l, d):
    """Elo difference, its 95% error and a note, from wins, losses and draws."""
    n = w + l + d
    note = ""
    if w + d / 2 in (0, n):
        note = " (one-sided: counted as half a game less)"
        w, l = (w + 0.5, l - 0.5) if w + d / 2 == 0 else (w - 0.5, l + 0.5)
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n
    dev = 1.96 * math.sqrt(var / n)
    lo, hi = s - dev, s + dev
    if lo <= 0 or hi >= 1:  # as xqmatch: no finite interval; use the slope at s instead, and say so
        note += " (interval beyond 0..1: error from the slope at the score)"
        return elo(s), dev * 400.0 / (math.log(10) * s * (1 - s)), note
    return elo(s), (elo(hi) - elo(lo)) / 2, note


def solve(players, edges, anchor, anchor_elo):
    """Weighted least squares over the pairings (weights 1/sigma^2), the anchor fixed: ratings and 95%
    errors from the inverse of the normal matrix (on a tree of pairings: the errors summed along the path)."""
    free = [p for p in players if p != anchor]
    idx = {p: i for i, p in enumerate(free)}
    n = len(free)
    a = [[0.0] * n for _ in range(n)]
    rhs = [0.0] * n
    for x, y, diff, err in edges:  # rating(x) - rating(y) = diff
        w = (1.96 / err) ** 2
        for p, q, sign in ((x, y, 1.0), (y, x, -1.0)):
            if p == anchor:
                continue
            i = idx[p]
            a[i][i] += w
            rhs[i] += sign * w * diff
            if q == anchor:
                rhs[i] += w * anchor_elo
            else:
                a[i][idx[q]] -= w
    inv = invert(a)
    ratings = {anchor: (anchor_elo, 0.0)}
    for p, i in idx.items():
        ratings[p] = (sum(inv[i][j] * rhs[j] for j in range(n)), 1.96 * math.sqrt(inv[i][i]))
    return ratings


def invert(m):
    """Gauss-Jordan inverse of a small square matrix."""
    n = len(m)
    aug = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(aug[r][c]))
        aug[c], aug[piv] = aug[piv], aug[c]
        pv = aug[c][c]
        aug[c] = [v / pv for v in aug[c]]
        for r in range(n):
            if r != c and aug[r][c]:
                f = aug[r][c]
                aug[r] = [v - f * w for v, w in zip(aug[r], aug[c])]
    return [row[n:] for row in aug]


def main():
    out = sys.argv[1]
    anchor = sys.argv[2] if len(sys.argv) > 2 else "R1024"
    anchor_elo = float(sys.argv[3]) if len(sys.argv) > 3 else 1500.0
    edges, players = [], set()
    for path in sorted(glob.glob(os.path.join(out, "*.log"))):
        for line in open(path):
            m = LINE.match(line.strip())
            if m:
                a, b = m.group(1), m.group(2)
                w, l, d = int(m.group(4)), int(m.group(5)), int(m.group(6))
                diff, err, note = match_result(w, l, d)
                print(f"{a} vs {b}: W {w} L {l} D {d}: {diff:+.0f} +/- {err:.0f}{note}")
                edges.append((a, b, diff, err))
                players.update((a, b))
    ratings = solve(sorted(players), edges, anchor, anchor_elo)
    print(f"\nscale: {anchor} = {anchor_elo:.0f} (least squares over all pairings)")
    for p, (r, e) in sorted(ratings.items(), key=lambda kv: kv[1][0]):
        print(f"{p:8s} {r:6.0f} +/- {e:.0f}")


if __name__ == "__main__":
    main()
