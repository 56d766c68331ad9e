#!/usr/bin/env python3
"""timeuse.py - time use per move over whole games, from xqmatch logs (-log FILE).

Usage: bench/timeuse.py BASE_S INC_S LOG [LOG ...]

For each engine: the median and mean thinking time per move by game move number (fullmove, 10 a bucket),
the share of the clock used by moves 20, 40 and 60 (thinking time of the engine's moves up to that
fullmove number over BASE + that many increments, for games that got there), the smallest clock left
before a move, and how many moves took longer than the time left (a time loss). Thinking time is the
time from the `go` the match runner sent to the `bestmove` it read, both stamped in the log.
"""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^(\d+) (\S+) ([<>*]{1,2}) ?(.*)$")
BUCKET = 10
MARKS = (20, 40, 60)


def side_and_fullmove(position_line):
    """Side to move ('w' or 'b') and fullmove number after a `position ...` command."""
    words = position_line.split()
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    if words[1] == "startpos":
        side, full = "w", 1
    else:
        fen = words[2:8]
        side = "b" if len(fen) > 1 and fen[1] == "b" else "w"
        full = int(fen[5]) if len(fen) > 5 and fen[5].isdigit() else 1
    for _ in moves:
        if side == "b":
            full += 1
        side = "b" if side == "w" else "w"
    return side, full


def own_clock(go_line, side):
    """The engine's own clock in ms from a `go` command (UCCI time / UCI wtime-btime), or None."""
    w = go_line.split()
    def val(key):
        return int(w[w.index(key) + 1]) if key in w else None
    if "time" in w:
        return val("time")
    return val("wtime" if side == "w" else "btime")


def parse(paths):
    """Per engine name: list of games (an engine process each), each a list of (fullmove, clock_ms, used_ms).
    A log line names its process NAME#PID (xqmatch since the games-at-once fix), so concurrent games stay
    apart; older logs name only the engine and must come from one game at a time."""
    games = defaultdict(list)
    for path in paths:
        current = {}  # process -> (position side, fullmove, go time, clock)
        open_game = {}
        with open(path, errors="replace") as f:
            for raw in f:
                m = LINE.match(raw.rstrip("\n"))
                if not m:
                    continue
                ts, name, direction, text = int(m.group(1)), m.group(2), m.group(3), m.group(4)
                if direction == "**":
                    if name in open_game and open_game[name]:
                        games[name].append(open_game[name])
                    open_game[name] = []
                    continue
                if direction == "<" and text.startswith("position "):
                    side, full = side_and_fullmove(text)
                    current[name] = [side, full, None, None]
                elif direction == "<" and text.startswith("go") and name in current:
                    cur = current[name]
                    cur[2] = ts
                    cur[3] = own_clock(text, cur[0])
                elif direction == ">" and text.startswith("bestmove") and name in current:
                    side, full, start, clock = current.pop(name)
                    if start is not None:
                        open_game.setdefault(name, []).append((full, clock, ts - start))
        for name, g in open_game.items():
            if g:
                games[name].append(g)
    by_engine = defaultdict(list)
    for proc, gl in games.items():
        by_engine[proc.split("#")[0]].extend(gl)
    return by_engine


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    base_ms, inc_ms = float(sys.argv[1]) * 1000, float(sys.argv[2]) * 1000
    games = parse(sys.argv[3:])
    for name in sorted(games):
        gl = games[name]
        by_bucket = defaultdict(list)
        clocks, overruns = [], 0
        for g in gl:
            for full, clock, used in g:
                by_bucket[(full - 1) // BUCKET].append(used)
                if clock is not None:
                    clocks.append(clock)
                    overruns += used > clock
        moves = sum(len(g) for g in gl)
        print(f"{name}: {len(gl)} games, {moves} moves, smallest clock before a move "
              f"{min(clocks) if clocks else '-'} ms, moves longer than the clock {overruns}")
        print("  moves    count  median_ms  mean_ms")
        for b in sorted(by_bucket):
            v = by_bucket[b]
            print(f"  {b * BUCKET + 1:3d}-{(b + 1) * BUCKET:<3d}  {len(v):5d}  {statistics.median(v):9.0f}"
                  f"  {statistics.mean(v):7.0f}")
        for mark in MARKS:
            shares = [sum(u for full, _, u in g if full <= mark) / (base_ms + mark * inc_ms)
                      for g in gl if g and g[-1][0] >= mark]
            if shares:
                print(f"  share of the clock used by move {mark}: median {statistics.median(shares):.1%}"
                      f" over {len(shares)} games")


if __name__ == "__main__":
    main()
