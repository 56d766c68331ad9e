// The browser's one-thread wasm build (build-web/jiangjun.js, XQ_WASM_THREADS=OFF) under node: `bench` through
// callMain gives bench/signature's node count; a UCCI dialog through jj_command answers within the call (the
// search runs in the caller) with a legal move (the wasm's own perft lists it); a bad FEN gets one error line;
// go infinite gets the one-thread error and no search; isready is answered. jj_judge returns the rules' verdict
// line (a threefold repetition, a mate under --rules chinese, a game that goes on), and an error line for an
// illegal move and an unknown rule set, printing nothing.
// usage: node tests/web_check.js ENGINE_JS SIGNATURE_FILE
'use strict';
const fs = require('fs');
const path = require('path');
const [enginePath, signaturePath] = process.argv.slice(2);
const factory = require(path.resolve(enginePath));
let lines = [];
const fail = (msg) => { console.log(lines.join('\n')); console.log('FAIL: ' + msg); process.exit(1); };

factory({ print: (l) => lines.push(l), printErr: (l) => lines.push(l) }).then((m) => {
  m.callMain(['bench']);
  const got = (lines.find((l) => l.startsWith('Nodes searched: ')) || '').slice(16);
  const want = fs.readFileSync(signaturePath, 'utf8').trim();
  if (got !== want) fail(`bench ${got}, bench/signature ${want}`);
  console.log(`web bench ${got} nodes = signature; ${lines.find((l) => l.startsWith('Nodes/second'))}`);

  const open = m.cwrap('jj_open', 'number', []);
  const command = m.cwrap('jj_command', 'number', ['number', 'string']);
  const close = m.cwrap('jj_close', null, ['number']);
  const s = open();
  if (!s) fail('jj_open gave no session');
  const say = (line) => { lines = []; const alive = command(s, line); return { alive, out: lines.slice() }; };
  if (!say('ucci').out.includes('ucciok')) fail('no ucciok');
  if (!say('isready').out.includes('readyok')) fail('no readyok');
  let r = say('position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1');
  if (r.out.filter((l) => l.startsWith('info string error: ')).length !== 1) fail('the bad FEN did not get one error line');
  say('position startpos moves h2e2');
  r = say('go depth 5');
  const best = r.out.map((l) => /^bestmove ([a-i][0-9][a-i][0-9])/.exec(l)).find(Boolean);
  if (!best) fail('go depth 5 returned without a bestmove');
  if (!r.out.some((l) => /^info depth 5 .*pv /.test(l))) fail('no depth 5 line with a pv');
  r = say('go infinite');
  if (!r.out.some((l) => l.startsWith('info string error: this build has one thread'))) fail('go infinite: no one-thread error');
  if (r.out.some((l) => l.startsWith('info depth'))) fail('go infinite searched');
  r = say('go perft 1');
  if (!r.out.includes(`${best[1]}: 1`)) fail(`bestmove ${best[1]} is not among the legal moves`);
  if (say('quit').alive !== 0) fail('quit did not end the session');
  if (say('isready').out.length !== 0) fail('a line after quit was answered');
  close(s);

  const judge = m.cwrap('jj_judge', 'number', ['string']);
  const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
  const verdicts = [
    [`${START} h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9`, '1/2-1/2 repetition without perpetual check or chase'],
    ['--rules chinese 3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1 i0i9', '1-0 black is checkmated'],
    [`${START} h2e2`, '* game goes on'],
    [`${START} h2e2 h2i3`, 'error: move 2: '],
    ['--rules nosuch ' + START, "error: unknown rule set 'nosuch'"],
  ];
  for (const [args, want] of verdicts) {
    lines = [];
    const text = judge(args);
    const got = text ? m.UTF8ToString(text) : '(NULL)';
    m._free(text);
    if (lines.length || !got.startsWith(want) || got.split('\n').filter(Boolean).length !== 1)
      fail(`judge ${args}: ${JSON.stringify(got)}, printed ${JSON.stringify(lines)}; want one line "${want}..."`);
  }
  console.log(`web engine OK: bestmove ${best[1]}; ${verdicts.length} judge verdicts`);
}).catch((e) => fail(String(e)));
