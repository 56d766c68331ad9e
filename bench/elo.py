#!/usr/bin/env python3
"""Elo difference, its 95% error and LOS of a W-L-D result, as xqmatch prints them for one match.

Usage: python3 bench/elo.py W L D   (e.g. the sum of several matches' W, L and D, to pool them)
"""
import math
import sys


def elo(score):
    """Elo difference of an expected score."""
    return -400 * math.log10(1 / score - 1)


def main(argv):
    """Prints games, score, Elo +/- the 95% error (trinomial) and LOS."""
    if len(argv) != 4 or not all(a.isdigit() for a in argv[1:]):
        sys.exit("usage: elo.py W L D")
    w, l, d = map(int, argv[1:])
    n = w + l + d
    s = (w + 0.5 * d) / n if n else 0
    if s <= 0 or s >= 1:
        sys.exit("error: the score must be strictly between 0 and 1")
    var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n
    err = 1.96 * math.sqrt(var / n)
    half = (elo(min(s + err, 1 - 1e-9)) - elo(max(s - err, 1e-9))) / 2
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))) if w + l else 0.5
    print(f"{n} games, W {w} L {l} D {d}, score {100 * s:.1f}%, {elo(s):+.1f} +/- {half:.1f} Elo (95%), "
          f"LOS {100 * los:.1f}%")


if __name__ == "__main__":
    main(sys.argv)
