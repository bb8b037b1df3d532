// The layout screenshots in docs/screenshots/ (issue 26 §7): at 360×600, 390×844, 480×800 and
// 1280×1000, a game against the computer with a clock, the Swap2 choice between two players with
// analysis on (both rows of the panel), and the position editor, in English and the light theme. Headless Chromium on
// the real core (target/web/, built by scripts/web.sh), as the browser tests; each state is checked for cut text first (the layout
// test's check), then saved as an indexed PNG (png8.mjs) to keep the docs small.
//   npm run screenshots      (or: node ui-tests/screenshots.mjs)
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSite, launch, openSite } from './harness.mjs';
import { SIZES, deviceOf, layoutProblems } from './layout.mjs';
import { png8 } from './png8.mjs';

const DOCS = join(import.meta.dirname, '..', 'docs', 'screenshots');
// Against the computer (Medium), 5 minutes each: black's three moves near the centre (the
// first free of each list), each answered by the engine.
async function played(view) {
  const invoke = window.__TAURI__.core.invoke;
  let v = view;
  for (const choices of [['h8'], ['h9', 'g9', 'i7'], ['g8', 'j9', 'g6']]) {
    const point = choices.find((p) => !v.moves.includes(p));
    v = await invoke('play', { point, gameId: v.gameId, moveNumber: v.moveNumber });
    v = await invoke('computer_move', { gameId: v.gameId, moveNumber: v.moveNumber });
  }
  return v;
}
const GAME = { settings: { mode: 'computer', level: 3, clockMinutes: 5 }, then: played };

const press = (page, size, sel) => (size.touch ? page.tap(sel) : page.click(sel));

/** Each state: the game it starts from (see openSite), and how to get there from the page as loaded. */
const STATES = {
  game: { state: GAME, async reach(page) {
    await page.waitForSelector('#clock[data-running]');
  } },
  'swap2-analysis': { state: { settings: { mode: 'local', openingRule: 'swap2' } }, async reach(page, size) {
    for (const [k, point] of ['h8', 'h9', 'i9'].entries()) {
      await press(page, size, `#board [data-point="${point}"]`);
      await page.waitForFunction((n) => window.__calls.filter((c) => c.cmd === 'play').length >= n, k + 1);
      if (k < 2) await page.waitForSelector('#undo:not([disabled])');
    }
    await page.waitForSelector('#swap-two', { state: 'visible' });
    await press(page, size, '#analysis');
    await page.waitForSelector('#eval[data-score]');
  } },
  editor: { state: GAME, async reach(page, size) {
    await press(page, size, '#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.locator('#edit-position').scrollIntoViewIfNeeded();
    await press(page, size, '#edit-position');
    await page.waitForSelector('#editor:not([hidden])');
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
  } },
};

/** The RGBA pixels of a PNG, decoded by the browser on a page of its own. */
async function pixels(decoder, png) {
  const b64 = await decoder.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const rgba = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let s = '';
    for (let i = 0; i < rgba.length; i += 0x8000) s += String.fromCharCode(...rgba.subarray(i, i + 0x8000));
    return { width: canvas.width, height: canvas.height, data: btoa(s) };
  }, png.toString('base64'));
  return { ...b64, data: Buffer.from(b64.data, 'base64') };
}

const server = await startSite();
const browser = await launch();
const decoder = await (await browser.newContext()).newPage();
const problems = [];
let bytes = 0;
try {
  for (const size of SIZES) {
    for (const [name, state] of Object.entries(STATES)) {
      const device = { ...deviceOf(size), deviceScaleFactor: 1 };
      const { page, context, errors } = await openSite(browser, server, { device, reducedMotion: 'reduce', state: state.state });
      await state.reach(page, size);
      const where = `${size.width}x${size.height}-${name}`;
      for (const p of await page.evaluate(layoutProblems)) problems.push(`${where}: ${p}`);
      for (const e of errors) problems.push(`${where}: page error ${e}`);
      const { width, height, data } = await pixels(decoder, await page.screenshot());
      const file = png8(width, height, data, 64);
      await writeFile(join(DOCS, `layout-${where}.png`), file);
      bytes += file.length;
      console.log(`docs/screenshots/layout-${where}.png  ${(file.length / 1024).toFixed(0)} KB`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${(bytes / 1024).toFixed(0)} KB in all`);
if (problems.length) {
  console.error(`layout problems:\n${problems.join('\n')}`);
  process.exitCode = 1;
}
