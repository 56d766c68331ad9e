// jiangjun-worker.js - Jiangjun's wasm engine speaking its own protocol text: a line in (postMessage of a
// string), a message per output line out; and the rules' verdict on a game, `judge` (postMessage({ judge:
// '[--rules NAME] FEN [moves]' }): one line out, such as "1-0 black is checkmated", "* game goes on" or
// "error: ..."). In a Web Worker it runs as the worker's script (new Worker('jiangjun-worker.js')) and first
// posts { engine: 'threads' | 'one thread', cores }: the threaded engine (jiangjun-threads.js, built with
// XQ_WASM_WEB) where the page is cross-origin isolated (served with COOP/COEP headers) and the file is there,
// unless the worker's URL says ?threads=0; else the one-thread engine (jiangjun.js, XQ_WASM_THREADS=OFF).
// Where a page may not start a worker (a file:// page in Chromium), the page loads jiangjun.js and this file
// with <script> and calls JiangjunLines(onLine), which gives the same interface (one thread) running in the
// page; under node (the npm package), require() of this file gives JiangjunLines.
// One thread: each line runs to its end before the next (a search included), so give go a limit (depth,
// nodes, movetime or a clock; go infinite gets an error line). Threads: the engine reads lines as it does on
// stdin (stop and isready are answered during a search; go infinite runs until stop), and judge answers at once.
'use strict';

// judge through the engine m: its lines to onLine (jj_judge returns them; the caller frees the text).
function judgeCall(m, onLine) {
  const judge = m.cwrap('jj_judge', 'number', ['string']);
  return (args) => {
    const text = judge(args);
    if (!text) { onLine('error: out of memory'); return; }
    for (const line of m.UTF8ToString(text).split('\n')) if (line) onLine(line);
    m._free(text);
  };
}

// The calls of the one-thread engine (Emscripten module m of jiangjun.js): a session fed a line per call.
function oneThreadCalls(m, onLine) {
  const command = m.cwrap('jj_command', 'number', ['number', 'string']);
  const session = m.ccall('jj_open', 'number', [], []);
  return session && { line: (text) => command(session, text), judge: judgeCall(m, onLine) };
}

// The calls of the threaded engine (jiangjun-threads.js): the protocol loop on its own thread, fed pushed lines.
function threadCalls(m, onLine) {
  const push = m.cwrap('jj_push', 'number', ['number', 'string']);
  const loop = m.ccall('jj_start', 'number', [], []);
  return loop && { line: (text) => push(loop, text), judge: judgeCall(m, onLine) };
}

// Starts the engine; onLine(text) receives each output line. options.factory: the Emscripten factory
// (JiangjunEngine, the global of jiangjun.js, unless given); options.threads: the URL of jiangjun-threads.js
// when the factory is its JiangjunThreads. Returns { send(lines), judge(args) }: lines may hold several lines
// separated by newlines; what is sent before the engine has loaded waits for it.
function JiangjunLines(onLine, options = {}) {
  const waiting = [];
  let calls = null;
  const run = ([kind, text]) => (kind === 'judge' ? calls.judge(text) : calls.line(text));
  const post = (item) => { if (calls) run(item); else waiting.push(item); };
  const settings = { print: onLine, printErr: (l) => onLine('info string stderr: ' + l) };
  if (options.threads) settings.mainScriptUrlOrBlob = options.threads; // what the threads' workers load
  // eslint-disable-next-line no-undef
  (options.factory || JiangjunEngine)(settings).then((m) => {
    calls = (options.threads ? threadCalls : oneThreadCalls)(m, onLine);
    if (!calls) {
      onLine('info string error: the engine could not start (out of memory)');
      calls = { line() {}, judge() {} };
    }
    while (waiting.length) run(waiting.shift());
  }, (e) => onLine('info string error: the engine could not load: ' + e));
  return {
    send(text) {
      for (const line of String(text).split(/\r?\n/)) post(['line', line]);
    },
    judge(args) { post(['judge', String(args)]); },
  };
}

// In a worker: the threaded engine where it may run and is there, else the one-thread engine.
function startWorker() {
  let threads = null;
  if (self.crossOriginIsolated && !/[?&]threads=0/.test(location.search)) {
    try {
      importScripts('jiangjun-threads.js');
      threads = new URL('jiangjun-threads.js', location.href).href;
    } catch (e) {
      threads = null; // not built (XQ_WEB_THREADS=OFF): one thread
    }
  }
  if (!threads) importScripts('jiangjun.js');
  postMessage({ engine: threads ? 'threads' : 'one thread', cores: navigator.hardwareConcurrency || 1 });
  // eslint-disable-next-line no-undef
  const engine = JiangjunLines((line) => postMessage(line), threads ? { factory: JiangjunThreads, threads } : {});
  onmessage = (e) => {
    if (e.data && typeof e.data === 'object' && 'judge' in e.data) engine.judge(e.data.judge);
    else engine.send(e.data);
  };
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  startWorker();
} else if (typeof module === 'object' && module.exports) {
  module.exports = { JiangjunLines: (onLine) => JiangjunLines(onLine, { factory: require('./jiangjun.js') }) };
}
