#!/usr/bin/env python3
"""isready_latency.py - isready latency during long commands (issue 27): for each long command, 50 isready
round trips through a pipe to the engine, 10 ms apart; prints the median and the slowest.

Usage: bench/isready_latency.py [JIANGJUN]   (default build/jiangjun)
"""
import statistics
import subprocess
import sys
import time

LONG_COMMANDS = ["go perft 9", "go infinite", "setoption name Hash value 4096\nucinewgame"]
PROBES = 50
PAUSE_S = 0.01


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else "build/jiangjun"
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            if line.startswith(prefix):
                return line

    send("uci")
    until("uciok")
    for cmd in LONG_COMMANDS:
        send(cmd)
        ms = []
        for _ in range(PROBES):
            t0 = time.perf_counter()
            send("isready")
            until("readyok")
            ms.append((time.perf_counter() - t0) * 1000)
            time.sleep(PAUSE_S)
        print("%-45s median %.2f ms, slowest %.2f ms over %d" % (repr(cmd), statistics.median(ms), max(ms), PROBES))
        send("stop")
        send("isready")
        until("readyok")
    send("quit")
    p.wait()


if __name__ == "__main__":
    main()
