// app.js - the analysis board of web/index.html: the game (a start FEN and the moves played), the engine
// (Jiangjun's one-thread wasm in a Web Worker, or in the page where a worker cannot start) spoken to in UCCI,
// its search lines (MultiPV), its opening book's moves, and the rules' verdict (the engine's `judge`) when the
// game ends. A move from the board, a FEN, a set-up position or an engine move is first sent to the engine as
// a position; if the engine answers with an error, the page shows that error and keeps its game.
// ?selftest=1 runs selftest.js (tests/web_page.js reads its result with headless Chromium).
'use strict';

const loadedAt = performance.now();
const RESULT_TEXT = { '1-0': 'Red wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' };
const UCCI_MATE = 10000, UCCI_BAN = 9900, UCCI_EVAL_MAX = 9799; // UCCI's score bands (protocol_ucci_out.c)
const PROBE_LIMIT = 'depth 1'; // the go that lists the book's moves (answered from the book, else a tiny search)
const THREADS_MAX = 8, THREADS_DEFAULT = 4; // the Threads choice of the threaded engine (at most the cores)

const $ = (id) => document.getElementById(id);
const state = { startFen: START_FEN, moves: [], board: null, red: true, selected: null, busy: true, last: null,
                over: null, lines: [], book: [], rules: [] };

// The UCCI position command of the game.
function positionLine(fen = state.startFen, moves = state.moves) {
  return `position fen ${fen}` + (moves.length ? ` moves ${moves.join(' ')}` : '');
}

// Draws the board (the set-up copy in set-up mode) and the move list.
function render() {
  renderBoard($('board'), setup.active ? setup.board : state.board, setup.active ? null : state.last,
              setup.active ? null : state.selected);
  $('moves').textContent = state.moves.join(' ');
  $('fen').placeholder = state.startFen;
}

// The engine: requests in, lines out; one request at a time, its lines collected until the line that ends it.
let engine = null;
let pending = null; // { done(line) -> bool, lines[], resolve, quiet }
function onEngineLine(line) {
  const log = $('log');
  log.textContent = (log.textContent + line + '\n').slice(-6000);
  log.scrollTop = log.scrollHeight;
  if (!pending || !pending.quiet) showInfo(line);
  if (!pending) return;
  pending.lines.push(line);
  if (pending.done(line)) { const p = pending; pending = null; p.resolve(p.lines); }
}

// Sends protocol lines (text) and, if given, a judge request first; resolves with the output up to and
// including the first line done() accepts. quiet: its search lines are not shown.
function request(text, done, quiet = false, judge = null) {
  return new Promise((resolve) => {
    pending = { done, lines: [], resolve, quiet };
    if (judge !== null) engine.judge(judge);
    engine.send(text);
  });
}

// Sends lines followed by isready: resolves with their output (up to readyok). Not for a go: the threaded
// engine answers isready while it searches.
const ask = (text, quiet = false) => request(text + '\nisready', (l) => l === 'readyok', quiet);

// The engine's first error line among lines, or null.
const errorOf = (lines) => lines.find((l) => l.startsWith('info string error')) || null;

// Starts the engine in a worker, or in the page where no worker may start (file:// in Chromium).
function startEngine() {
  try {
    const worker = new Worker('jiangjun-worker.js');
    worker.onmessage = (e) => (typeof e.data === 'string' ? onEngineLine(e.data) : onEngineKind(e.data));
    worker.onerror = (e) => { e.preventDefault(); worker.terminate(); startInPage('the worker failed: ' + e.message); };
    engine = { send: (t) => worker.postMessage(t), judge: (a) => worker.postMessage({ judge: a }), where: 'a Web Worker',
               threads: false };
  } catch (e) {
    startInPage(String(e.message || e));
  }
}

// The worker's word on its engine ({ engine: 'threads' | 'one thread', cores }): with threads, the Threads
// choice, a search until Stop, and the Stop button.
function onEngineKind(kind) {
  if (kind.engine !== 'threads') return;
  engine.threads = true;
  engine.where = 'a Web Worker with threads';
  const most = Math.max(2, Math.min(THREADS_MAX, kind.cores || 1)); // 2 even on one core: threads run anyway
  for (let n = 1; n <= most; n++) $('threads').add(new Option(n, n, false, n === Math.min(most, THREADS_DEFAULT)));
  $('limit').add(new Option('until Stop', 'infinite'));
  for (const id of ['threads-label', 'stop']) $(id).hidden = false;
}

// The fallback: the engine in the page (the page waits while it thinks). Requests keep their order.
function startInPage(why) {
  const script = document.createElement('script');
  script.src = 'jiangjun.js';
  const queued = [];
  script.onload = () => {
    const lines = JiangjunLines(onEngineLine); // eslint-disable-line no-undef
    const later = (f) => setTimeout(f, 0);
    engine.send = (t) => later(() => lines.send(t));
    engine.judge = (a) => later(() => lines.judge(a));
    for (const [kind, text] of queued) engine[kind](text);
  };
  engine = { send: (t) => queued.push(['send', t]), judge: (a) => queued.push(['judge', a]),
             where: `the page (no worker: ${why})` };
  document.head.appendChild(script);
}

// A UCCI score as text: centipawn-like units, mates and rule wins in plies.
function scoreText(s) {
  const a = Math.abs(s), sign = s < 0 ? '-' : '+';
  if (a > UCCI_BAN) return `${s < 0 ? 'mated' : 'mates'} in ${UCCI_MATE - a}`;
  if (a > UCCI_EVAL_MAX) return `${s < 0 ? 'loses' : 'wins'} by rule in ${UCCI_BAN - a}`;
  return s === 0 ? '0' : sign + a;
}

// Shows one engine line: a search line (depth, score, multipv, pv), a book move (depth 0), or the node count.
function showInfo(line) {
  const word = (name) => { const m = new RegExp(`\\b${name} (-?\\d+)`).exec(line); return m ? Number(m[1]) : null; };
  const pv = / pv (.*)$/.exec(line);
  if (line.startsWith('info depth 0 ') && pv) {
    state.book.push(...bookOf([line]));
    renderBook();
  } else if (line.startsWith('info depth ') && pv) {
    state.lines[(word('multipv') || 1) - 1] = { depth: word('depth'), score: word('score'), pv: pv[1] };
    renderLines();
  } else if (line.startsWith('info time ')) {
    $('nodes').textContent = `${word('nodes')} nodes, ${word('nps')} nodes/s, ${word('time')} ms`;
  }
}

// The book moves among UCCI lines ("info depth 0 score WEIGHT pv MOVE", printed by a go answered from the book).
function bookOf(lines) {
  return lines.map((l) => /^info depth 0 score (\d+) pv ([a-i][0-9][a-i][0-9])$/.exec(l)).filter(Boolean)
    .map((m) => ({ move: m[2], weight: Number(m[1]) }));
}

// Draws the search lines: one row per MultiPV line.
function renderLines() {
  $('lines').innerHTML = '';
  state.lines.forEach((l, i) => {
    if (!l) return;
    const row = $('lines').insertRow();
    for (const text of [i + 1, l.depth, scoreText(l.score), l.pv]) row.insertCell().textContent = text;
  });
}

// Draws the book's moves for the position (each a button that plays it when it is the user's turn).
function renderBook() {
  const total = state.book.reduce((sum, b) => sum + b.weight, 0);
  $('book').innerHTML = '';
  if (!state.book.length) $('book').textContent = 'no book move';
  for (const b of state.book) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'bookmove';
    button.textContent = `${b.move} ${total ? Math.round((100 * b.weight) / total) : 0}%`;
    button.title = `weight ${b.weight}`;
    button.addEventListener('click', () => playMove(b.move));
    $('book').appendChild(button);
  }
}

// Shows the engine's error (or clears it) and a status line.
function say(status, error) {
  $('status').textContent = status;
  $('error').textContent = error || '';
}

// Asks the engine's rules for the game's verdict (judge) and shows it; state.over holds it while the game is
// over (null while it goes on). Resolves with the judge line.
async function judgeGame() {
  const rules = $('rules').value ? `--rules ${$('rules').value} ` : '';
  const out = await request('isready', (l) => l === 'readyok', true,
                            `${rules}${state.startFen} ${state.moves.join(' ')}`);
  const line = out.find((l) => /^(1-0|0-1|1\/2-1\/2|\*|error:) /.test(l)) || 'error: no verdict from the engine';
  const m = /^(1-0|0-1|1\/2-1\/2) (.*)$/.exec(line);
  state.over = m ? line : null;
  $('verdict').textContent = m ? `Game over: ${RESULT_TEXT[m[1]]} (${m[1]}): ${m[2]}.` : '';
  if (line.startsWith('error:')) say('The rules could not judge this game.', line);
  return line;
}

// Lists the book's moves for the game's position: a go from the book (its info depth 0 lines), never played.
// (Every go sets usebook; a go's output ends at its bestmove: the threaded engine answers isready at once.)
async function showBook() {
  const out = await request(`setoption usebook true\n${positionLine()}\ngo ${PROBE_LIMIT}`,
                            (l) => /^(bestmove|nobestmove)\b/.test(l), true);
  state.book = bookOf(out);
  renderBook();
}

// The lines that run a search of the game's position under the page's limit, lines and rules, from the book if
// book is set.
function goLines(book) {
  const rules = $('rules').value ? `setoption rules ${$('rules').value}\n` : '';
  const threads = engine.threads ? `setoption threads ${$('threads').value}\n` : '';
  return `${rules}${threads}setoption multipv ${$('multipv').value}\nsetoption usebook ${book}\n${positionLine()}\n` +
         `go ${$('limit').value}`;
}

// After the game changed (state.busy is set): the verdict, then the book's moves unless the engine moves next.
async function afterChange(engineNext) {
  await judgeGame();
  if (state.over) {
    state.book = [];
    renderBook();
    say('The game is over.');
  } else if (!engineNext) {
    await showBook();
  }
}

// Tries a move: the engine must accept the position with it; then the engine answers if it should. Resolves
// true if played.
async function playMove(move) {
  if (state.busy || state.over || setup.active) return false;
  state.busy = true;
  const out = await ask(positionLine(state.startFen, state.moves.concat([move])));
  const err = errorOf(out);
  if (err) {
    await ask(positionLine()); // the engine's position back to the page's
    say(`Move ${move} refused.`, err);
    state.busy = false;
    return false;
  }
  accept(move);
  const reply = $('auto').checked;
  await afterChange(reply);
  if (reply && !state.over) return engineMove().then(() => true);
  if (!state.over) say(`${state.red ? 'Red' : 'Black'} to move.`);
  state.busy = false;
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

// Starts a search: clears the lines and the book shown; resolves with the output up to bestmove.
function search(book) {
  state.lines = [];
  state.book = [];
  renderLines();
  renderBook();
  return request(goLines(book), (l) => /^(bestmove|nobestmove)\b/.test(l)).then((out) => (state.lastSearch = out));
}

// Lets the engine move from the game's position (state.busy is set); resolves with its move or null.
async function engineMove() {
  say('Jiangjun thinks...');
  const out = await search($('usebook').checked);
  const m = /^bestmove ([a-i][0-9][a-i][0-9])/.exec(out[out.length - 1]);
  if (!m) {
    say('Jiangjun has no move.', errorOf(out));
    state.busy = false;
    return null;
  }
  const fromBook = out.some((l) => l.startsWith('info depth 0 '));
  accept(m[1]);
  await afterChange(false);
  if (!state.over) say(`Jiangjun played ${m[1]}${fromBook ? ' from its book' : ''}. Your move.`);
  state.busy = false;
  return m[1];
}

// Searches the game's position and shows the lines without playing (never from the book).
async function analyse() {
  if (state.busy || state.over || setup.active) return;
  state.busy = true;
  say('Jiangjun analyses...');
  const out = await search(false);
  say('Analysis done.', errorOf(out));
  state.busy = false;
}

// Sets the game from a FEN; on the engine's error shows it and keeps the game. Resolves true if set.
async function setFen(fen) {
  if (state.busy) return false;
  state.busy = true;
  fen = fen.trim();
  const board = parsePlacement(fen);
  const out = await ask(`position fen ${fen}`);
  const err = errorOf(out) || (board ? null : 'the page cannot read this FEN');
  if (err) {
    await ask(positionLine());
    say('FEN refused; the position is unchanged.', err);
    state.busy = false;
    return false;
  }
  Object.assign(state, { startFen: fen, moves: [], board, red: !/\sb(\s|$)/.test(fen), selected: null, last: null });
  $('fen').value = '';
  state.lines = [];
  renderLines();
  render();
  say(`${state.red ? 'Red' : 'Black'} to move.`);
  await afterChange(false);
  state.busy = false;
  return true;
}

// Clicks on the board: in set-up mode, the tool's edit; else select a piece of the side to move, then its target.
function onBoardClick(ev) {
  const sq = squareAt($('board'), ev);
  if (sq) clickSquare(sq);
}

// The logic of a click on a square.
function clickSquare(sq) {
  if (setup.active) { setupClick(sq); render(); return; }
  if (state.busy || state.over) return;
  const piece = state.board[sq];
  if (piece && isRed(piece) === state.red) { state.selected = sq; render(); return; }
  if (state.selected) { const from = state.selected; state.selected = null; playMove(from + sq); }
}

// Shows or hides the set-up controls and the game's controls.
function showSetup(on) {
  $('setup-panel').hidden = !on;
  $('game-panel').hidden = on;
  render();
}

// Enters set-up mode with the game's position.
function enterSetup() {
  if (state.busy) return;
  setupEnter(state.board, state.red);
  $('setup-red').checked = state.red;
  $('setup-black').checked = !state.red;
  renderPalette($('palette'));
  showSetup(true);
  say('Set-up: pick a piece (or ✕) below, click squares; Done checks the position.');
}

// Leaves set-up mode: with done, the position goes to the engine; refused, the error shows and set-up stays
// open with its edits while the game keeps its position. Resolves true when set-up was left.
async function leaveSetup(done) {
  if (!setup.active || state.busy) return false;
  if (done) {
    setup.red = $('setup-red').checked;
    setup.active = false; // setFen runs on the game: the board shows the game while the engine checks
    const ok = await setFen(setupFen());
    setup.active = !ok;
    if (!ok) { say('Set-up refused by the engine; the game is unchanged. Fix the position or cancel.', $('error').textContent); render(); return false; }
  }
  setupLeave();
  showSetup(false);
  if (!done) say('Set-up cancelled.');
  return true;
}

// Fills the rules choice from the engine's UCCI option line ("option rules type combo var asian ...").
function fillRules(hello) {
  const line = hello.find((l) => l.startsWith('option rules type combo ')) || '';
  state.rules = [...line.matchAll(/\bvar (\S+)/g)].map((m) => m[1]);
  const def = (/\bdefault (\S+)/.exec(line) || [])[1];
  for (const name of state.rules) $('rules').add(new Option(name, name, name === def, name === def));
}

// Wires the controls.
function wire() {
  $('board').addEventListener('click', onBoardClick);
  $('palette').addEventListener('click', onPaletteClick);
  $('go').addEventListener('click', () => { if (!state.busy && !state.over) { state.busy = true; engineMove(); } });
  $('analyse').addEventListener('click', analyse);
  $('stop').addEventListener('click', () => engine.send('stop')); // the search's request ends at its bestmove
  $('new').addEventListener('click', () => setFen(START_FEN));
  $('setfen').addEventListener('click', () => setFen($('fen').value));
  $('rules').addEventListener('change', async () => {
    if (state.busy) return;
    state.busy = true;
    await afterChange(false); // the verdict under the rules chosen (the engine gets them with each search)
    state.busy = false;
  });
  $('setup').addEventListener('click', enterSetup);
  $('setup-done').addEventListener('click', () => leaveSetup(true));
  $('setup-cancel').addEventListener('click', () => leaveSetup(false));
  $('setup-clear').addEventListener('click', () => { setup.board = {}; render(); });
  $('setup-start').addEventListener('click', () => { setup.board = parsePlacement(START_FEN); render(); });
}

// Starts the page: the board, the engine, the UCCI handshake, the controls.
async function main() {
  state.board = parsePlacement(START_FEN);
  render();
  wire();
  startEngine();
  const hello = await request('ucci', (l) => l === 'ucciok', true);
  fillRules(hello);
  const name = hello.find((l) => l.startsWith('id name ')) || 'id name ?';
  await ask('position startpos');
  await showBook();
  state.readyMs = Math.round(performance.now() - loadedAt);
  state.busy = false;
  say(`${name.slice(8)} ready in ${engine.where}. Red to move: click a piece, then its square.`);
  if (/[?&]selftest=1/.test(location.search)) selfTest(); // eslint-disable-line no-undef
}

main();
