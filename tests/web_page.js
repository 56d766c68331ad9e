// The browser page in a real browser: serves a folder (build-web/web: web/ with the one-thread engine) on
// 127.0.0.1, opens index.html?selftest=1 in headless Chromium through the DevTools protocol, waits for the
// page's self test (app.js selfTest: a bad FEN and an illegal move show the engine's error and change nothing,
// the move h2e2 played with two clicks gets the engine's answer, which the engine's perft lists as legal, with
// depth and pv shown) and saves a screenshot. Also opens the page from file:// (no worker may start there: the
// engine runs in the page) and runs the same self test.
// usage: node --experimental-websocket tests/web_page.js CHROMIUM WEB_DIR SCREENSHOT.png [SECONDS]
'use strict';
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const [chromium, webDir, shotPath, secondsArg] = process.argv.slice(2);
const seconds = Number(secondsArg || 120);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

// Serves webDir on 127.0.0.1 (a free port); resolves with the server.
function serve() {
  const server = http.createServer((req, res) => {
    const name = path.join(webDir, path.normalize(decodeURIComponent(req.url.split('?')[0])).replace(/^(\.\.[/\\])+/, ''));
    fs.readFile(name, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(name)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Starts headless Chromium with a fresh profile; resolves with { proc, ws } (the browser's DevTools socket).
function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-chromium-'));
  const proc = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--window-size=1100,800', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
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

// A DevTools connection: send(method, params, sessionId) resolves with the result.
function connect(url) {
  const ws = new WebSocket(url);
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
    const r = await cdp.send('Runtime.evaluate', {
      expression: "(document.getElementById('selftest') || {}).textContent || ''", returnByValue: true }, sessionId);
    const text = r.result.value;
    if (text) return { text, ms: Date.now() - start, sessionId };
    if (Date.now() - start > seconds * 1000) {
      const s = await cdp.send('Runtime.evaluate', { expression: "document.getElementById('status').textContent + ' | ' + document.getElementById('log').textContent", returnByValue: true }, sessionId);
      return { text: `FAIL: no result in ${seconds} s (status: ${s.result.value})`, ms: Date.now() - start, sessionId };
    }
    await new Promise((res) => setTimeout(res, 200));
  }
}

(async () => {
  const server = await serve();
  const browser = await launch();
  let failed = false;
  try {
    const cdp = await connect(browser.url);
    const base = `http://127.0.0.1:${server.address().port}/index.html?selftest=1`;
    const served = await runPage(cdp, base);
    console.log(`served ${base}: ${served.text} (${served.ms} ms to the result)`);
    const shot = await cdp.send('Page.captureScreenshot', { format: 'png' }, served.sessionId);
    fs.writeFileSync(shotPath, Buffer.from(shot.data, 'base64'));
    console.log(`screenshot ${shotPath}`);
    const fileUrl = 'file://' + path.resolve(webDir, 'index.html') + '?selftest=1';
    const local = await runPage(cdp, fileUrl);
    console.log(`file ${fileUrl}: ${local.text} (${local.ms} ms to the result)`);
    failed = !served.text.startsWith('PASS') || !local.text.startsWith('PASS');
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
  server.close();
  fs.rmSync(browser.profile, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
})();
