// The installed browser package (jiangjun-web) under node: require() of the package gives JiangjunLines, whose
// UCCI dialog names the version and answers a legal move (the engine's own perft lists it), lists the built-in
// book's moves for the start position (a go with usebook true), and whose judge gives the rules' verdicts on a
// threefold repetition and a mate, and an error line for an illegal move.
// usage: node tests/web_npm_check.js PACKAGE_DIR VERSION
'use strict';
const path = require('path');
const [pkgDir, version] = process.argv.slice(2);
const { JiangjunLines } = require(path.resolve(pkgDir));
const lines = [];
let waiting = null; // { end: RegExp, from, resolve }
const fail = (msg) => { console.log(lines.join('\n')); console.log('FAIL: ' + msg); process.exit(1); };
const engine = JiangjunLines((line) => {
  lines.push(line);
  if (waiting && waiting.end.test(line)) { const w = waiting; waiting = null; w.resolve(lines.slice(w.from)); }
});

// Sends a request (send()) and resolves with the lines up to the first that matches end.
function exchange(send, end) {
  return new Promise((resolve) => { waiting = { end, from: lines.length, resolve }; send(); });
}
const ask = (text) => exchange(() => engine.send(text + '\nisready'), /^readyok$/);
const judge = (args) => exchange(() => { engine.judge(args); engine.send('isready'); }, /^readyok$/);
const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

(async () => {
  const hello = await exchange(() => engine.send('ucci'), /^ucciok$/);
  if (!hello.includes(`id name Jiangjun ${version}`)) fail(`no "id name Jiangjun ${version}"`);
  const out = await exchange(() => engine.send('position startpos moves h2e2\ngo depth 5'), /^(bestmove|nobestmove)/);
  const best = (/^bestmove ([a-i][0-9][a-i][0-9])/.exec(out[out.length - 1]) || [])[1];
  if (!best) fail('no bestmove');
  if (!(await ask('go perft 1')).includes(`${best}: 1`)) fail(`bestmove ${best} is not legal after h2e2`);
  const book = await exchange(() => engine.send('setoption usebook true\nposition startpos\ngo depth 1'),
                              /^(bestmove|nobestmove)/);
  const bookMoves = book.filter((l) => /^info depth 0 score \d+ pv [a-i][0-9][a-i][0-9]$/.test(l));
  if (!bookMoves.length) fail('no book move for the start position');
  const draw = await judge(`${START} h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9`);
  if (!draw.includes('1/2-1/2 repetition without perpetual check or chase')) fail('no repetition verdict');
  const mate = await judge('--rules chinese 3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1 i0i9');
  if (!mate.includes('1-0 black is checkmated')) fail('no mate verdict');
  const bad = await judge(`${START} h2i3`);
  if (!bad.some((l) => l.startsWith('error: move 1: '))) fail('no error for an illegal move');
  console.log(`web package OK: Jiangjun ${version}, bestmove ${best} after h2e2, ${bookMoves.length} book moves, ` +
              `verdicts "${draw[0]}" and "${mate[0]}"`);
  process.exit(0);
})().catch((e) => fail(String(e.stack || e)));
