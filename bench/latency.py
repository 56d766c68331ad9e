#!/usr/bin/env python3
"""The protocol latencies the tests only bound loosely (tests/enginepipe.h, EP_LOAD_SLACK_MS), measured.

usage: bench/latency.py JIANGJUN [ROUNDS]   (default 20 rounds)

Over UCI, for each round: how long after the command the answer comes for
  go depth 1        the iteration every stop waits for
  go wtime 60       a 60 ms clock (the engine must answer well inside it)
  go movetime 100   a fixed 100 ms (the overrun is the answer time - 100)
  stop              during go infinite (the bestmove)
  isready           during go infinite (the readyok)
and prints the median, the 90th percentile and the maximum of each in ms. On a loaded machine the figures
include its stalls: say how loaded it was (uptime) with the figures.
"""
import os
import select
import statistics
import subprocess
import sys
import time

START = "position startpos moves h2e2 h7e7"
SEARCH_MS = 100  # how long the infinite searches run before the command


def now_ms():
    return time.monotonic() * 1000.0


class Engine:
    """The engine behind pipes, read a line at a time."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.buf = b""

    def send(self, line):
        self.p.stdin.write((line + "\n").encode())

    def wait_for(self, prefix, timeout_ms=10000):
        """Reads until a line starting with prefix; returns the time it arrived (ms)."""
        deadline = now_ms() + timeout_ms
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if line.decode(errors="replace").startswith(prefix):
                    return now_ms()
            left = deadline - now_ms()
            if left <= 0 or not select.select([self.p.stdout], [], [], left / 1000.0)[0]:
                sys.exit("no '%s' within %d ms" % (prefix, timeout_ms))
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                sys.exit("the engine exited")
            self.buf += chunk

    def ready(self):
        self.send("isready")
        self.wait_for("readyok")

    def timed(self, command, answer):
        """Sends command and returns the ms until the line starting with answer."""
        t0 = now_ms()
        self.send(command)
        return self.wait_for(answer) - t0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    e = Engine(sys.argv[1])
    e.send("uci")
    e.wait_for("uciok")
    e.ready()
    got = {"go depth 1": [], "go wtime 60": [], "go movetime 100": [], "stop": [], "isready": []}
    for _ in range(rounds):
        for go in ("go depth 1", "go wtime 60 btime 60", "go movetime 100"):
            e.send(START)
            e.ready()
            got[go.split(" btime")[0]].append(e.timed(go, "bestmove"))
        for command, answer in (("stop", "bestmove"), ("isready", "readyok")):
            e.send(START)
            e.ready()
            e.send("go infinite")
            time.sleep(SEARCH_MS / 1000.0)
            got[command].append(e.timed(command, answer))
            if command != "stop":
                e.send("stop")
                e.wait_for("bestmove")
    e.send("quit")
    e.p.wait()
    print("%-16s %8s %8s %8s  (ms, %d rounds)" % ("command", "median", "p90", "max", rounds))
    for name, values in got.items():
        values.sort()
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        print("%-16s %8.1f %8.1f %8.1f" % (name, statistics.median(values), p90, values[-1]))


if __name__ == "__main__":
    main()
