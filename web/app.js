// app.js - the analysis board of web/index.html: an SVG board, the moves played, and the engine (Jiangjun's
// one-thread wasm in a Web Worker, or in the page where a worker cannot start) spoken to in UCCI. A move from
// the board, a FEN or an engine move is first sent to the engine as a position; if the engine answers with an
// error, the page shows that error and keeps its position. ?selftest=1 plays a scripted check and writes
// PASS or FAIL into #selftest (tests/web_page.sh reads it with headless Chromium).
'use strict';

const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const FILES = 'abcdefghi';
const GRID = 50, MARGIN = 40; // the board's spacing and border in SVG units
const GLYPH = { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
                k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' };
const ALIAS = { H: 'N', E: 'B', h: 'n', e: 'b' }; // the other letters FENs use for horse and elephant
const loadedAt = performance.now();

const $ = (id) => document.getElementById(id);
const state = { startFen: START_FEN, moves: [], board: null, red: true, selected: null, busy: true, last: null };

// The squares of a FEN's placement as a map "a0".."i9" -> piece letter; null if it is not 10 ranks of 9 files.
function parsePlacement(fen) {
  const ranks = String(fen).trim().split(/\s+/)[0].split('/');
  if (ranks.length !== 10) return null;
  const board = {};
  for (let r = 0; r < 10; r++) {
    let file = 0;
    for (const ch of ranks[r]) {
      if (/[1-9]/.test(ch)) file += Number(ch);
      else { board[FILES[file] + (9 - r)] = ALIAS[ch] || ch; file++; }
    }
    if (file !== 9) return null;
  }
  return board;
}

// The board after a move given as text ("h2e2"), on a copy.
function applyMove(board, move) {
  const b = Object.assign({}, board);
  b[move.slice(2, 4)] = b[move.slice(0, 2)];
  delete b[move.slice(0, 2)];
  return b;
}

// The UCCI position command of the start FEN and a move list.
function positionLine(fen, moves) {
  return `position fen ${fen}` + (moves.length ? ` moves ${moves.join(' ')}` : '');
}

// SVG coordinates of a square.
function squareXY(sq) {
  return [MARGIN + FILES.indexOf(sq[0]) * GRID, MARGIN + (9 - Number(sq[1])) * GRID];
}

// Draws the grid, the river, the palaces, the pieces and the last move.
function render() {
  const lines = [];
  const L = (x1, y1, x2, y2) => lines.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`);
  for (let r = 0; r < 10; r++) L(MARGIN, MARGIN + r * GRID, MARGIN + 8 * GRID, MARGIN + r * GRID);
  for (let f = 0; f < 9; f++) {
    const x = MARGIN + f * GRID;
    if (f === 0 || f === 8) L(x, MARGIN, x, MARGIN + 9 * GRID);
    else { L(x, MARGIN, x, MARGIN + 4 * GRID); L(x, MARGIN + 5 * GRID, x, MARGIN + 9 * GRID); }
  }
  for (const top of [0, 7]) {
    L(MARGIN + 3 * GRID, MARGIN + top * GRID, MARGIN + 5 * GRID, MARGIN + (top + 2) * GRID);
    L(MARGIN + 5 * GRID, MARGIN + top * GRID, MARGIN + 3 * GRID, MARGIN + (top + 2) * GRID);
  }
  lines.push(`<text class="river" x="${MARGIN + GRID}" y="${MARGIN + 4.6 * GRID}">楚 河</text>`);
  lines.push(`<text class="river" x="${MARGIN + 5.6 * GRID}" y="${MARGIN + 4.6 * GRID}">漢 界</text>`);
  if (state.last) {
    for (const sq of [state.last.slice(0, 2), state.last.slice(2, 4)]) {
      const [x, y] = squareXY(sq);
      lines.push(`<rect class="last" x="${x - 23}" y="${y - 23}" width="46" height="46"/>`);
    }
  }
  for (const [sq, piece] of Object.entries(state.board)) {
    const [x, y] = squareXY(sq);
    const side = piece === piece.toUpperCase() ? 'red' : 'black';
    const sel = state.selected === sq ? ' selected' : '';
    lines.push(`<g class="piece ${side}${sel}" data-square="${sq}"><circle cx="${x}" cy="${y}" r="21"/>` +
               `<text x="${x}" y="${y}">${GLYPH[piece] || piece}</text></g>`);
  }
  $('board').innerHTML = lines.join('');
  $('moves').textContent = state.moves.join(' ');
  $('fen').placeholder = state.startFen;
}

// The engine: a line in, lines out; one request at a time, each collected until the line that ends it.
let engine = null;
let pending = null; // { done(line) -> bool, lines[], resolve }
function onEngineLine(line) {
  const log = $('log');
  log.textContent = (log.textContent + line + '\n').slice(-6000);
  log.scrollTop = log.scrollHeight;
  if (line.startsWith('info depth')) showInfo(line);
  if (!pending) return;
  pending.lines.push(line);
  if (pending.done(line)) { const p = pending; pending = null; p.resolve(p.lines); }
}

// Sends lines and resolves with the output up to and including the first line done() accepts.
function request(text, done) {
  return new Promise((resolve) => { pending = { done, lines: [], resolve }; engine.send(text); });
}

// Sends lines followed by isready: resolves with their output (up to readyok).
const ask = (text) => request(text + '\nisready', (l) => l === 'readyok');

// The engine's first error line among lines, or null.
const errorOf = (lines) => lines.find((l) => l.startsWith('info string error')) || null;

// Starts the engine in a worker, or in the page where no worker may start (file:// in Chromium).
function startEngine() {
  try {
    const worker = new Worker('jiangjun-worker.js');
    worker.onmessage = (e) => onEngineLine(e.data);
    worker.onerror = (e) => { e.preventDefault(); worker.terminate(); startInPage('the worker failed: ' + e.message); };
    engine = { send: (t) => worker.postMessage(t), where: 'a Web Worker' };
  } catch (e) {
    startInPage(String(e.message || e));
  }
}

// The fallback: the engine in the page (the page waits while it thinks).
function startInPage(why) {
  const script = document.createElement('script');
  script.src = 'jiangjun.js';
  script.onload = () => {
    const lines = JiangjunLines(onEngineLine); // eslint-disable-line no-undef
    engine.send = (t) => setTimeout(() => lines.send(t), 0);
    engine.send(engine.queued.join('\n'));
  };
  const queued = [];
  engine = { send: (t) => queued.push(t), queued, where: `the page (no worker: ${why})` };
  document.head.appendChild(script);
}

// Shows one progress line: depth, score, nodes, pv.
function showInfo(line) {
  const word = (name) => { const m = new RegExp(`\\b${name} (\\S+)`).exec(line); return m ? m[1] : ''; };
  $('depth').textContent = word('depth');
  $('score').textContent = (/\bscore mate/.test(line) ? 'mate ' : '') + word('score').replace('mate', word('mate'));
  $('nodes').textContent = word('nodes');
  const pv = / pv (.*)$/.exec(line);
  $('pv').textContent = pv ? pv[1] : '';
}

// Shows the engine's error (or clears it) and a status line.
function say(status, error) {
  $('status').textContent = status;
  $('error').textContent = error || '';
}

// Tries a move: the engine must accept the position with it; then the engine answers. Resolves true if played.
async function playMove(move) {
  if (state.busy) return false;
  state.busy = true;
  const out = await ask(positionLine(state.startFen, state.moves.concat([move])));
  const err = errorOf(out);
  if (err) {
    await ask(positionLine(state.startFen, state.moves)); // the engine's position back to the page's
    say(`Move ${move} refused.`, err);
    state.busy = false;
    return false;
  }
  accept(move);
  await engineMove();
  return true;
}

// Plays an accepted move on the page's board.
function accept(move) {
  state.board = applyMove(state.board, move);
  state.moves.push(move);
  state.red = !state.red;
  state.last = move;
  state.selected = null;
  render();
}

// Lets the engine move from the current position (state.busy is set); resolves with its move or null.
async function engineMove() {
  say('Jiangjun thinks...');
  const out = await request(`${positionLine(state.startFen, state.moves)}\ngo ${$('limit').value}`,
                            (l) => /^(bestmove|nobestmove)\b/.test(l));
  const m = /^bestmove ([a-i][0-9][a-i][0-9])/.exec(out[out.length - 1]);
  if (!m) {
    say('Jiangjun has no move: the game is over, you win.', errorOf(out));
    state.busy = false;
    return null;
  }
  accept(m[1]);
  if (!state.firstMoveMs) state.firstMoveMs = Math.round(performance.now() - loadedAt);
  const replies = await ask(`${positionLine(state.startFen, state.moves)}\ngo perft 1`);
  const none = replies.includes('Nodes searched: 0');
  say(none ? `Jiangjun played ${m[1]}: you have no move, Jiangjun wins.` : `Jiangjun played ${m[1]}. Your move.`);
  state.busy = false;
  return m[1];
}

// Sets the position from a FEN; on the engine's error shows it and keeps the position. Resolves true if set.
async function setFen(fen) {
  if (state.busy) return false;
  state.busy = true;
  fen = fen.trim();
  const board = parsePlacement(fen);
  const out = await ask(`position fen ${fen}`);
  const err = errorOf(out) || (board ? null : 'the page cannot read this FEN');
  if (err) {
    await ask(positionLine(state.startFen, state.moves));
    say('FEN refused; the position is unchanged.', err);
    state.busy = false;
    return false;
  }
  Object.assign(state, { startFen: fen, moves: [], board, red: !/\sb(\s|$)/.test(fen), selected: null, last: null });
  render();
  say((state.red ? 'Red' : 'Black') + ' to move.');
  state.busy = false;
  return true;
}

// Clicks: select a piece of the side to move, then its target square.
function onBoardClick(ev) {
  if (state.busy) return;
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const f = Math.round((p.x - MARGIN) / GRID), r = 9 - Math.round((p.y - MARGIN) / GRID);
  if (f < 0 || f > 8 || r < 0 || r > 9) return;
  clickSquare(FILES[f] + r);
}

// The logic of a click on a square.
function clickSquare(sq) {
  const piece = state.board[sq];
  const own = piece && (piece === piece.toUpperCase()) === state.red;
  if (own) { state.selected = sq; render(); return; }
  if (state.selected) { const from = state.selected; state.selected = null; playMove(from + sq); }
}

// The scripted check of ?selftest=1: a bad FEN and an illegal move change nothing, a move gets a legal answer.
async function selfTest() {
  const result = (text) => { $('selftest').textContent = text; document.title = text; };
  try {
    $('limit').value = 'depth 6'; // the same answer on any machine
    const before = JSON.stringify(state.board);
    if (await setFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1'))
      return result('FAIL: a bad FEN was accepted');
    if (!$('error').textContent.startsWith('info string error') || JSON.stringify(state.board) !== before)
      return result('FAIL: the bad FEN did not show the engine error or changed the board');
    if (await playMove('h2i3')) return result('FAIL: the illegal move h2i3 was played');
    if (!$('error').textContent.startsWith('info string error') || state.moves.length)
      return result('FAIL: the illegal move did not show the engine error or changed the game');
    clickSquare('h2'); clickSquare('e2'); // the user's move, as two clicks
    while (state.busy || state.moves.length < 2) {
      if (state.moves.length === 1 && !state.busy) return result('FAIL: no engine answer');
      await new Promise((r) => setTimeout(r, 50));
    }
    const answer = state.moves[1];
    const legal = await ask(`${positionLine(START_FEN, ['h2e2'])}\ngo perft 1`);
    if (!legal.includes(`${answer}: 1`)) return result(`FAIL: the answer ${answer} is not a legal move`);
    if (!$('depth').textContent || !$('pv').textContent) return result('FAIL: no depth / pv shown');
    result(`PASS h2e2 ${answer} depth ${$('depth').textContent} first move ${state.firstMoveMs} ms in ${engine.where}`);
  } catch (e) {
    result('FAIL: ' + e);
  }
}

// Starts the page: the board, the engine, the UCCI handshake, the buttons.
async function main() {
  state.board = parsePlacement(START_FEN);
  render();
  $('board').addEventListener('click', onBoardClick);
  $('go').addEventListener('click', () => { if (!state.busy) { state.busy = true; engineMove(); } });
  $('new').addEventListener('click', () => setFen(START_FEN));
  $('setfen').addEventListener('click', () => setFen($('fen').value));
  startEngine();
  const hello = await request('ucci', (l) => l === 'ucciok');
  const name = hello.find((l) => l.startsWith('id name ')) || 'id name ?';
  await ask('position startpos');
  state.busy = false;
  say(`${name.slice(8)} ready in ${engine.where}. Red to move: click a piece, then its square.`);
  if (/[?&]selftest=1/.test(location.search)) selfTest();
}

main();
