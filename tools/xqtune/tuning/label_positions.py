#!/usr/bin/env python3
"""label_positions.py - scores tuning positions with a UCI xiangqi engine (ranks 0-9, as Pikafish).

usage: label_positions.py ENGINE DEPTH IN.txt OUT.txt [WORKERS]

IN.txt has one `FEN;result` line per position (the output of `xqtune extract`). Each position is
searched to DEPTH and OUT.txt gets `FEN;result;cp` with cp the engine's score from red's side
(mates as +-MATE_CP). Positions are split over WORKERS engine processes (default 2); the output
order follows the input. A position the engine fails on is dropped and counted on stderr.
Use make_targets (below, `--targets`) to turn OUT.txt into `FEN;target` lines for `xqtune tune`.
"""
import math
import subprocess
import sys
import threading

MATE_CP = 3000


def search_all(engine, depth, lines, results, start, step):
    """Scores lines[start::step] with one engine process into results."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(cmd):
        p.stdin.write(cmd + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        last = None
        for out in p.stdout:
            if out.startswith("info") and " score " in out and "bound" not in out:
                last = out
            if out.startswith(prefix):
                return last
        return None

    send("uci")
    wait_for("uciok")
    send("isready")
    wait_for("readyok")
    for i in range(start, len(lines), step):
        fen = lines[i].rsplit(";", 1)[0]
        send("position fen " + fen)
        send("go depth %d" % depth)
        info = wait_for("bestmove")
        if not info:
            continue
        t = info.split()
        k = t.index("score")
        cp = int(t[k + 2])
        if t[k + 1] == "mate":
            cp = MATE_CP if cp > 0 else -MATE_CP
        if fen.split()[1] == "b":
            cp = -cp  # red's view
        results[i] = cp
    send("quit")
    p.wait()


def label(engine, depth, src, dst, workers):
    """Runs the workers and writes FEN;result;cp lines."""
    with open(src) as f:
        lines = [l.strip() for l in f if l.strip()]
    results = [None] * len(lines)
    threads = [threading.Thread(target=search_all, args=(engine, depth, lines, results, w, workers))
               for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    dropped = 0
    with open(dst, "w") as out:
        for line, cp in zip(lines, results):
            if cp is None:
                dropped += 1
                continue
            out.write("%s;%d\n" % (line, cp))
    print("labelled %d positions, dropped %d" % (len(lines) - dropped, dropped), file=sys.stderr)


def make_targets(src, dst, scale, weight):
    """FEN;result;cp -> FEN;target with target = weight * sigmoid(cp / scale) + (1 - weight) * result."""
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            fen, result, cp = line.strip().rsplit(";", 2)
            p = 1.0 / (1.0 + math.exp(-int(cp) / scale))
            out.write("%s;%.4f\n" % (fen, weight * p + (1 - weight) * float(result)))


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--targets":
        # label_positions.py --targets LABELLED.txt OUT.txt SCALE WEIGHT
        make_targets(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
    elif len(sys.argv) in (5, 6):
        label(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]) if len(sys.argv) == 6 else 2)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
