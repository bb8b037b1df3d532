// The same UI in WebKitGTK (the desktop app's engine, and WebKit as on iOS): MiniBrowser driven
// through WebKitWebDriver, with the fake shell loaded from script tags. Skipped unless an X
// display (xvfb-run), WebKitWebDriver (Debian: webkit2gtk-driver) and MiniBrowser are present.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { startServer, ARTIFACTS } from './harness.mjs';

const DRIVER = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const skip = !process.env.DISPLAY
  ? 'no X display (run under xvfb-run)'
  : !existsSync(DRIVER)
    ? `no ${DRIVER} (apt-get install webkit2gtk-driver)`
    : !existsSync(MINIBROWSER)
      ? `no ${MINIBROWSER}`
      : false;

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('WebKitGTK: the board renders, a mouse click snaps and plays, back closes a sheet', { skip, timeout: 60_000 }, async () => {
  const fake = {
    moves: ['h8', 'i9', 'g7', 'i7'],
    settings: { mode: 'local', rule: 'renju', confirmMove: 'off' },
    view: { rule: 'renju', forbidden: [{ point: 'f10', reason: 'double-three' }] },
  };
  const server = await startServer({ fake });
  const port = await freePort();
  const driver = spawn(DRIVER, [`--port=${port}`], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const wd = async (method, path, body) => {
    const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    const json = await r.json();
    if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value)}`);
    return json.value;
  };
  let session;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await wd('GET', '/status')).ready) break;
      } catch (err) {
        if (i > 50) throw err;
      }
      await sleep(100);
    }
    session = (
      await wd('POST', '/session', {
        capabilities: { alwaysMatch: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } },
      })
    ).sessionId;
    const s = `/session/${session}`;
    const run = (script, args = []) => wd('POST', `${s}/execute/sync`, { script, args });
    const until = async (script, what) => {
      for (let i = 0; i < 100; i++) {
        if (await run(script)) return;
        await sleep(50);
      }
      throw new Error(`timed out waiting for ${what}`);
    };

    await wd('POST', `${s}/window/rect`, { width: 1100, height: 720 });
    await wd('POST', `${s}/url`, { url: server.url });
    await until('return document.documentElement.dataset.ready === "true"', 'the first board');
    assert.equal(await run('return document.querySelectorAll("#board [role=gridcell]").length'), 225);
    assert.equal(await run('return document.querySelector("[data-point=f10]").getAttribute("aria-label")'), 'F10, forbidden for black');
    const size = await run('const r = document.querySelector("#board").getBoundingClientRect(); return [r.width, r.height]');
    assert.ok(size[0] > 400 && Math.abs(size[0] - size[1]) < 1, `a large square board: ${size}`);

    // A real mouse click 0.2 pitch off k4 (col 10, row 11).
    const [x, y] = await run(`
      const cells = document.querySelectorAll('#board [role=gridcell]');
      const a = cells[0].getBoundingClientRect(), b = cells[cells.length - 1].getBoundingClientRect();
      const pitch = (b.left - a.left) / 14;
      return [Math.round(a.left + a.width / 2 + 10.2 * pitch), Math.round(a.top + a.height / 2 + 10.8 * pitch)];`);
    await wd('POST', `${s}/actions`, {
      actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [{ type: 'pointerMove', x, y }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }] }],
    });
    await until('return document.querySelector("[data-point=k4]").dataset.stone === "black"', 'the stone at k4');
    assert.equal(await run('return JSON.stringify(window.__fake.calls.filter((c) => c.cmd === "play").map((c) => c.args.point))'), '["k4"]');
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(join(ARTIFACTS, 'webkit-desktop.png'), Buffer.from(await wd('GET', `${s}/screenshot`), 'base64'));

    await run('document.querySelector("#settings").click()');
    await until('return document.querySelector("#settings-sheet").open', 'the settings sheet');
    await run('history.back()');
    await until('return !document.querySelector("#settings-sheet").open', 'back to close the sheet');
  } finally {
    if (session) await wd('DELETE', `/session/${session}`).catch(() => {});
    // SIGTERM lets WebKitWebDriver close MiniBrowser and free its port.
    driver.kill('SIGTERM');
    await server.close();
  }
});
