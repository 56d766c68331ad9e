#!/usr/bin/env python3
"""rulescores.py - how often a UCCI engine's searches ended on a repetition ruling, from xqmatch logs (-log FILE).

Usage: bench/rulescores.py ENGINE LOG [LOG ...]

For each search of ENGINE (its last `info ... score` before the `bestmove`), counts the scores in UCCI's ban band,
+-(9900 - plies) with plies below 128 (Jiangjun's form of a repetition ruling: a forbidden perpetual of the
other side when positive, of its own when negative), and the games (engine processes) with at least one. A
positive ruling at the root that the game does not end on is a win the engine counted on and did not get: the
other side left the cycle.
"""
import sys

from scorecmp import LINE, score_of

UCCI_BAN = 9900   # ElephantEye's BAN_VALUE, Jiangjun's UCCI ban score at ply 0
MAX_PLY = 128     # the band's width


def main(argv):
    """Reads the logs and prints the counts."""
    if len(argv) < 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    engine, paths = argv[1], argv[2:]
    searches, wins, losses = 0, 0, 0
    games, games_win, games_loss = set(), set(), set()
    for path in paths:
        last = {}
        with open(path, errors="replace") as f:
            for raw in f:
                m = LINE.match(raw.rstrip("\n"))
                if not m or m.group(2) != engine:
                    continue
                _, name, pid, direction, text = m.groups()
                proc = (path, pid)
                if direction == ">" and text.startswith("info"):
                    s = score_of(text)
                    if s is not None:
                        last[proc] = s
                elif direction == ">" and text.startswith("bestmove"):
                    s = last.pop(proc, None)
                    if s is None:
                        continue
                    searches += 1
                    games.add(proc)
                    if UCCI_BAN - MAX_PLY < s <= UCCI_BAN:
                        wins += 1
                        games_win.add(proc)
                    elif -UCCI_BAN <= s < -UCCI_BAN + MAX_PLY:
                        losses += 1
                        games_loss.add(proc)
    print("%s: %d searches in %d games" % (engine, searches, len(games)))
    print("  ended on a ruling for it:     %d searches in %d games" % (wins, len(games_win)))
    print("  ended on a ruling against it: %d searches in %d games" % (losses, len(games_loss)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
