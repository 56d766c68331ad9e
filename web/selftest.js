// selftest.js - the page's scripted check, run by ?selftest=1 (tests/web_page.js opens the page that way in
// headless Chromium): it clicks the page's own controls and board (mouse events at the squares' places) and
// writes PASS or FAIL: ... into #selftest. Checked: a bad FEN and an illegal move show the engine's error and
// change nothing; the book's moves of the start position are shown and legal; set-up mode places and removes
// pieces, a bad position gets the engine's error and leaves the game as it was, a good one (Black to move)
// becomes the game; a repetition and a mate end the game with the engine's verdict and no move is played
// after; two MultiPV lines of depth 6 with different legal first moves; h2e2 gets a legal answer. With the
// threaded engine (a page served with COOP/COEP headers): a search until Stop on 2 threads answers isready and
// judge while it runs and ends with a bestmove when Stop is pressed.
'use strict';

const SELFTEST_POLL_MS = 20;
const MATE_FEN = '3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1'; // i0i9 mates
const REPETITION = ['h0g2', 'h9g7', 'g2h0', 'g7h9', 'h0g2', 'h9g7', 'g2h0', 'g7h9']; // the start position thrice
const SETUP_FEN = '3k5/9/9/9/R8/9/9/9/9/4K4 b - - 0 1';
const INFINITE_DEPTH = 8, INFINITE_WAIT_MS = 60000; // the search until Stop: the depth it reaches before Stop, in time
const JUDGES_WHILE_SEARCHING = 20;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Waits until the page has no request running.
async function idle() { while (state.busy) await sleep(SELFTEST_POLL_MS); }

// A click on an element, as the user makes it.
function press(id) { $(id).dispatchEvent(new MouseEvent('click', { bubbles: true })); }

// A click at a square's place on the screen (through the page's own mapping of clicks to squares).
function clickBoard(sq) {
  const svg = $('board');
  const pt = svg.createSVGPoint();
  [pt.x, pt.y] = squareXY(sq);
  const p = pt.matrixTransform(svg.getScreenCTM());
  svg.dispatchEvent(new MouseEvent('click', { clientX: p.x, clientY: p.y, bubbles: true }));
}

// Picks a set-up tool by a click on the palette.
function pickTool(tool) {
  $('palette').querySelector(`[data-tool="${tool}"] circle`).dispatchEvent(new MouseEvent('click', { bubbles: true }));
}

// Plays a move by two clicks; waits for the page (and the engine's answer, if it answers).
async function clickMove(move) {
  clickBoard(move.slice(0, 2));
  clickBoard(move.slice(2, 4));
  await idle();
}

// The legal moves of a position, by the engine's perft (its output ends with the node count).
async function legalMoves(fen, moves) {
  const out = await request(`${positionLine(fen, moves)}\ngo perft 1`, (l) => l.startsWith('Nodes searched: '), true);
  return out.map((l) => /^([a-i][0-9][a-i][0-9]): 1$/.exec(l)).filter(Boolean).map((m) => m[1]);
}

// The game as text, to see that something left it unchanged.
const gameText = () => JSON.stringify([state.startFen, state.moves, state.board]);

// The errors and the book: a bad FEN, an illegal move, the start position's book moves.
async function checkErrorsAndBook() {
  const before = gameText();
  $('fen').value = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1';
  press('setfen');
  await idle();
  if (!$('error').textContent.startsWith('info string error') || gameText() !== before)
    return 'the bad FEN did not show the engine error or changed the board';
  clickBoard('h2'); clickBoard('i3'); // a cannon's move that is not one
  await idle();
  if (!$('error').textContent.startsWith('info string error') || gameText() !== before)
    return 'the illegal move h2i3 did not show the engine error or changed the game';
  const legal = await legalMoves(START_FEN, []);
  if (!state.book.length || state.book.some((b) => !legal.includes(b.move)))
    return `the start position's book moves (${JSON.stringify(state.book)}) are missing or not legal`;
  if ($('book').querySelectorAll('button').length !== state.book.length) return 'the book moves are not all shown';
  return null;
}

// Set-up: a bad position is refused with the engine's error, the game unchanged; a good one becomes the game.
async function checkSetup() {
  const before = gameText();
  press('setup');
  if (!setup.active || $('setup-panel').hidden) return 'set-up mode did not open';
  press('setup-clear');
  pickTool('K'); clickBoard('e0');
  pickTool('k'); clickBoard('d9');
  pickTool('P'); clickBoard('a0'); // no red pawn can reach a0
  pickTool('R'); clickBoard('a5'); clickBoard('b5'); clickBoard('b5'); // placed twice: the second click removes it
  press('setup-black');
  press('setup-done');
  await idle();
  if (!/^info string error.*pawn/.test($('error').textContent)) return `bad set-up: no engine error (${$('error').textContent})`;
  if (gameText() !== before) return 'the bad set-up changed the game';
  if (!setup.active) return 'the bad set-up left set-up mode (its edits lost)';
  pickTool('-'); clickBoard('a0');
  press('setup-done');
  await idle();
  if (setup.active || $('error').textContent) return `the good set-up was refused: ${$('error').textContent}`;
  if (state.startFen !== SETUP_FEN || state.red || Object.keys(state.board).length !== 3)
    return `the set-up game is ${state.startFen}, not ${SETUP_FEN}`;
  return null;
}

// The verdicts: a threefold repetition (the engine not answering), then a mate (the engine does not move after).
async function checkVerdicts() {
  press('new');
  await idle();
  $('auto').checked = false;
  for (const m of REPETITION) await clickMove(m);
  if (state.moves.length !== REPETITION.length) return `the repetition stopped after ${state.moves.join(' ')}`;
  if (!/^Game over: Draw \(1\/2-1\/2\): repetition/.test($('verdict').textContent))
    return `no repetition verdict (${$('verdict').textContent})`;
  await clickMove('h0g2');
  if (state.moves.length !== REPETITION.length) return 'a move was played after the verdict';
  $('auto').checked = true;
  $('fen').value = MATE_FEN;
  press('setfen');
  await idle();
  if (state.over) return 'the game was over before the mate';
  await clickMove('i0i9');
  if ($('verdict').textContent !== 'Game over: Red wins (1-0): black is checkmated.')
    return `no mate verdict (${$('verdict').textContent})`;
  if (state.moves.join(' ') !== 'i0i9') return `moves after the mate: ${state.moves.join(' ')}`;
  return null;
}

// MultiPV 2 in an analysis of the start position, then the user's h2e2 with the engine's answer (not from the
// book); resolves with the answer, or a FAIL text.
async function checkLinesAndAnswer() {
  press('new');
  await idle();
  $('limit').value = 'depth 6'; // the same answer on any machine
  $('multipv').value = '2';
  press('analyse');
  await idle();
  const legal = await legalMoves(START_FEN, []);
  const firsts = state.lines.map((l) => l.pv.split(' ')[0]);
  if (state.lines.length !== 2 || state.lines.some((l) => l.depth !== 6) || firsts[0] === firsts[1]
      || firsts.some((m) => !legal.includes(m)) || $('lines').rows.length !== 2)
    return { fail: `not two depth 6 lines with different legal moves: ${JSON.stringify(state.lines)}` };
  $('usebook').checked = false;
  const start = performance.now();
  await clickMove('h2e2');
  const ms = Math.round(performance.now() - start);
  const answer = state.moves[1];
  if (!answer) return { fail: 'no engine answer' };
  if (!(await legalMoves(START_FEN, ['h2e2'])).includes(answer)) return { fail: `the answer ${answer} is not a legal move` };
  if ($('lines').rows.length !== 2 || !state.lines[0].pv) return { fail: 'no depth / pv shown for the answer' };
  return { answer, ms, depth: state.lines[0].depth };
}

// With threads: a search until Stop (2 threads) deepens, answers isready and judge while it runs, and stops on
// Stop.
async function checkThreads() {
  $('threads').value = '2';
  $('limit').value = 'infinite';
  press('analyse');
  const start = performance.now();
  while (!(state.lines[0] && state.lines[0].depth >= INFINITE_DEPTH)) {
    if (performance.now() - start > INFINITE_WAIT_MS) return `the search until Stop did not reach depth ${INFINITE_DEPTH}`;
    await sleep(SELFTEST_POLL_MS);
  }
  engine.send('isready'); // during the search: only the threaded engine reads lines while it searches
  for (let k = 0; k < JUDGES_WHILE_SEARCHING; k++) engine.judge(`${START_FEN} h2e2`); // while its lines print
  await sleep(SELFTEST_POLL_MS);
  press('stop');
  await idle();
  const out = state.lastSearch, ready = out.indexOf('readyok');
  const best = out.findIndex((l) => /^bestmove [a-i][0-9][a-i][0-9]/.test(l));
  if (ready < 0 || best < 0 || ready > best) return 'no readyok during the search or no bestmove after Stop';
  if (out.filter((l, i) => l === '* game goes on' && i < best).length !== JUDGES_WHILE_SEARCHING)
    return 'judge was not answered during the search';
  $('limit').value = 'depth 6';
  return null;
}

// Runs the checks; writes the result into #selftest and the title.
async function selfTest() {
  const result = (text) => { $('selftest').textContent = text; document.title = text; };
  try {
    const bookMoves = state.book.length;
    for (const check of [checkErrorsAndBook, checkSetup, checkVerdicts]) {
      const failed = await check();
      if (failed) return result('FAIL: ' + failed);
    }
    const r = await checkLinesAndAnswer();
    if (r.fail) return result('FAIL: ' + r.fail);
    const threads = engine.threads ? await checkThreads() : null;
    if (threads) return result('FAIL: ' + threads);
    result(`PASS h2e2 ${r.answer} depth ${r.depth}, 2 lines, ${bookMoves} book moves, verdicts shown${engine.threads ? ', stopped a search on 2 threads' : ''}, ` +
           `engine ready ${state.readyMs} ms after load, answer in ${r.ms} ms, in ${engine.where}`);
  } catch (e) {
    result('FAIL: ' + (e.stack || e));
  }
}
