#!/usr/bin/env python3
"""compare_nps.py - search node rate and depth reached of engines on the same positions.

Usage: bench/compare_nps.py [--movetime MS] [--runs N] [--positions FILE] [--count K] PROTO:ENGINE...
  PROTO: ucci, uci (ranks 0-9) or uci10 (UCI_Variant xiangqi, ranks 1-10).
Each engine searches each of the first K positions of the file (EPD/FEN lines,
default tests/data/bench_positions.epd) for MS milliseconds, RUNS times,
interleaved engine by engine; the node rate of a search is nodes / time from
its last `info` line that has both. Prints the exact commands sent, each
engine's per-run rates (total nodes / total time) and their median, and the
ratio of every engine's median to the first one's, and the median over all searches of the depth
reached (the last `info depth` line with a pv and no lowerbound/upperbound: a completed iteration).
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def talk(path, proto, lines, until):
    """Runs a session; returns the output lines."""
    # a relative path made absolute (it would be looked for from the cwd given here); a bare name still uses PATH
    exe = os.path.abspath(path) if os.sep in path else path
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=os.path.dirname(path) or ".")
    out = []

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait(word):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("%s exited" % path)
            line = line.strip()
            out.append(line)
            if line.split(" ")[:1] == [word]:
                return

    send("ucci" if proto == "ucci" else "uci")
    wait("ucciok" if proto == "ucci" else "uciok")
    if proto == "uci10":
        send("setoption name UCI_Variant value xiangqi")
    if proto == "ucci":
        send("setoption usemillisec true")
    for line in lines:
        send(line)
        if line.startswith("go"):
            wait(until)
    send("quit")
    p.wait()
    return out


def rate(path, proto, fens, movetime, depths):
    """Total nodes / total ms over the positions, in nodes per second; each search's depth goes to depths."""
    nodes = ms = 0
    for fen in fens:
        go = "go time %d movestogo 1" % movetime if proto == "ucci" else "go movetime %d" % movetime
        out = talk(path, proto, ["position fen " + fen, go], "bestmove")
        last = None
        depth = 0
        for line in out:
            t = line.split()
            if t[:1] == ["info"] and "nodes" in t and "time" in t:
                last = (int(t[t.index("nodes") + 1]), int(t[t.index("time") + 1]))
            if t[:2] == ["info", "depth"] and "pv" in t and "lowerbound" not in t and "upperbound" not in t:
                depth = int(t[2])
        depths.append(depth)
        if last:
            nodes += last[0]
            ms += max(last[1], 1)
    return nodes * 1000.0 / ms if ms else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--movetime", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--positions", default=os.path.join(HERE, "..", "tests", "data", "bench_positions.epd"))
    ap.add_argument("engines", nargs="+")
    a = ap.parse_args()
    fens = []
    for line in open(a.positions):
        line = line.split("#")[0].strip()
        if line:
            fens.append(line.split(";")[0].strip())
    fens = fens[:a.count]
    specs = [e.split(":", 1) for e in a.engines]
    for proto, path in specs:
        go = "go time %d movestogo 1" % a.movetime if proto == "ucci" else "go movetime %d" % a.movetime
        print("command: %s  <- %s; per position: position fen <FEN>; %s" % (path, proto, go))
    rates = {path: [] for _, path in specs}
    depths = {path: [] for _, path in specs}
    for _ in range(a.runs):
        for proto, path in specs:
            rates[path].append(rate(path, proto, fens, a.movetime, depths[path]))
    base = statistics.median(rates[specs[0][1]])
    for proto, path in specs:
        med = statistics.median(rates[path])
        print("%s: runs %s nodes/s; median %.0f nodes/s; ratio to %s %.3f; median depth %s over %d searches" % (
            path, " ".join("%.0f" % r for r in rates[path]), med, os.path.basename(specs[0][1]),
            med / base if base else 0.0, statistics.median(depths[path]), len(depths[path])))


if __name__ == "__main__":
    main()
