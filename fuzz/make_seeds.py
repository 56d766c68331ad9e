#!/usr/bin/env python3
"""make_seeds.py - writes the seed corpora fuzz/corpus/{fen,move,rules,protocol}/seed-* (the book's,
fuzz/corpus/book/book-*, are small books made with xqbook and the tests, kept as they are)
from the test data (tests/data) and a few hand-written protocol sessions of the three dialects
(UCCI, UCI, CECP), and the protocol
fuzzer's dictionary fuzz/protocol.dict (the protocol's words and legal ICCS moves). Crash inputs
found by fuzzing are added next to them (crash-*) and never overwritten by this script."""
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'tests', 'data')
START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'


# The legal moves of the start position, for red and (with black to move) for black.
RED_MOVES = ('e0e1 d0e1 f0e1 c0e2 c0a2 g0i2 g0e2 b0c2 b0a2 h0i2 h0g2 a0a1 a0a2 i0i1 i0i2 b2b3 b2b4 b2b5 '
             'b2b6 b2b9 b2b1 b2c2 b2d2 b2e2 b2f2 b2g2 b2a2 h2h3 h2h4 h2h5 h2h6 h2h9 h2h1 h2i2 h2g2 h2f2 '
             'h2e2 h2d2 h2c2 a3a4 c3c4 e3e4 g3g4 i3i4').split()
BLACK_MOVES = ('e9e8 d9e8 f9e8 c9e7 c9a7 g9i7 g9e7 b9c7 b9a7 h9i7 h9g7 a9a8 a9a7 i9i8 i9i7 b7b8 b7b6 b7b5 '
               'b7b4 b7b3 b7b0 b7c7 b7d7 b7e7 b7f7 b7g7 b7a7 h7h8 h7h6 h7h5 h7h4 h7h3 h7h0 h7i7 h7g7 h7f7 '
               'h7e7 h7d7 h7c7 a6a5 c6c5 e6e5 g6g5 i6i5').split()
# Words of both protocols (commands, go keywords, option names and values).
WORDS = ('uci ucci isready setoption name value ucinewgame uccinewgame newgame position fen startpos moves '
         'banmoves go ponderhit stop probe quit bye d depth nodes mate movetime infinite ponder searchmoves '
         'wtime btime winc binc movestogo time increment opptime oppincrement oppmovestogo draw perft '
         'Hash hashsize Threads threads Ponder MultiPV usemillisec batch debug usebook bookfiles idle '
         'pruning knowledge randomness promotion rules asian check-only true false none large '
         # CECP (XBoard): commands, features and option names
         'xboard protover accepted rejected new variant xiangqi force playother white black usermove ? ping '
         'result setboard edit hint bk undo remove hard easy post nopost analyze exit . computer name rating '
         'ics random level st sd otim memory cores option Clear Hash Move Overhead Repetition Rule EvalFile '
         'UCI_Variant '
         # the opening book's options
         'OwnBook BookFile bookseed Book Seed <embedded> <empty>').split()
NUMBERS = ['0', '1', '-1', '3', '127', '128', '999', '100000', '1000000000', '-1000000000', '1000000000000',
           '9223372036854775807', '99999999999999999999']
# Files that are not regular files (issue 27): a loader that opens or reads one blocks or never ends.
SPECIAL_FILES = ['/dev/stdin', '/dev/tty', '/dev/zero', '/dev/urandom', '/dev/fd/0', '/proc/self/fd/0', '.', '/']
# A shuffle of horses that repeats the start position every four plies.
SHUFFLE = ['h0g2', 'h9g7', 'g2h0', 'g7h9']


def write_dict():
    """fuzz/protocol.dict: libFuzzer dictionary entries (words, numbers, moves, line starts)."""
    entries = ['# protocol.dict - libFuzzer dictionary for fuzz_protocol (written by make_seeds.py)']
    words = list(dict.fromkeys(WORDS))  # once each, in order
    entries += ['w_%s="%s"' % (w.replace('-', '_') if w.replace('-', '').replace('_', '').isalnum() else 'p%d' % i, w)
                for i, w in enumerate(words)]
    entries += ['n_%d=" %s"' % (i, n) for i, n in enumerate(NUMBERS)]
    entries += ['m_%s=" %s"' % (m, m) for m in RED_MOVES + BLACK_MOVES]
    entries += ['l_%d="\\x0a%s"' % (i, l) for i, l in enumerate(
        ['go depth 1 searchmoves', 'banmoves', 'position startpos moves', 'go infinite', 'probe startpos',
         'stop', 'setoption name Hash value', 'go wtime', 'position fen', 'usermove', 'setboard', 'level 0 0:05 0.1',
         'time 500', 'option Move Overhead=', 'ping 1', 'xboard\\x0aprotover 2', 'go perft 9',
         'setoption name EvalFile value', 'setoption evalfile', 'setoption name BookFile value', 'setoption bookfiles',
         'option EvalFile=', 'option BookFile='])]
    entries += ['f_%d=" %s"' % (i, f) for i, f in enumerate(SPECIAL_FILES)]
    entries += ['fen_start=" ' + START + '"', 'nl="\\x0a"', 'sp=" "']
    with open(os.path.join(HERE, 'protocol.dict'), 'w') as f:
        f.write('\n'.join(entries) + '\n')


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
    # long lists: far more entries than MAX_MOVES (128), repeated and distinct, in both dialects
    # (each seed stays under run.sh's -max_len of 4096 bytes)
    sessions.update({
        'long-searchmoves': ['uci', 'position startpos', 'go depth 1 searchmoves ' + ' '.join(['h2e2'] * 300),
                             'go depth 1 searchmoves ' + ' '.join(RED_MOVES * 6),
                             'go depth 1 searchmoves h2e2 h0g2 b2e2 b0c2 searchmoves a0a1',
                             'go depth 1 searchmoves a0a9 ' + ' '.join(['a0a8'] * 100)],
        'long-banmoves': ['ucci', 'position startpos', 'banmoves ' + ' '.join(RED_MOVES * 8), 'go depth 1',
                          'position startpos moves h2e2', 'banmoves ' + ' '.join(['h9g7'] * 200), 'go depth 1'],
        'long-moves': ['uci', 'position startpos moves ' + ' '.join(SHUFFLE * 180), 'go depth 2', 'd'],
        'clocks': ['uci', 'position startpos', 'go wtime 1000000000000 btime 1000000000000 winc 1000000000000 '
                   'binc 1000000000000', 'stop', 'go wtime -1 btime -1', 'go movetime 1000000000000', 'stop',
                   'ucci', 'setoption usemillisec false', 'go time 1000000000000 increment 1000000000000', 'stop',
                   'go time -1'],
        'probe-searching': ['ucci', 'position startpos', 'go infinite'] + ['probe startpos moves h2e2'] * 20
                           + ['stop', 'probe startpos', 'setoption hashsize 3', 'probe startpos'],
        # the opening book: the built-in one (or none), missing and odd files, book moves with every go kind
        'book': ['ucci', 'setoption usebook true', 'setoption bookfiles <embedded>', 'setoption bookseed 3',
                 'position startpos', 'go depth 2', 'banmoves h2e2 b2e2', 'go depth 2', 'go depth 2 searchmoves c3c4',
                 'go ponder depth 2', 'ponderhit', 'go infinite', 'stop', 'go draw depth 2', 'go mate 1',
                 'setoption bookfiles /nonexistent/BOOK.DAT;<embedded>', 'go depth 1', 'setoption bookfiles /dev/null',
                 'setoption bookfiles /tmp', 'setoption bookfiles ;;', 'setoption newgame', 'uci',
                 'setoption name BookFile value <embedded>', 'setoption name OwnBook value true',
                 'position startpos moves h2e2', 'go wtime 100 btime 100', 'xboard', 'protover 2', 'new',
                 'option OwnBook=1', 'bk', 'post', 'usermove h2e2', 'ping 1', 'bk', 'quit'],
    })
    # CECP (XBoard) sessions: XBoard's own sequences, pondering, analysis, claims, garbage
    xb = ['xboard', 'protover 2', 'accepted done', 'new', 'variant xiangqi', 'level 0 0:05 0.1', 'post', 'easy', 'ping 1']
    sessions.update({
        'cecp-game': xb + ['computer', 'time 500', 'otim 500', 'usermove h2e2', 'ping 2', 'time 480', 'otim 490',
                           'usermove h0g2', 'force', 'result 1-0 {x}', 'new', 'force', 'go', 'ping 3', 'quit'],
        'cecp-ponder': xb + ['hard', 'st 1', 'usermove h2e2', 'hint', 'usermove h9g7', 'usermove b0c2', '?',
                             'easy', 'force', 'undo', 'remove', 'playother', 'usermove c3c4', 'draw'],
        'cecp-analyze': xb + ['force', 'analyze', 'usermove h2e2', '.', 'undo', 'new', 'setboard ' + fen,
                              'memory 8', 'option Clear Hash', 'exit', 'analyze', 'uci', 'isready', 'xboard',
                              'analyze'],
        'cecp-claims': xb + ['force', 'setboard c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1',
                             'usermove h8h9', 'f9f8', 'h9h8', 'f8f9', 'h8h9', 'f9f8', 'h9h8', 'f8f9', 'playother',
                             'usermove h8h9', 'setboard 3k5/R8/9/9/9/9/9/8p/1R7/4K4 w - - 0 1', 'go',
                             'setboard 4k4/R8/9/9/9/9/8p/9/1R7/3K5 b - - 0 1', 'go', 'draw'],
        'cecp-malformed': xb + ['usermove', 'usermove zz99', 'a0a9', 'level', 'level 0 nan 0', 'level 0 0:xx 0',
                                'st -1', 'sd x', 'time 99999999999999999999', 'otim -5', 'memory x', 'cores 0x4',
                                'option', 'option =5', 'option Move Overhead=abc', 'variant chess', 'ping', 'undo',
                                'remove', 'edit', 'setboard', 'setboard junk', 'usermove h2e2', '\x00\x01\xff',
                                'new', 'sd 3', 'go', 'ping 9'],
    })
    for key, lines in sessions.items():
        write('protocol', key, '\n'.join(lines) + '\n')
    write_dict()


if __name__ == '__main__':
    main()
