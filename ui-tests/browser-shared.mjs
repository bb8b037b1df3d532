// Shared by the Chromium test files (browser-*.test.mjs): the server and browser for a file's
// tests, pages of the browser version on the real core, and the helpers the tests drive the UI
// with.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { startSite, launch, openSite, pointPixel, ARTIFACTS } from './harness.mjs';

/** The file's server and browser, set by useBrowser()'s hooks. */
export const env = { site: null, browser: null };

/** Starts a server for target/web/ and Chromium before the file's tests, and stops them after. */
export function useBrowser() {
  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    env.site = await startSite();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
}

export const LOCAL = { settings: { mode: 'local', confirmMove: 'off' } };
// A two-player game black won on move 9 (h8 to l8), for the review tests.
export const FINISHED = { ...LOCAL, moves: ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'] };

export async function open(opts = {}) {
  const app = await openSite(env.browser, env.site, opts);
  app.done = async () => {
    assert.deepEqual(app.errors, [], 'no page errors or CSP violations');
    await app.context.close();
  };
  return app;
}

export async function tapAt(page, col, row, dx = 0, dy = 0) {
  const p = await pointPixel(page, col, row);
  await page.touchscreen.tap(p.x + dx * p.pitch, p.y + dy * p.pitch);
}

export const waitCalls = (page, cmd, n) =>
  page.waitForFunction(([c, k]) => window.__calls.filter((x) => x.cmd === c).length >= k, [cmd, n]);
// The n-th play call was made and its reply is on screen. A move made while the previous one is
// still in flight is refused (the UI is busy), so a test must wait for this before the next
// move; Undo comes back only with the reply (local games: every move can be undone).
export async function waitPlayed(page, n) {
  await waitCalls(page, 'play', n);
  await page.waitForSelector('#undo:not([disabled])');
}
export const statusText = (page) => page.textContent('#status');
export const placed = (page) => page.locator('#board [data-stone="black"], #board [data-stone="white"]').count();

/**
 * The page has handled everything already dispatched to it: input events (the UI acts on a tap
 * inside its handler, and the recorder notes a call as it is made), replies already resolved
 * (their handlers run in microtasks) and a frame drawn. A reply still on its way from the
 * core's worker is not waited for: see waitSettled(). For checking that something did NOT
 * happen after an input or a late reply, where there is no event to wait for.
 */
export const settled = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

/** The game as the core has it now (gameId, moveNumber, moves …), asked of the real host. */
export const currentGame = async (page) => (await page.evaluate(() => window.__TAURI__.core.invoke('get_state'))).game;

/** Every `cmd` sent so far has had its reply (or rejection) from the core. */
export const waitSettled = (page, cmd) =>
  page.waitForFunction((c) => window.__calls.filter((x) => x.cmd === c).every((x) => x.settled), cmd);

/**
 * Starts noting every white stone the board draws, from now on; `whiteStonesDrawn()` lists
 * them. Shows whether a reply the UI had to drop was drawn, even for a moment.
 */
export async function watchWhiteStones(page) {
  await page.evaluate(() => {
    window.__whiteDrawn = [];
    new MutationObserver((records) => {
      for (const r of records) if (r.target.dataset.stone === 'white') window.__whiteDrawn.push(r.target.dataset.point);
    }).observe(document.querySelector('#board'), { subtree: true, attributeFilter: ['data-stone'] });
  });
}
export const whiteStonesDrawn = (page) => page.evaluate(() => window.__whiteDrawn);

/** The page goes to the background (or comes back), as the system tells it. */
export const setHidden = (page, hidden) =>
  page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { value: h, configurable: true });
    Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
