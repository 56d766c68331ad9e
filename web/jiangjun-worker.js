// jiangjun-worker.js - Jiangjun's one-thread wasm engine (jiangjun.js, built with XQ_WASM_THREADS=OFF) speaking
// its own protocol text: a line in (postMessage of a string), a message per output line out; and the rules'
// verdict on a game, `judge` (postMessage({ judge: '[--rules NAME] FEN [moves]' }): one line out, such as
// "1-0 black is checkmated", "* game goes on" or "error: ..."). In a Web Worker it runs as the worker's script
// (new Worker('jiangjun-worker.js')); where a page may not start a worker (a file:// page in Chromium), the
// page loads jiangjun.js and this file with <script> and calls JiangjunLines(onLine), which gives the same
// interface running in the page; under node (the npm package), require() of this file gives JiangjunLines.
// Each line runs to its end before the next (a search included), so give go a limit: depth, nodes, movetime
// or a clock (go infinite gets an error line). Requests run in the order they are sent.
'use strict';

// Starts the engine (factory: Emscripten's JiangjunEngine, the global of jiangjun.js unless given); onLine(text)
// receives each output line. Returns { send(lines), judge(args) }: lines may hold several lines separated by
// newlines; what is sent before the engine has loaded waits for it.
function JiangjunLines(onLine, factory) {
  const waiting = [];
  let engine = null;
  const run = ([kind, text]) => {
    if (kind === 'judge') engine.judge(text);
    else if (engine.session) engine.command(engine.session, text);
  };
  const post = (item) => { if (engine) run(item); else waiting.push(item); };
  // eslint-disable-next-line no-undef
  (factory || JiangjunEngine)({ print: onLine, printErr: (l) => onLine('info string stderr: ' + l) }).then((m) => {
    engine = {
      command: m.cwrap('jj_command', 'number', ['number', 'string']),
      judge: m.cwrap('jj_judge', 'number', ['string']),
      session: m.ccall('jj_open', 'number', [], []),
    };
    if (!engine.session) onLine('info string error: the engine could not start (out of memory)');
    while (waiting.length) run(waiting.shift());
  }, (e) => onLine('info string error: the engine could not load: ' + e));
  return {
    send(text) {
      for (const line of String(text).split(/\r?\n/)) post(['line', line]);
    },
    judge(args) { post(['judge', String(args)]); },
  };
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  importScripts('jiangjun.js');
  const engine = JiangjunLines((line) => postMessage(line));
  onmessage = (e) => {
    if (e.data && typeof e.data === 'object' && 'judge' in e.data) engine.judge(e.data.judge);
    else engine.send(e.data);
  };
} else if (typeof module === 'object' && module.exports) {
  module.exports = { JiangjunLines: (onLine) => JiangjunLines(onLine, require('./jiangjun.js')) };
}
