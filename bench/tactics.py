#!/usr/bin/env python3
"""tactics.py - how many best-move tactics an engine plays at a node budget.

Usage: bench/tactics.py ENGINE NODES [true|false] [EPD]

For each line of EPD (tests/data/tactics.epd by default) with a `;bm MOVE` and no `;dm`: `ucinewgame`, the
position, `go nodes NODES`, and a point when the engine's bestmove is MOVE. The third argument sets the UCI
option `Use NNUE` (true: the network, the default; false: the hand-crafted evaluation). Prints
`ENGINE NODES NNUE SOLVED / TOTAL` (positions the engine refuses as invalid FENs are counted apart) and each
unsolved position. The ctest test_search runs the same positions with the hand-crafted evaluation at its own
budget.
"""
import os
import re
import subprocess
import sys


def main(argv):
    """Plays every tactic once and prints the count."""
    if len(argv) < 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    engine, nodes = argv[1], argv[2]
    nnue = argv[3] if len(argv) > 3 else "true"
    epd = argv[4] if len(argv) > 4 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "tactics.epd")
    lines = [l for l in open(epd) if ";bm" in l and ";dm" not in l]
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        """Writes one command line to the engine."""
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(*prefixes):
        """The engine's next line that starts with one of the prefixes."""
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("%s: the engine stopped" % engine)
            if line.startswith(prefixes):
                return line

    send("uci")
    send("setoption name Use NNUE value %s" % nnue)
    send("isready")
    wait("readyok")
    solved = refused = 0
    for line in lines:
        fen = line.split(";")[0].strip()
        best = re.search(r";bm (\S+)", line).group(1)
        send("ucinewgame")
        send("position fen " + fen)
        send("isready")
        if "bad FEN" in wait("readyok", "info string error"):
            refused += 1  # a few positions of the file cannot occur in a game (the tests skip them too)
            wait("readyok")
            continue
        send("go nodes " + nodes)
        got = wait("bestmove").split()[1]
        if got == best:
            solved += 1
        else:
            print("unsolved: %s bm %s got %s" % (fen, best, got))
    print(engine, nodes, nnue, solved, "/", len(lines) - refused, "(%d refused as invalid)" % refused)
    send("quit")
    p.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
