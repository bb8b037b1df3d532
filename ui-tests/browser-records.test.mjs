// Game records and layout at the default window, 480×800 (issue 26).
// The real UI on the real core: the browser version scripts/web.sh builds (the app core and the
// engine in wasm), in headless Chromium (Debian's chromium through playwright-core); a recorder
// only notes the commands the UI sends. Screenshots go to artifacts/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calls, DESKTOP, ARTIFACTS } from './harness.mjs';
import { useBrowser, LOCAL, FINISHED, open, waitCalls, statusText, placed, currentGame } from './browser-shared.mjs';

useBrowser();

describe('records and layout at the default window, 480×800 (issue 26)', () => {
  const WINDOW = { ...DESKTOP, viewport: { width: 480, height: 800 } };
  const COMPUTER = { settings: { mode: 'computer', confirmMove: 'off' } };
  const message = (page) =>
    page.evaluate(() => {
      const box = document.querySelector('#record-message');
      if (!box || box.hidden || !document.querySelector('#settings-sheet').contains(box)) return null;
      return { text: box.querySelector('.sheet-message-text').textContent, kind: box.dataset.kind };
    });
  const openSettings = async (page) => {
    await page.click('#settings');
    await page.waitForSelector('#settings-sheet[open]');
  };
  // The message the core rejects `text` with (asked directly of the real host).
  const rawWords = (page, text) => page.evaluate((t) => window.__TAURI__.core.invoke('import_record', { text: t }).then(() => null, (e) => e.message), text);
  const load = async (page, text) => {
    await page.fill('#record-text', text);
    await page.click('#import-record');
  };

  test('a finished record of another rule stays on screen, its rule the game’s', async () => {
    const { page, done } = await open({ device: WINDOW, state: COMPUTER });
    await openSettings(page);
    // h8 a15 i8 c15 j8 e15 k8 g15 l8 under the standard rule, while freestyle is set.
    await load(page, '(;GM[4]FF[4]SZ[15]RU[standard];B[hh];W[aa];B[ih];W[ca];B[jh];W[ea];B[kh];W[ga];B[lh])');
    await page.waitForSelector('#gameover-sheet[open]');
    assert.deepEqual((await currentGame(page)).result.line.slice().sort(), ['h8', 'i8', 'j8', 'k8', 'l8']);
    assert.equal((await calls(page, 'new_game')).length, 0, 'the loaded game is not thrown away');
    assert.equal(await placed(page), 9);
    assert.match(await page.textContent('#meta'), /^Standard/);
    await done();
  });

  test('a review started from the sheet keeps its game, options changed or not', async () => {
    const { page, done } = await open({ device: WINDOW, state: { ...FINISHED, settings: { mode: 'local', confirmMove: 'off' } } });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.click('#gameover-sheet [data-close]');
    await openSettings(page);
    await page.click('#settings-sheet input[name="rule"][value="standard"]');
    await waitCalls(page, 'set_settings', 1);
    await page.click('#review-record');
    await page.waitForSelector('#review-progress[data-done]');
    assert.equal((await calls(page, 'new_game')).length, 0);
    assert.equal(await placed(page), 9);
    await done();
  });

  test('game options changed in the sheet still start a new game at once on an empty board', async () => {
    const { page, done } = await open({ device: WINDOW, state: COMPUTER });
    await openSettings(page);
    await page.click('#settings-sheet input[name="rule"][value="standard"]');
    await waitCalls(page, 'set_settings', 1);
    await page.click('#settings-sheet [data-close]');
    await waitCalls(page, 'new_game', 1);
    assert.equal((await calls(page, 'new_game'))[0].args.options.rule, 'standard');
    await done();
  });

  test('errors show inside the sheet until dismissed or replaced, in the UI’s own words', async () => {
    const { page, done } = await open({ device: WINDOW, state: COMPUTER });
    await openSettings(page);
    await load(page, 'hello world ((');
    await page.waitForSelector('#record-message:not([hidden])');
    assert.deepEqual(await message(page), { text: 'That record could not be read', kind: 'error' });
    assert.equal(await page.getAttribute('#record-message', 'role'), 'alert');
    assert.equal(await page.evaluate(() => document.querySelector('#settings-sheet').open), true, 'the sheet stays open');
    // The core's own words for it (asked again here) are nowhere on the page.
    const words = await rawWords(page, 'hello world ((');
    assert.match(words, /\w{4}/);
    assert.ok(!(await page.textContent('body')).includes(words), words);
    // Longer than a notice in the status line lasts (2.6 s): it is still there. Time must pass
    // here, so this sleep stays.
    await page.waitForTimeout(3000);
    assert.deepEqual(await message(page), { text: 'That record could not be read', kind: 'error' });
    const inside = await page.evaluate(() => {
      const r = document.querySelector('#record-message').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    });
    assert.ok(inside, 'scrolled into view');
    await page.screenshot({ path: join(ARTIFACTS, 'record-error-480x800.png') });
    await page.click('#record-message .sheet-message-close');
    assert.equal(await message(page), null, 'dismissed');

    // A failed clipboard write says so (and leaves the record selected in the box).
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.click('#copy-moves');
    await page.waitForSelector('#record-message:not([hidden])');
    const failed = await message(page);
    assert.equal(failed.kind, 'error');
    assert.match(failed.text, /^Could not copy/);
    // A copy that works replaces it with the confirmation.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.resolve();
    });
    await page.click('#copy-sgf');
    await page.waitForFunction(() => document.querySelector('#record-message .sheet-message-text').textContent === 'Copied');
    assert.equal((await message(page)).kind, 'ok');
    // Opening the sheet again starts without the old message.
    await page.click('#settings-sheet [data-close]');
    await openSettings(page);
    assert.equal(await message(page), null);
    await done();
  });

  test('an error from the shell in its own words is never shown; Chinese words its own', async () => {
    // A set-up position: black's h8, white to move.
    const setup = async () =>
      window.__TAURI__.core.invoke('start_setup', {
        setup: { rule: 'freestyle', size: 15, black: ['h8'], white: [], toMove: 'white' },
        players: { mode: 'local' },
      });
    const { page, done } = await open({ device: WINDOW, state: { settings: { ...COMPUTER.settings, language: 'zh-CN' }, then: setup } });
    await openSettings(page);
    await page.click('#copy-moves'); // a set-up position needs SGF
    await page.waitForSelector('#record-message:not([hidden])');
    assert.equal((await message(page)).text, '着法列表无法保存摆好的棋子，请复制 SGF');
    await load(page, 'h8 h8');
    await page.waitForFunction(() => document.querySelector('#record-message .sheet-message-text').textContent === '无法读取该棋谱');
    const words = await rawWords(page, 'h8 h8');
    assert.ok(!(await page.textContent('body')).includes(words), words);
    await done();
  });

  test('an unfinished loaded game can be reviewed against the computer', async () => {
    const { page, done } = await open({ device: WINDOW, state: COMPUTER });
    await openSettings(page);
    await load(page, 'h8 i9 h9 h10 g8 i8 j7 f9');
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
    assert.equal(await placed(page), 8);
    await openSettings(page);
    assert.equal(await page.isDisabled('#review-record'), false);
    await page.click('#review-record');
    await page.waitForSelector('#review-progress[data-done]');
    assert.equal(await statusText(page), 'Move 8 of 8');
    await done();
  });

  test('the editor keeps clear of the header', async () => {
    const { page, done } = await open({ device: WINDOW, reducedMotion: 'reduce', state: { ...COMPUTER, record: 'h8 i9' } });
    await openSettings(page);
    await page.click('#edit-position');
    await page.waitForSelector('#editor:not([hidden])');
    const r = await page.evaluate(() => {
      const box = (css) => {
        const b = document.querySelector(css).getBoundingClientRect();
        return { top: b.top, bottom: b.bottom, shown: document.querySelector(css).getClientRects().length > 0 };
      };
      return { brand: box('.brand'), bar: box('.statusbar'), board: box('#board'), editor: box('#editor') };
    });
    if (r.brand.shown) assert.ok(r.brand.bottom <= r.bar.top + 0.5, `header over the status bar: ${JSON.stringify(r)}`);
    assert.ok(r.bar.bottom <= r.board.top + 0.5 && r.board.bottom <= r.editor.top + 0.5, JSON.stringify(r));
    await page.screenshot({ path: join(ARTIFACTS, 'editor-480x800-chromium.png') });
    await done();
  });

  test('turning analysis on does not move the board', async () => {
    for (const viewport of [{ width: 480, height: 800 }, { width: 390, height: 844 }]) {
      const { page, done } = await open({ device: { ...WINDOW, viewport }, reducedMotion: 'reduce', state: { ...LOCAL, moves: ['h8', 'i9'] } });
      const top = () => page.evaluate(() => document.querySelector('#board').getBoundingClientRect().top);
      const before = await top();
      await page.click('#analysis');
      await page.waitForSelector('#eval[data-score]');
      assert.equal(await top(), before, `board top at ${viewport.width}×${viewport.height}`);
      await done();
    }
  });
});
