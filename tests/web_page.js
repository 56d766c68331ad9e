// The browser page in a real browser: serves a folder (build-web/web: web/ with the one-thread engine, or the
// installed npm package) on 127.0.0.1, opens index.html?selftest=1 in headless Chromium through the DevTools
// protocol, waits for the page's self test (web/selftest.js, clicking the page's controls and squares: a bad
// FEN and an illegal move show the engine's error and change nothing; the book's moves are shown; set-up mode
// places and removes pieces, a bad position gets the engine's error with the game unchanged, a good one
// becomes the game; a repetition and a mate show the engine's verdict and end the game; MultiPV 2 shows two
// depth 6 lines; h2e2 gets a legal answer) and saves a screenshot. Then serves it again with the COOP/COEP
// headers that make a page cross-origin isolated: where the folder has the threaded engine (jiangjun-threads.js)
// the page must run it (the self test then also stops a search until Stop on 2 threads; screenshot
// SCREENSHOT-threads.png), else the one-thread engine. Also opens the page from file:// (no worker may start
// there: the engine runs in the page) and runs the same self test.
// usage: node [--experimental-websocket] tests/web_page.js CHROMIUM WEB_DIR SCREENSHOT.png [SECONDS]
// (node's own WebSocket where it has one, node 22 or 20 with the flag; else, as on Debian 12's node 18, the
// small client below; XQ_TINY_WS=1 forces that)
'use strict';
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const [chromium, webDir, shotPath, secondsArg] = process.argv.slice(2);
const seconds = Number(secondsArg || 120);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
// The headers that make a page cross-origin isolated (SharedArrayBuffer, so wasm threads, are allowed)
const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// Serves webDir on 127.0.0.1 (a free port), with extra headers on every response; resolves with the server.
function serve(headers = {}) {
  const server = http.createServer((req, res) => {
    const name = path.join(webDir, path.normalize(decodeURIComponent(req.url.split('?')[0])).replace(/^(\.\.[/\\])+/, ''));
    fs.readFile(name, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[path.extname(name)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Starts headless Chromium with a fresh profile, in a process group of its own (its helpers too); resolves with
// { proc, profile, url } (url: the browser's DevTools socket).
function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-chromium-'));
  const proc = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--window-size=1100,800', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  return new Promise((resolve, reject) => {
    let err = '';
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) resolve({ proc, profile, url: m[1] });
    });
    proc.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${err.slice(-2000)}`)));
  });
}

// A minimal WebSocket client (text frames, client-masked) for node without one (Debian 12's node 18): the
// same onopen / onmessage / onerror / send as the global WebSocket, as far as connect() uses them.
function TinyWebSocket(url) {
  const self = this;
  const u = new URL(url);
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, headers: {
    Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': require('crypto').randomBytes(16).toString('base64') } });
  req.on('error', (e) => self.onerror && self.onerror(e));
  req.on('upgrade', (res, socket) => {
    let buf = Buffer.alloc(0), parts = [];
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        if (buf.length < 2) return;
        let len = buf[1] & 0x7f, at = 2;
        if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); at = 4; }
        else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); at = 10; }
        if (buf.length < at + len) return;
        const fin = buf[0] & 0x80, op = buf[0] & 0x0f;
        if (op === 0 || op === 1) parts.push(buf.subarray(at, at + len));
        buf = buf.subarray(at + len);
        if (fin && (op === 0 || op === 1)) { const text = Buffer.concat(parts).toString(); parts = []; self.onmessage({ data: text }); }
      }
    });
    self.send = (text) => {
      const data = Buffer.from(text), mask = require('crypto').randomBytes(4);
      const head = data.length < 126 ? Buffer.from([0x81, 0x80 | data.length])
        : data.length < 65536 ? Buffer.from([0x81, 0xfe, data.length >> 8, data.length & 0xff])
          : Buffer.concat([Buffer.from([0x81, 0xff]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(data.length)); return b; })()]);
      for (let i = 0; i < data.length; i++) data[i] ^= mask[i & 3];
      socket.write(Buffer.concat([head, mask, data]));
    };
    self.onopen();
  });
  req.end();
}

// A DevTools connection: send(method, params, sessionId) resolves with the result.
function connect(url) {
  const ws = typeof WebSocket === 'function' && !process.env.XQ_TINY_WS ? new WebSocket(url) : new TinyWebSocket(url);
  let id = 0;
  const waiting = new Map();
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.id && waiting.has(msg.id)) {
      const { resolve, reject } = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
    }
  };
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    waiting.set(++id, { resolve, reject });
    ws.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
  });
  return new Promise((resolve, reject) => { ws.onopen = () => resolve({ ws, send }); ws.onerror = reject; });
}

// Opens url in a new tab and waits for its #selftest text; resolves with { text, ms, sessionId }.
async function runPage(cdp, url) {
  const { targetId } = await cdp.send('Target.createTarget', { url });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const start = Date.now();
  for (;;) {
    // (no context for a moment while a cross-origin-isolated page swaps its process: asked again)
    const r = await cdp.send('Runtime.evaluate', {
      expression: "(document.getElementById('selftest') || {}).textContent || ''", returnByValue: true }, sessionId)
      .catch(() => ({ result: {} }));
    const text = r.result.value;
    if (text) return { text, ms: Date.now() - start, sessionId };
    if (Date.now() - start > seconds * 1000) {
      const s = await cdp.send('Runtime.evaluate', { expression: "document.getElementById('status').textContent + ' | ' + document.getElementById('log').textContent", returnByValue: true }, sessionId);
      return { text: `FAIL: no result in ${seconds} s (status: ${s.result.value})`, ms: Date.now() - start, sessionId };
    }
    await new Promise((res) => setTimeout(res, 200));
  }
}

// Runs the self test at url; prints its result, saves a screenshot to shot; resolves with the result text.
async function selfTest(cdp, what, url, shot) {
  const r = await runPage(cdp, url);
  console.log(`${what} ${url}: ${r.text} (${r.ms} ms to the result)`);
  if (shot) {
    const png = await cdp.send('Page.captureScreenshot', { format: 'png' }, r.sessionId);
    fs.writeFileSync(shot, Buffer.from(png.data, 'base64'));
    console.log(`screenshot ${shot}`);
  }
  return r.text;
}

(async () => {
  const server = await serve();
  const isolated = await serve(ISOLATED);
  const browser = await launch();
  const threaded = fs.existsSync(path.join(webDir, 'jiangjun-threads.js'));
  let failed = false;
  try {
    const cdp = await connect(browser.url);
    const page = (srv) => `http://127.0.0.1:${srv.address().port}/index.html?selftest=1`;
    const served = await selfTest(cdp, 'served', page(server), shotPath);
    const coi = await selfTest(cdp, 'served with COOP/COEP', page(isolated), shotPath.replace(/\.png$/, '-threads.png'));
    const local = await selfTest(cdp, 'file', 'file://' + path.resolve(webDir, 'index.html') + '?selftest=1');
    failed = ![served, coi, local].every((t) => t.startsWith('PASS'));
    if (/with threads/.test(served) || threaded !== /with threads/.test(coi)) {
      console.log(`FAIL: threads expected only served with COOP/COEP and only with jiangjun-threads.js (${threaded ? 'there' : 'absent'})`);
      failed = true;
    }
    await cdp.send('Browser.close').catch(() => {});
  } catch (e) {
    console.log('FAIL: ' + (e.stack || e));
    failed = true;
  }
  if (browser.proc.exitCode === null) {
    const exited = new Promise((res) => browser.proc.on('exit', res));
    browser.proc.kill();
    await exited;
  }
  // the helpers the browser started (renderers, zygotes, GPU) outlive it for a while: the group it led goes too
  try { process.kill(-browser.proc.pid, 'SIGKILL'); } catch (e) { /* none left */ }
  server.close();
  isolated.close();
  // Chromium's helper processes may still write into the profile for a moment after the browser exited
  try { fs.rmSync(browser.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); } catch (e) {
    console.log(`warning: the profile ${browser.profile} was not removed: ${e.message}`);
  }
  process.exit(failed ? 1 : 0);
})();
