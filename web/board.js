// board.js - the xiangqi board of the page: squares "a0".."i9", a board as a map square -> FEN piece letter,
// reading and writing a FEN's placement, and drawing a board into an SVG element (grid, river, palaces,
// pieces, the last move, a selected square). No engine and no page state here.
'use strict';

const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const FILES = 'abcdefghi';
const RANKS = 10;
const GRID = 50, MARGIN = 40, PIECE_R = 21; // the board's spacing, border and piece radius in SVG units
const GLYPH = { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
                k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' };
const ALIAS = { H: 'N', E: 'B', h: 'n', e: 'b' }; // the other letters FENs use for horse and elephant

// The squares of a FEN's placement as a map "a0".."i9" -> piece letter; null if it is not 10 ranks of 9 files
// of known letters.
function parsePlacement(fen) {
  const ranks = String(fen).trim().split(/\s+/)[0].split('/');
  if (ranks.length !== RANKS) return null;
  const board = {};
  for (let r = 0; r < RANKS; r++) {
    let file = 0;
    for (const ch of ranks[r]) {
      if (/[1-9]/.test(ch)) file += Number(ch);
      else if (GLYPH[ALIAS[ch] || ch] && file < FILES.length) { board[FILES[file] + (RANKS - 1 - r)] = ALIAS[ch] || ch; file++; }
      else return null;
    }
    if (file !== FILES.length) return null;
  }
  return board;
}

// The FEN placement of a board (the inverse of parsePlacement).
function placementOf(board) {
  const ranks = [];
  for (let r = RANKS - 1; r >= 0; r--) {
    let text = '', empty = 0;
    for (const f of FILES) {
      const piece = board[f + r];
      if (!piece) { empty++; continue; }
      if (empty) text += empty;
      text += piece;
      empty = 0;
    }
    ranks.push(text + (empty ? empty : ''));
  }
  return ranks.join('/');
}

// Is a piece letter Red's?
const isRed = (piece) => piece === piece.toUpperCase();

// The board after a move given as text ("h2e2"), on a copy.
function applyMove(board, move) {
  const b = Object.assign({}, board);
  b[move.slice(2, 4)] = b[move.slice(0, 2)];
  delete b[move.slice(0, 2)];
  return b;
}

// SVG coordinates of a square.
function squareXY(sq) {
  return [MARGIN + FILES.indexOf(sq[0]) * GRID, MARGIN + (RANKS - 1 - Number(sq[1])) * GRID];
}

// The square under a mouse event on the SVG element, or null off the board.
function squareAt(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const f = Math.round((p.x - MARGIN) / GRID), r = RANKS - 1 - Math.round((p.y - MARGIN) / GRID);
  return f < 0 || f >= FILES.length || r < 0 || r >= RANKS ? null : FILES[f] + r;
}

// The SVG of one piece centred at (x, y); extra: more classes.
function pieceSvg(piece, x, y, extra) {
  return `<g class="piece ${isRed(piece) ? 'red' : 'black'}${extra || ''}"><circle cx="${x}" cy="${y}" r="${PIECE_R}"/>` +
         `<text x="${x}" y="${y}">${GLYPH[piece] || piece}</text></g>`;
}

// Draws the grid, the river, the palaces, the pieces, the last move (text, or null) and the selected square.
function renderBoard(svg, board, last, selected) {
  const out = [];
  const L = (x1, y1, x2, y2) => out.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`);
  for (let r = 0; r < RANKS; r++) L(MARGIN, MARGIN + r * GRID, MARGIN + 8 * GRID, MARGIN + r * GRID);
  for (let f = 0; f < FILES.length; f++) {
    const x = MARGIN + f * GRID;
    if (f === 0 || f === 8) L(x, MARGIN, x, MARGIN + 9 * GRID);
    else { L(x, MARGIN, x, MARGIN + 4 * GRID); L(x, MARGIN + 5 * GRID, x, MARGIN + 9 * GRID); }
  }
  for (const top of [0, 7]) {
    L(MARGIN + 3 * GRID, MARGIN + top * GRID, MARGIN + 5 * GRID, MARGIN + (top + 2) * GRID);
    L(MARGIN + 5 * GRID, MARGIN + top * GRID, MARGIN + 3 * GRID, MARGIN + (top + 2) * GRID);
  }
  out.push(`<text class="river" x="${MARGIN + GRID}" y="${MARGIN + 4.6 * GRID}">楚 河</text>`);
  out.push(`<text class="river" x="${MARGIN + 5.6 * GRID}" y="${MARGIN + 4.6 * GRID}">漢 界</text>`);
  for (const sq of last ? [last.slice(0, 2), last.slice(2, 4)] : []) {
    const [x, y] = squareXY(sq);
    out.push(`<rect class="last" x="${x - 23}" y="${y - 23}" width="46" height="46"/>`);
  }
  for (const [sq, piece] of Object.entries(board)) {
    const [x, y] = squareXY(sq);
    out.push(pieceSvg(piece, x, y, selected === sq ? ' selected' : '').replace('<g ', `<g data-square="${sq}" `));
  }
  svg.innerHTML = out.join('');
}
