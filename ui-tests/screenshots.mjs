// The layout screenshots in docs/screenshots/ (issue 26 §7): at 360×600, 390×844, 480×800 and
// 1280×1000, a game against the computer with a clock, the Swap2 choice between two players with
// analysis on (both rows of the panel), and the position editor, in English and the light theme. Headless Chromium with
// the fake shell, as the browser tests; each state is checked for cut text first (the layout
// test's check), then saved as an indexed PNG (png8.mjs) to keep the docs small.
//   npm run screenshots      (or: node ui-tests/screenshots.mjs)
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, launch, openApp } from './harness.mjs';
import { SIZES, deviceOf, layoutProblems } from './layout.mjs';
import { png8 } from './png8.mjs';

const DOCS = join(import.meta.dirname, '..', 'docs', 'screenshots');
const CLOCK = { blackMs: 61_000, whiteMs: 65_000, totalMs: 126_000, blackLeftMs: 239_000, whiteLeftMs: 235_000, limit: { baseMs: 300_000, incrementMs: 0 } };
const GAME = { settings: { mode: 'computer', level: 3, confirmMove: 'off' }, moves: ['h8', 'i9', 'h9', 'h10', 'g8', 'i8'], clock: CLOCK };

const press = (page, size, sel) => (size.touch ? page.tap(sel) : page.click(sel));

/** Each state: its fake shell, and how to get there from the page as loaded. */
const STATES = {
  game: { fake: GAME, async reach(page) {
    await page.waitForSelector('#clock[data-running]');
  } },
  'swap2-analysis': { fake: { settings: { mode: 'local', confirmMove: 'off', openingRule: 'swap2' } }, async reach(page, size) {
    for (const [k, point] of ['h8', 'h9', 'i9'].entries()) {
      await press(page, size, `#board [data-point="${point}"]`);
      await page.waitForFunction((n) => window.__fake.count('play') >= n, k + 1);
      if (k < 2) await page.waitForSelector('#undo:not([disabled])');
    }
    await page.waitForSelector('#swap-two', { state: 'visible' });
    await press(page, size, '#analysis');
    await page.waitForSelector('#eval[data-score]');
  } },
  editor: { fake: GAME, async reach(page, size) {
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

const server = await startServer();
const browser = await launch();
const decoder = await (await browser.newContext()).newPage();
const problems = [];
let bytes = 0;
try {
  for (const size of SIZES) {
    for (const [name, state] of Object.entries(STATES)) {
      const device = { ...deviceOf(size), deviceScaleFactor: 1 };
      const { page, context, errors } = await openApp(browser, server, { device, reducedMotion: 'reduce', fake: state.fake });
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
