#!/usr/bin/env python3
"""make_seeds.py - writes the seed corpora fuzz/corpus/{fen,move,rules,protocol}/seed-*
from the test data (tests/data) and a few hand-written protocol sessions. Crash inputs
found by fuzzing are added next to them (crash-*) and never overwritten by this script."""
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'tests', 'data')
START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'


def write(kind, name, text):
    d = os.path.join(HERE, 'corpus', kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'seed-' + name), 'w') as f:
        f.write(text)


def data_lines(name):
    with open(os.path.join(DATA, name)) as f:
        return [l.rstrip('\n') for l in f if l.strip() and not l.startswith('#')]


def main():
    for old in glob.glob(os.path.join(HERE, 'corpus', '*', 'seed-*')):
        os.remove(old)
    fens = []
    for name in ('perft.epd', 'rules.epd', 'fen_validity.epd', 'material.epd', 'tactics.epd'):
        for i, line in enumerate(data_lines(name)):
            fens.append((name.split('.')[0] + '-%03d' % i, line.split(';')[0].strip()))
    for key, fen in fens:
        write('fen', key, fen)
    for key, text in [('empty', ''), ('startpos', START), ('short', 'rnbakabnr/9 w'),
                      ('tail-dashes', START.replace(' - - 0 1', ' -- 0 1')), ('black', START.replace(' w ', ' b ')),
                      ('ten-files', 'rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w'),
                      ('digits', '9/9/9/9/9/9/9/9/9/9 w'), ('big-counter', START.replace('0 1', '99999 65536'))]:
        write('fen', key, text)
    # move and rules: a FEN line, then moves
    for i, line in enumerate(data_lines('rulings.txt')):
        parts = [p.strip() for p in line.split('|')]
        write('rules', 'ruling-%03d' % i, parts[0] + '\n' + parts[1] + '\n')
        if i % 3 == 0:
            write('move', 'ruling-%03d' % i, parts[0] + '\n' + parts[1] + '\n')
    write('rules', 'bytes', START + '\n' + 'abcdefghijklmnopqrstuvwxyz' * 4 + '\n')
    write('rules', 'shuffle', START + '\nh2e2 h9g7 h0g2 g7h9 g2h0 h9g7 h0g2 g7h9 g2h0\n')
    write('move', 'start', START + '\nh2e2 h9g7 H0G2 i9h9 i0h0 b9c7 e2e6 x1y2 h2e2 a0a1a 0000 e2e6\n')
    write('move', 'junk', 'not a fen\nh2e2 \t h9g7\r\n\x00\xff b0c2\n')
    # protocol sessions, both dialects
    fen = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
    sessions = {
        'ucci-game': ['ucci', 'setoption usemillisec true', 'setoption hashsize 4', 'setoption newgame',
                      'isready', 'position fen %s moves h2e2 h9g7' % fen, 'go time 1000 increment 10',
                      'position fen %s moves h2e2 h9g7 h0g2' % fen, 'banmoves i9h9', 'go depth 3',
                      'probe fen %s moves h2e2' % fen, 'd', 'quit'],
        'ucci-ponder': ['ucci', 'setoption ponder true', 'position startpos moves h2e2',
                        'go ponder time 500 increment 0', 'ponderhit', 'go ponder time 500', 'stop',
                        'go ponder time 200 draw', 'ponderhit draw', 'stop'],
        'ucci-batch': ['ucci', 'setoption batch true', 'go depth 2', 'isready', 'stop', 'go infinite', 'stop',
                       'bye', 'quit'],
        'uci-game': ['uci', 'setoption name Hash value 4', 'setoption name Repetition Rule value check-only',
                     'ucinewgame', 'isready', 'position startpos moves h2e2 h9g7',
                     'go wtime 1000 btime 1000 winc 10 binc 10', 'go movetime 10', 'go nodes 500',
                     'go mate 2', 'go searchmoves h0g2 b0c2 depth 4', 'go perft 2', 'quit'],
        'uci-infinite': ['uci', 'position startpos', 'go infinite', 'isready', 'stop', 'go', 'stop',
                         'go ponder wtime 100 btime 100', 'ponderhit', 'position startpos moves h2e2 h7h0',
                         'go depth 0', 'setoption name Clear Hash', 'setoption name MultiPV value 9'],
        'malformed': ['position fen', 'position fen 9/9 w moves', 'go depth -1', 'go nodes x',
                      'setoption', 'setoption name', 'banmoves zz', 'go', 'position startpos moves e9e8',
                      'go depth 2', '\tucci  ', 'position\tstartpos  moves\th2e2\r', 'go wtime -5 btime -5',
                      'stop', '\x00\x01\xff', 'go perft 99', 'fen ' + fen + ' moves h2e2', 'startpos', 'd'],
        'deferred': ['uci', 'go depth 5', 'position startpos moves h2e2', 'go depth 3', 'stop', 'go infinite',
                     'stop', 'ponderhit', 'quit', 'go depth 1'],
        'mate': ['ucci', 'position fen 3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1', 'go depth 3',
                 'position fen 4k4/R8/9/9/9/9/9/9/1R7/3K5 b - - 0 1', 'go depth 4',
                 'position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1', 'go draw depth 3', 'setoption rules check-only'],
    }
    for key, lines in sessions.items():
        write('protocol', key, '\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
