// setup.js - the page's set-up mode: a palette of the 14 pieces and a remover, placing and removing pieces on a
// copy of the board, and the side to move. It only edits its copy: on Done the page (app.js) sends the FEN of
// setupFen() to the engine, which checks it; the game changes only if the engine accepts it.
'use strict';

const PALETTE = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p'];
const REMOVER = '-'; // the palette's tool that empties a square
const PALETTE_GRID = 48; // spacing of the palette's pieces in SVG units

const setup = { active: false, board: {}, red: true, tool: 'R' };

// Starts set-up mode from a board and side to move (copied).
function setupEnter(board, red) {
  Object.assign(setup, { active: true, board: Object.assign({}, board), red });
}

// Ends set-up mode (its copy is dropped).
function setupLeave() { setup.active = false; }

// A click on a board square in set-up mode: the tool's piece goes there, or (the remover, or the same piece
// again) the square is emptied.
function setupClick(sq) {
  if (setup.tool === REMOVER || setup.board[sq] === setup.tool) delete setup.board[sq];
  else setup.board[sq] = setup.tool;
}

// The position being set up as a FEN (no move counters to carry: 0 1).
function setupFen() { return `${placementOf(setup.board)} ${setup.red ? 'w' : 'b'} - - 0 1`; }

// Draws the palette (the tool selected) into its SVG element; each tool has data-tool.
function renderPalette(svg) {
  const out = [];
  const cell = (i, row) => [PALETTE_GRID / 2 + i * PALETTE_GRID, PALETTE_GRID / 2 + row * PALETTE_GRID];
  PALETTE.forEach((piece, i) => {
    const [x, y] = cell(i % 7, Math.floor(i / 7));
    out.push(pieceSvg(piece, x, y, setup.tool === piece ? ' selected' : '').replace('<g ', `<g data-tool="${piece}" `));
  });
  const [x, y] = cell(7, 0);
  out.push(`<g class="piece remover${setup.tool === REMOVER ? ' selected' : ''}" data-tool="${REMOVER}">` +
           `<circle cx="${x}" cy="${y}" r="${PIECE_R}"/><text x="${x}" y="${y}">✕</text></g>`);
  svg.innerHTML = out.join('');
}

// A click on the palette: selects the tool under it.
function onPaletteClick(ev) {
  const g = ev.target.closest('[data-tool]');
  if (g) { setup.tool = g.getAttribute('data-tool'); renderPalette(ev.currentTarget); }
}
