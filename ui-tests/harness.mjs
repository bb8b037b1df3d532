// Shared by the browser tests: a static server for the browser version (target/web/, the real
// app core and engine in wasm), Debian's Chromium through playwright-core (never a downloaded
// browser), and pages of it at a given game, with a recorder of the commands the UI sends.
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = join(here, '..', 'artifacts');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true };
export const DESKTOP = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, hasTouch: false, isMobile: false };

/** Screen pixel of the intersection (col, row), from the rendered board. */
export async function pointPixel(page, col, row) {
  return page.evaluate(([c, r]) => {
    const size = Number(document.querySelector('#board').dataset.size);
    const cells = document.querySelectorAll('#board [role="gridcell"]');
    const a = cells[0].getBoundingClientRect();
    const b = cells[cells.length - 1].getBoundingClientRect();
    const x0 = a.left + a.width / 2;
    const y0 = a.top + a.height / 2;
    const pitch = (b.left + b.width / 2 - x0) / (size - 1);
    return { x: x0 + c * pitch, y: y0 + r * pitch, pitch };
  }, [col, row]);
}


// ---------------------------------------------------------------------------------------------
// The browser version on the real core: the site scripts/web.sh builds into target/web/ (the
// app core and the engine in wasm, in a Web Worker behind web-host.js), served as it is.

export const SITE = join(here, '..', 'target', 'web');
const SITE_TYPES = { ...TYPES, '.wasm': 'application/wasm', '.webmanifest': 'application/manifest+json' };

/** A static server for target/web/ on 127.0.0.1, as `scripts/web.sh serve` is. */
export async function startSite() {
  try {
    await stat(join(SITE, 'wuzi_web_bg.wasm'));
  } catch {
    throw new Error('no target/web/: run scripts/web.sh first (scripts/ui-tests.sh does)');
  }
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    const file = join(SITE, normalize(decodeURIComponent(path === '/' ? '/index.html' : path)));
    if (!file.startsWith(SITE)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': SITE_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Runs in the page before its scripts: records every command the UI sends to the host (the
 * real one, web-host.js, which it wraps as it is set up), in `window.__calls` (with `settled`
 * once its reply came), and the channels passed with them in `window.__channels`. It only
 * looks: every call goes on to the core unchanged, except for the refusals a test queues in
 * `window.__refusals` (`{ cmd, code }`, each used once). Those stand for answers the browser
 * host cannot give: it runs one command at a time, so it never answers `busy` as the Tauri
 * app does while its engine is locked, and never refuses a move the UI allows. A refused call
 * does not reach the core.
 */
function recordCalls() {
  window.__calls = [];
  window.__channels = [];
  window.__refusals = [];
  let host;
  Object.defineProperty(window, '__TAURI__', {
    configurable: true,
    get: () => host,
    set(value) {
      const send = value.core.invoke;
      value.core.invoke = (cmd, args) => {
        const call = { cmd, args: args === undefined ? null : JSON.parse(JSON.stringify(args)), t: performance.now(), settled: false };
        window.__calls.push(call);
        for (const arg of Object.values(args ?? {})) if (arg instanceof value.core.Channel) window.__channels.push(arg);
        const refusal = window.__refusals.findIndex((r) => r.cmd === cmd);
        const reply = refusal < 0
          ? send(cmd, args)
          : Promise.reject(((r) => ({ code: r.code, message: `refused by the test: ${r.code}` }))(window.__refusals.splice(refusal, 1)[0]));
        reply.then(() => { call.settled = true; }, () => { call.settled = true; });
        return reply;
      };
      host = value;
    },
  });
}

/** The settings every test starts from unless it says otherwise (one tap places a stone). */
export const BASE_SETTINGS = { mode: 'computer', humanColor: 'black', level: 3, rule: 'freestyle', size: 15, confirmMove: 'off', sound: false, language: 'en' };

/**
 * The position a test starts from, reached through the real core as a player would: the
 * settings saved, a new game started with them, then `record` (a move list or SGF) loaded or
 * `moves` played one by one, then `then(view)` run in the page for anything else (it calls
 * `window.__TAURI__.core.invoke` itself and returns the view); the page is then loaded again,
 * as the app is restarted, and shows the saved game. With `saved`, a function run in the page
 * on the saved game (the parsed `wuzi:game.json`) before that load, the game is as an earlier
 * session left it (say, with more time spent on the clock than a test can wait). The commands
 * of this preparation are not in `__calls`.
 */
async function prepare(page, { settings = {}, moves = [], record = null, then = null, saved = null }) {
  let view = await page.evaluate(
    async ({ settings, moves, record }) => {
      const invoke = (cmd, args) => window.__TAURI__.core.invoke(cmd, args);
      const s = await invoke('set_settings', { settings });
      const options = { mode: s.mode, rule: s.rule, size: s.size, level: s.level, humanColor: s.humanColor, renjuOpening: s.renjuOpening, openingRule: s.openingRule };
      let view = await invoke('new_game', { options });
      if (record) view = await invoke('import_record', { text: record });
      for (const point of moves) view = await invoke('play', { point, gameId: view.gameId, moveNumber: view.moveNumber });
      return view;
    },
    { settings: { ...BASE_SETTINGS, ...settings }, moves, record },
  );
  if (then) view = await page.evaluate(then, view);
  await page.evaluate(() => window.__TAURI__.core.invoke('save_now'));
  if (saved) {
    const apply = () => {
      if (sessionStorage.getItem('wuzi-test:saved')) return;
      sessionStorage.setItem('wuzi-test:saved', '1');
      const game = JSON.parse(localStorage.getItem('wuzi:game.json'));
      localStorage.setItem('wuzi:game.json', JSON.stringify(EDIT(game)));
    };
    await page.addInitScript({ content: `(${apply})()`.replace('EDIT', `(${saved})`) });
  }
  await page.reload();
}

/**
 * A page of the browser version on the real core, at `state` (see prepare()), loaded and
 * showing the board. `init` scripts run in the page before its own (after the recorder).
 * @param {import('playwright-core').Browser} browser
 */
export async function openSite(browser, site, { device = PHONE, colorScheme = 'light', reducedMotion = 'no-preference', locale = 'en-US', state = {}, init = [] } = {}) {
  const context = await browser.newContext({ ...device, colorScheme, reducedMotion, locale, serviceWorkers: 'block' });
  // The core and the engine start and search in wasm on a shared, niced machine: a condition
  // may take long to come, so waits give up only after a minute and a half (not Playwright's 30 s).
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.addInitScript(recordCalls);
  for (const script of init) await page.addInitScript(script);
  await page.goto(site.url);
  await page.waitForSelector('html[data-ready="true"]');
  if (state) await prepare(page, state);
  await page.waitForSelector('html[data-ready="true"]');
  await page.waitForSelector('#board [role="gridcell"]');
  return { page, context, errors };
}

/** The commands the UI sent, `cmd` only if given. */
export const calls = (page, cmd) => page.evaluate((c) => window.__calls.filter((x) => !c || x.cmd === c), cmd);
export const stoneAt = (page, point) => page.getAttribute(`#board [data-point="${point}"]`, 'data-stone');
