#!/usr/bin/env python3
"""make_openings.py - build an opening set for xqmatch with a UCI xiangqi engine.

Method (random but sane, then balanced):
  1. From the start position, play N plies (N drawn from --min-plies..--max-plies).
     At each ply the engine searches with MultiPV (--multipv lines, --pick-depth);
     one move is drawn at random among those scoring within --window cp of the best.
  2. The final position is searched to --judge-depth; it is kept only if
     |score| <= --balance cp (side to move's view) and it was not seen before.
Output: one line per opening, "<start FEN> moves m1 m2 ...", preceded by a
comment header recording the engine, the parameters and the seed.

The engine must speak the xiangqi UCI dialect (ranks 0-9), e.g. Pikafish:
  python3 make_openings.py --engine /path/to/pikafish --count 200 --seed 1 > openings.txt
"""
import argparse
import random
import subprocess
import sys

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


class Engine:
    """A UCI engine process."""

    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine exited")
            line = line.strip()
            lines.append(line)
            if line.split(" ")[:1] == [word]:
                return lines

    def search(self, moves, depth, multipv):
        """Returns [(score_cp, move)] for the final depth, best first."""
        self.send("setoption name MultiPV value %d" % multipv)
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go depth %d" % depth)
        best = {}
        for line in self.wait("bestmove"):
            t = line.split()
            if not t or t[0] != "info" or "pv" not in t or "score" not in t:
                continue
            k = t.index("score")
            if t[k + 1] == "cp":
                sc = int(t[k + 2])
            else:
                m = int(t[k + 2])
                sc = 30000 - m if m > 0 else -30000 - m
            pv = t[t.index("pv") + 1]
            mpv = int(t[t.index("multipv") + 1]) if "multipv" in t else 1
            best[mpv] = (sc, pv)
        return [best[k] for k in sorted(best)]

    def quit(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=10)
    ap.add_argument("--multipv", type=int, default=6)
    ap.add_argument("--pick-depth", type=int, default=7)
    ap.add_argument("--window", type=int, default=40)
    ap.add_argument("--judge-depth", type=int, default=12)
    ap.add_argument("--balance", type=int, default=60)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    eng = Engine(a.engine)
    print("# xqmatch opening set: %d openings, made by tools/xqmatch/openings/make_openings.py" % a.count)
    print("# engine %s; seed %d; %d-%d random plies, each drawn among MultiPV %d moves at depth %d"
          " within %d cp of the best;" % (a.engine.split("/")[-1], a.seed, a.min_plies, a.max_plies,
                                         a.multipv, a.pick_depth, a.window))
    print("# kept if |score| <= %d cp at depth %d (side to move's view); the score ends each line." %
          (a.balance, a.judge_depth))
    seen = set()
    tries = 0
    while len(seen) < a.count and tries < a.count * 20:
        tries += 1
        moves = []
        for _ in range(rng.randint(a.min_plies, a.max_plies)):
            lines = eng.search(moves, a.pick_depth, a.multipv)
            if not lines:
                break
            top = lines[0][0]
            sane = [mv for sc, mv in lines if sc >= top - a.window]
            moves.append(rng.choice(sane))
        key = " ".join(moves)
        if key in seen:
            continue
        judged = eng.search(moves, a.judge_depth, 1)
        if not judged or abs(judged[0][0]) > a.balance:
            continue
        seen.add(key)
        print("%s moves %s  # %+d cp" % (START_FEN, key, judged[0][0]), flush=True)
    eng.quit()


if __name__ == "__main__":
    main()
