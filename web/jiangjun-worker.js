// jiangjun-worker.js - Jiangjun's one-thread wasm engine (jiangjun.js, built with XQ_WASM_THREADS=OFF) speaking
// its own protocol text: a line in (postMessage), a message per output line out. In a Web Worker it runs as
// the worker's script (new Worker('jiangjun-worker.js')); where a page may not start a worker (a file:// page
// in Chromium), the page loads jiangjun.js and this file with <script> and calls JiangjunLines(onLine), which
// gives the same interface running in the page. Each line runs to its end before the next (a search
// included), so give go a limit: depth, nodes, movetime or a clock (go infinite gets an error line).
'use strict';

// Starts the engine; onLine(text) receives each output line. Returns { send(lines) }: lines may hold several
// lines separated by newlines; those sent before the engine has loaded wait for it.
function JiangjunLines(onLine) {
  const waiting = [];
  let command = null;
  let session = 0;
  const run = (line) => { if (session) command(session, line); };
  // eslint-disable-next-line no-undef
  JiangjunEngine({ print: onLine, printErr: (l) => onLine('info string stderr: ' + l) }).then((m) => {
    command = m.cwrap('jj_command', 'number', ['number', 'string']);
    session = m.ccall('jj_open', 'number', [], []);
    if (!session) onLine('info string error: the engine could not start (out of memory)');
    while (waiting.length) run(waiting.shift());
  }, (e) => onLine('info string error: the engine could not load: ' + e));
  return {
    send(text) {
      for (const line of String(text).split(/\r?\n/)) {
        if (command) run(line); else waiting.push(line);
      }
    },
  };
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  importScripts('jiangjun.js');
  const engine = JiangjunLines((line) => postMessage(line));
  onmessage = (e) => engine.send(e.data);
}
