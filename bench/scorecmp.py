#!/usr/bin/env python3
"""scorecmp.py - two engines' scores over the same games, from xqmatch logs (-log FILE).

Usage: bench/scorecmp.py ENGINE OPPONENT LOG [LOG ...]

Pairs each search of ENGINE with the OPPONENT's search one ply earlier (the search whose move left the
position ENGINE searched; a position that recurs counts once, its last searches), both scores in ENGINE's view
(the opponent's negated), each the last `info ... score` before the `bestmove`. Prints the number of pairs,
their correlation, the median |score| of each, the least-squares slope of ENGINE's score on the opponent's,
and the same for the pairs where both scores stay within +-LIMIT centipawns (mates and near-mates left out).
Then one line per resignation of ENGINE (UCCI `bestmove ... resign`): its last scores before it and the
opponent's last score. Scores are in each engine's own units: Jiangjun prints its internal units, Pikafish
and Stockfish a normalised centipawn.
"""
import re
import statistics
import sys

LINE = re.compile(r"^(\d+) (\S+)#(\d+) ([<>*]{1,2}) ?(.*)$")
LIMIT = 3000  # centipawns: larger scores (and mates) are left out of the second set of figures
MATE_CP = 30000  # a `score mate N` counts as this many centipawns


def score_of(info):
    """The score of an `info` line (cp, mate, or UCCI's bare number), or None."""
    w = info.split()
    if "score" not in w:
        return None
    i = w.index("score")
    try:
        if w[i + 1] == "cp":
            return int(w[i + 2])
        if w[i + 1] == "mate":
            return MATE_CP if not w[i + 2].startswith("-") else -MATE_CP
        return int(w[i + 1])
    except (IndexError, ValueError):
        return None


def parse(paths, engine, opponent):
    """Per engine name: {position key: last score before the bestmove}, keyed by the position ENGINE searched
    and by the one the OPPONENT's move left, and ENGINE's resignations [(position line, its last scores, newest
    first)]."""
    found = {engine: {}, opponent: {}}
    resigns = []
    for path in paths:
        position, last, history = {}, {}, {}
        with open(path, errors="replace") as f:
            for raw in f:
                m = LINE.match(raw.rstrip("\n"))
                if not m:
                    continue
                _, name, pid, direction, text = m.groups()
                if name not in found:
                    continue
                proc = (name, pid)
                if direction == "<" and text.startswith("position"):
                    position[proc], last[proc] = text.strip(), None
                elif direction == ">" and text.startswith("info") and " pv " in text:
                    s = score_of(text)
                    if s is not None:
                        last[proc] = s
                elif direction == ">" and text.startswith("bestmove") and proc in position:
                    words = text.split()
                    move = words[1] if len(words) > 1 else None
                    key = board_after(position[proc], move if name == opponent else None)
                    if last[proc] is not None and key is not None:
                        found[name][key] = last[proc]
                        history.setdefault(proc, []).append(last[proc])
                    if name == engine and words[-1] == "resign":
                        resigns.append((position[proc], list(reversed(history.get(proc, [])[-4:]))))
    return found, resigns


START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


def board_after(position, extra=None):
    """The placement and side to move after a `position` line's moves (and `extra`, a move, if given): the same
    key whether the line is `startpos moves ...` (UCI) or the FEN of the last capture and the moves since (UCCI).
    None if the line cannot be read."""
    w = position.split()
    try:
        if w[1] == "startpos":
            fen = START.split()
        else:
            fen = w[2:4]
        moves = w[w.index("moves") + 1:] if "moves" in w else []
        rows = []
        for rank in fen[0].split("/"):
            row = []
            for c in rank:
                row.extend(["."] * int(c) if c.isdigit() else [c])
            rows.append(row)  # rows[0] is rank 9
        side = fen[1]
        for mv in moves + ([extra] if extra else []):
            ff, fr, tf, tr = ord(mv[0]) - 97, int(mv[1]), ord(mv[2]) - 97, int(mv[3])
            rows[9 - tr][tf], rows[9 - fr][ff] = rows[9 - fr][ff], "."
            side = "b" if side in "wr" else "w"
        return "".join("".join(r) for r in rows) + " " + ("b" if side == "b" else "w")
    except (IndexError, ValueError):
        return None


def summary(pairs, label):
    """Prints the figures of a list of (engine score, opponent score in engine's view)."""
    if len(pairs) < 3:
        print("%s: %d pairs (too few)" % (label, len(pairs)))
        return
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    r = statistics.correlation(a, b) if statistics.pstdev(a) and statistics.pstdev(b) else float("nan")
    slope = sum(x * y for x, y in pairs) / max(1, sum(y * y for y in b))
    print("%s: %d pairs, correlation %.2f, median |score| %d against %d, slope %.2f" %
          (label, len(pairs), r, statistics.median(abs(x) for x in a), statistics.median(abs(y) for y in b), slope))


def main(argv):
    """Reads the logs and prints the comparison."""
    if len(argv) < 4:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    engine, opponent, paths = argv[1], argv[2], argv[3:]
    found, resigns = parse(paths, engine, opponent)
    pairs = []
    for key, s in found[engine].items():
        if key in found[opponent]:
            pairs.append((s, -found[opponent][key]))
    summary(pairs, "all")
    summary([(x, y) for x, y in pairs if abs(x) <= LIMIT and abs(y) <= LIMIT], "within %d" % LIMIT)
    for position, mine in resigns:
        key = board_after(position)
        theirs = -found[opponent][key] if key in found[opponent] else None
        print("resign: %s's last scores %s; %s's last %s (%s's view)" %
              (engine, " ".join(str(s) for s in mine), opponent, theirs, engine))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
