// The same UI in WebKitGTK (the desktop app's engine, and WebKit as on iOS): MiniBrowser driven
// through WebKitWebDriver, on the real core (the browser version scripts/web.sh builds into
// target/web/: the app core and the engine in wasm, in a Web Worker). Skipped unless an X
// display (xvfb-run), WebKitWebDriver (Debian: webkit2gtk-driver) and MiniBrowser are present.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { startSite, ARTIFACTS } from './harness.mjs';

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

test('WebKitGTK: the board renders, a mouse click snaps and plays, back closes a sheet', { skip, timeout: 180_000 }, async () => {
  // A renju game between two players, black to move with j10 a double-three (black h10 i10 and
  // j8 j9) and e2 a double-four, reached by playing it on the core.
  const black = ['h10', 'i10', 'j8', 'j9', 'b2', 'c2', 'd2', 'e3', 'e4', 'e5'];
  const white = ['o15', 'o13', 'o11', 'o9', 'o7', 'o5', 'm15', 'm13', 'm11', 'm9'];
  const moves = black.flatMap((b, i) => [b, white[i]]);
  const server = await startSite();
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
    // A command of the page's host (web-host.js), its reply as JSON.
    const invoke = (cmd, args = {}) =>
      wd('POST', `${s}/execute/async`, {
        script: 'const done = arguments[2]; window.__TAURI__.core.invoke(arguments[0], arguments[1]).then((r) => done(JSON.stringify(r ?? null)), (e) => done(JSON.stringify({ error: e })));',
        args: [cmd, args],
      }).then(JSON.parse);
    // Polls for up to a minute: the real core starts in wasm on a shared machine.
    const until = async (script, what) => {
      for (let i = 0; i < 1200; i++) {
        if (await run(script)) return;
        await sleep(50);
      }
      throw new Error(`timed out waiting for ${what}`);
    };

    await wd('POST', `${s}/window/rect`, { width: 1100, height: 720 });
    await wd('POST', `${s}/url`, { url: server.url });
    await until('return document.documentElement.dataset.ready === "true"', 'the first board');
    await invoke('set_settings', { settings: { mode: 'local', rule: 'renju', confirmMove: 'off', language: 'en' } });
    let view = await invoke('new_game', { options: { mode: 'local', rule: 'renju' } });
    for (const point of moves) view = await invoke('play', { point, gameId: view.gameId, moveNumber: view.moveNumber });
    assert.deepEqual(view.forbidden, [{ point: 'j10', reason: 'double-three' }, { point: 'e2', reason: 'double-four' }]);
    await invoke('save_now');
    await wd('POST', `${s}/refresh`, {});
    await until('return document.documentElement.dataset.ready === "true" && !!document.querySelector("[data-point=h10][data-stone=black]")', 'the saved game');
    assert.equal(await run('return document.querySelectorAll("#board [role=gridcell]").length'), 225);
    assert.equal(await run('return document.querySelector("[data-point=j10]").getAttribute("aria-label")'), 'J10, forbidden for black');
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
    const { game } = await invoke('get_state');
    assert.deepEqual(game.moves, [...moves, 'k4'], 'one move played, at k4');
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
