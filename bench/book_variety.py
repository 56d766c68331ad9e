#!/usr/bin/env python3
"""book_variety.py GAMES.pgn [PLIES...] - how varied the games of a PGN file are: the number of distinct
games (whole move sequences) and of distinct openings (the first PLIES plies; default 6, 10 and 20),
overall and per 100 games. Reads the xqbase PGN conventions xqmatch writes (moves "H2-E2")."""
import re
import sys


def games(path):
    """The move lists of the file's games, in order."""
    out, moves, in_moves = [], [], False
    for line in open(path, encoding='utf-8', errors='replace'):
        if line.startswith('['):
            if in_moves:
                out.append(moves)
                moves, in_moves = [], False
            continue
        text = re.sub(r'\{[^}]*\}', ' ', line)
        found = re.findall(r'\b[A-Ia-i][0-9]-[A-Ia-i][0-9]\b', text)
        if found:
            in_moves = True
            moves.extend(m.lower() for m in found)
    if in_moves:
        out.append(moves)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    g = games(sys.argv[1])
    plies = [int(p) for p in sys.argv[2:]] or [6, 10, 20]
    n = len(g)
    print('%d games, %d distinct (%.0f in 100)' % (n, len({tuple(x) for x in g}), 100.0 * len({tuple(x) for x in g}) / max(n, 1)))
    for p in plies:
        d = len({tuple(x[:p]) for x in g})
        print('distinct first %d plies: %d (%.0f in 100)' % (p, d, 100.0 * d / max(n, 1)))


if __name__ == '__main__':
    main()
