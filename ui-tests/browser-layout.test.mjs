// Layout at the window sizes of issue 26 §7 (360×600, 390×844, 480×800, 1280×1000), in headless
// Chromium with the fake shell: no text is cut (no ellipsis, no clipped label: every element that
// holds text shows all of it), no row of buttons and no button label wraps onto a second line,
// and turning analysis on does not move the board. Saves a screenshot per size to
// docs/screenshots/ (a Swap2 choice with analysis on: the toolbar, the opening row and the panel).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, launch, openApp, PHONE, DESKTOP } from './harness.mjs';

const DOCS = join(import.meta.dirname, '..', 'docs', 'screenshots');
const SIZES = [
  { width: 360, height: 600, device: PHONE },
  { width: 390, height: 844, device: PHONE },
  { width: 480, height: 800, device: DESKTOP },
  { width: 1280, height: 1000, device: DESKTOP },
];

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(size, fake) {
  const device = { ...size.device, deviceScaleFactor: size.device === PHONE ? 2 : 1, viewport: { width: size.width, height: size.height } };
  const app = await openApp(browser, server, { device, reducedMotion: 'reduce', fake });
  app.done = async () => {
    assert.deepEqual(app.errors, [], 'no page errors or CSP violations');
    await app.context.close();
  };
  return app;
}

/**
 * Every visible element holding text whose text does not fit its box (cut, ellipsis, clamped),
 * every visible button whose label takes more than one line, every row of buttons on more than
 * one line, and every visible <select> whose chosen option does not fit.
 */
function problems(page) {
  return page.evaluate(() => {
    const out = [];
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('dialog:not([open]), .sr-only, [hidden]');
    const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${el.textContent.trim().slice(0, 40)}"`;
    const inline = (el) => /^inline($| )|^contents$/.test(getComputedStyle(el).display);
    const textNodes = (el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT) });
      const nodes = [];
      while (walker.nextNode()) nodes.push(walker.currentNode);
      return nodes;
    };
    const rectsOf = (node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return [...range.getClientRects()].filter((r) => r.width > 0);
    };
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('svg') || !shown(el)) continue;
      const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      if (!own.length) continue;
      // The box that lays the text out (itself, or its nearest ancestor that is not inline): text
      // that overflows a box that hides or ellipsises its overflow is cut.
      let box = el;
      while (box.parentElement && inline(box)) box = box.parentElement;
      const style = getComputedStyle(box);
      if (style.overflowX !== 'visible' && box.scrollWidth > box.clientWidth + 1) out.push(`text cut sideways: ${name(box)} (${box.scrollWidth} > ${box.clientWidth})`);
      if (style.overflowY !== 'visible' && box.scrollHeight > box.clientHeight + 1) out.push(`text cut below: ${name(box)} (${box.scrollHeight} > ${box.clientHeight})`);
      // Text that spills out of its box is cut by any ancestor that clips.
      const rects = own.flatMap(rectsOf);
      for (let a = box.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const r = a.getBoundingClientRect();
        if (rects.some((t) => t.left < r.left - 1 || t.right > r.right + 1 || t.top < r.top - 1 || t.bottom > r.bottom + 1)) {
          out.push(`text clipped by ${name(a)}: ${name(el)}`);
          break;
        }
      }
    }
    for (const button of document.querySelectorAll('button')) {
      if (!shown(button)) continue;
      // One line of text: no piece of it starts a line's height (well, most of one) below another.
      const rects = textNodes(button).flatMap(rectsOf);
      const tops = rects.map((r) => r.top);
      const line = Math.min(...rects.map((r) => r.height));
      if (rects.length && Math.max(...tops) - Math.min(...tops) > line * 0.6) out.push(`label on more than one line: ${name(button)}`);
    }
    // Rows of buttons laid out side by side (not the columns of a side panel) stay on one line.
    for (const row of document.querySelectorAll('.toolbar, .swap-row, .review-bar, .editor-row, .editor-palette')) {
      if (!shown(row)) continue;
      const s = getComputedStyle(row);
      if (s.display === 'grid' && s.gridTemplateColumns.split(' ').length < 2) continue;
      if (s.display === 'flex' && s.flexDirection.startsWith('column')) continue;
      const buttons = [...row.children].filter((c) => c.tagName === 'BUTTON' && shown(c) && getComputedStyle(c).flexBasis !== '100%');
      const tops = buttons.map((c) => c.getBoundingClientRect().top);
      if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 1) out.push(`buttons on more than one line: ${name(row)}`);
    }
    const ctx = document.createElement('canvas').getContext('2d');
    for (const select of document.querySelectorAll('select')) {
      if (!shown(select) || select.selectedIndex < 0) continue;
      const s = getComputedStyle(select);
      ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const textWidth = ctx.measureText(select.options[select.selectedIndex].text).width;
      // The content box less the drop-down arrow (about 20 px in Chromium).
      const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;
      if (textWidth > room) out.push(`select clips its choice: ${name(select)} ("${select.options[select.selectedIndex].text}": ${textWidth.toFixed(0)} > ${room.toFixed(0)})`);
    }
    return out;
  });
}

const cell = (page, point) => `#board [data-point="${point}"]`;
async function tapPoint(page, size, point) {
  if (size.device === PHONE) await page.tap(cell(page, point));
  else await page.click(cell(page, point));
}
async function press(page, size, sel) {
  if (size.device === PHONE) await page.tap(sel);
  else await page.click(sel);
}
const boardBox = (page) => page.locator('#board').boundingBox();

for (const size of SIZES) {
  const at = `${size.width}×${size.height}`;
  describe(`layout at ${at}`, () => {
    test('a game: toolbar, status and meta line whole; analysis on does not move the board', async () => {
      for (const mode of ['computer', 'local']) {
        const { page, done } = await open(size, { settings: { mode, confirmMove: 'off' }, moves: ['h8', 'i9'] });
        assert.deepEqual(await problems(page), [], `${at} ${mode}, analysis off`);
        const before = await boardBox(page);
        await press(page, size, '#analysis');
        await page.waitForSelector('#eval[data-score]');
        assert.deepEqual(await boardBox(page), before, `${at} ${mode}: the board stays put when analysis turns on`);
        assert.deepEqual(await problems(page), [], `${at} ${mode}, analysis on`);
        await press(page, size, '#analysis');
        await page.waitForSelector('#panel', { state: 'hidden' });
        assert.deepEqual(await boardBox(page), before, `${at} ${mode}: and when it turns off`);
        await done();
      }
    });

    test('Swap2: the instructions and the choice buttons whole, on one line each', async () => {
      const { page, done } = await open(size, { settings: { mode: 'local', confirmMove: 'off', openingRule: 'swap2' } });
      await page.waitForSelector('#swap-info:not(:empty)');
      assert.deepEqual(await problems(page), [], `${at}: placing the three stones`);
      const before = await boardBox(page);
      for (const [k, point] of ['h8', 'h9', 'i9'].entries()) {
        await tapPoint(page, size, point);
        await page.waitForFunction((n) => window.__fake.count('play') >= n, k + 1);
        // The reply is on screen: Undo comes back with it (none once the choice is due).
        if (k < 2) await page.waitForSelector('#undo:not([disabled])');
      }
      await page.waitForSelector('#swap-two', { state: 'visible' });
      assert.deepEqual(await boardBox(page), before, `${at}: the board stays put when the choice comes`);
      assert.deepEqual(await problems(page), [], `${at}: the choice after three stones`);
      await press(page, size, '#analysis');
      await page.waitForSelector('#eval[data-score]');
      assert.deepEqual(await boardBox(page), before, `${at}: and when analysis turns on`);
      assert.deepEqual(await problems(page), [], `${at}: the choice with analysis on`);
      await page.screenshot({ path: join(DOCS, `layout-${size.width}x${size.height}.png`) });
      await press(page, size, '#swap-two');
      await page.waitForSelector('#swap-two', { state: 'hidden' });
      await page.waitForSelector('#swap-info:not(:empty)');
      assert.deepEqual(await problems(page), [], `${at}: the chooser placing two`);
      await done();
    });

    test('Swap2 against the computer: its instructions whole', async () => {
      const { page, done } = await open(size, { hold: true, settings: { mode: 'computer', humanColor: 'white', confirmMove: 'off', openingRule: 'swap2' } });
      await page.waitForFunction(() => window.__fake.count('computer_move') >= 1);
      await page.waitForSelector('#swap-info:not(:empty)');
      assert.deepEqual(await problems(page), [], `${at}: the computer opening`);
      await done();
    });

    test('the editor: every control and the rule and size choices whole', async () => {
      const { page, done } = await open(size, { settings: { mode: 'computer', confirmMove: 'off' }, moves: ['h8', 'i9'] });
      await press(page, size, '#settings');
      await page.waitForSelector('#settings-sheet[open]');
      await page.locator('#edit-position').scrollIntoViewIfNeeded();
      await press(page, size, '#edit-position');
      await page.waitForSelector('#editor:not([hidden])');
      assert.deepEqual(await problems(page), [], `${at}: the editor`);
      for (const rule of ['freestyle', 'standard', 'renju']) {
        await page.selectOption('#edit-rule', rule);
        await page.waitForFunction((r) => document.querySelector('#edit-rule').value === r, rule);
        assert.deepEqual(await problems(page), [], `${at}: the editor under ${rule}`);
      }
      await done();
    });
  });
}
