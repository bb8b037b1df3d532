// Layout at the window sizes of issue 26 §7 — 360×600 and 390×844 (phones, touch), 480×800 (the
// default window) and 1280×1000 (a large desktop window) — in English and Chinese: no text is
// cut (no "…", no clipped or clamped line, no label spilling out of its box), no button label
// or row of buttons wraps, no <select> clips its choice, the screen's parts do not overlap, and
// neither the board nor the Analysis button moves when the analysis panel or the Swap2 choice
// comes and goes. States: a game against the computer and between two players (with a clock),
// analysis on, the settings sheet, the Swap2 phase (placing, the choice after three stones, the
// chooser placing two, the choice after five; analysis on during it), the computer opening,
// and the editor under each rule. Every problem of a test is listed at its end.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SIZES, deviceOf, layoutProblems, fixedBoxes } from './layout.mjs';
import { useBrowser, open, waitCalls } from './browser-shared.mjs';

useBrowser();

const LANGUAGES = ['en', 'zh-CN'];

const sameBox = (a, b) => ['x', 'y', 'width', 'height'].every((k) => Math.abs(a[k] - b[k]) <= 0.5);

/**
 * From now on, the page checks its layout right after every change to it (a mutation observer,
 * called after the page's own ones have fitted the status line, before a frame can show it), not
 * only when a test looks: a part that fits itself a tick later (the clock beside the meta line)
 * is caught. `drainWatch` takes what it found.
 */
const watchLayout = (page) =>
  page.evaluate(`(() => {
    if (window.__layoutSeen) return;
    const problems = ${layoutProblems};
    window.__layoutSeen = [];
    new MutationObserver(() => {
      for (const p of problems()) if (!window.__layoutSeen.includes(p)) window.__layoutSeen.push(p);
    }).observe(document.querySelector('#app'), { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
const drainWatch = (page) => page.evaluate(() => (window.__layoutSeen ?? []).splice(0));

/** One test's findings: every state checked, every problem listed at the end (not just the first). */
function checker(page, where) {
  const found = [];
  return {
    async look(state) {
      for (const p of await drainWatch(page)) found.push(`${where}, on the way to ${state}: ${p}`);
      for (const p of await page.evaluate(layoutProblems)) found.push(`${where}, ${state}: ${p}`);
      await watchLayout(page);
    },
    stays(state, before, after) {
      for (const sel of Object.keys(before)) {
        if (!sameBox(before[sel], after[sel])) found.push(`${where}, ${state}: ${sel} moved from ${JSON.stringify(before[sel])} to ${JSON.stringify(after[sel])}`);
      }
    },
    done: () => assert.deepEqual(found, [], `${found.length} layout problems:\n${found.join('\n')}`),
  };
}

const press = (page, size, sel) => (size.touch ? page.tap(sel) : page.click(sel));
const playAt = (page, size, point) => press(page, size, `#board [data-point="${point}"]`);

async function analysisOn(page, size) {
  await press(page, size, '#analysis');
  await page.waitForSelector('#eval[data-score]');
}
async function analysisOff(page, size) {
  await press(page, size, '#analysis');
  await page.waitForSelector('#eval-row', { state: 'hidden' });
}

for (const size of SIZES) {
  for (const language of LANGUAGES) {
    const at = `${size.width}×${size.height} ${language}`;
    const start = (state) => open({ device: deviceOf(size), reducedMotion: 'reduce', state: { ...state, settings: { language, ...state.settings } } });

    describe(`layout at ${at}`, () => {
      test('a game with a clock; analysis on and off; the settings sheet', async () => {
        for (const mode of ['computer', 'local']) {
          // 5 minutes each: against the computer (Master) its time left, between two players the
          // time used; two moves made, the computer's the engine's.
          const answered = async (view) => window.__TAURI__.core.invoke('computer_move', { gameId: view.gameId, moveNumber: view.moveNumber });
          const moves = mode === 'computer' ? { moves: ['h8'], then: answered } : { moves: ['h8', 'i9'] };
          const { page, done } = await start({ settings: { mode, level: 5, clockMinutes: 5 }, ...moves });
          const check = checker(page, `${at} ${mode}`);
          await page.waitForSelector('#clock[data-running]');
          await check.look('a game');
          const before = await fixedBoxes(page);
          await analysisOn(page, size);
          check.stays('analysis on', before, await fixedBoxes(page));
          await check.look('analysis on');
          await analysisOff(page, size);
          check.stays('analysis off', before, await fixedBoxes(page));
          await press(page, size, '#settings');
          await page.waitForSelector('#settings-sheet[open]');
          await check.look('the settings sheet');
          await done();
          check.done();
        }
      });

      test('Swap2 between two players: every stage, with analysis on and off', async () => {
        const { page, done } = await start({ settings: { mode: 'local', openingRule: 'swap2' } });
        const check = checker(page, at);
        await page.waitForSelector('#swap-row', { state: 'visible' });
        await check.look('placing stone 1');
        const before = await fixedBoxes(page);
        await analysisOn(page, size);
        check.stays('analysis on while placing', before, await fixedBoxes(page));
        await check.look('placing, analysis on');
        await analysisOff(page, size);
        check.stays('analysis off while placing', before, await fixedBoxes(page));
        for (const [k, point] of ['h8', 'h9', 'i9'].entries()) {
          await playAt(page, size, point);
          await waitCalls(page, 'play', k + 1);
          if (k < 2) await page.waitForSelector('#undo:not([disabled])');
        }
        await page.waitForSelector('#swap-two', { state: 'visible' });
        check.stays('the choice after three', before, await fixedBoxes(page));
        await check.look('the choice after three');
        await analysisOn(page, size);
        check.stays('the choice, analysis on', before, await fixedBoxes(page));
        await check.look('the choice, analysis on');
        await analysisOff(page, size);
        await press(page, size, '#swap-two');
        await page.waitForSelector('#swap-two', { state: 'hidden' });
        await page.waitForSelector('#swap-info:not(:empty)');
        await check.look('the chooser placing two');
        for (const [k, point] of ['g7', 'j10'].entries()) {
          await playAt(page, size, point);
          await waitCalls(page, 'play', k + 4);
        }
        await page.waitForSelector('#swap-white', { state: 'visible' });
        await check.look('the choice after five');
        check.stays('the choice after five', before, await fixedBoxes(page));
        await done();
        check.done();
      });

      test('Swap2 against the computer: its opening, the player’s choice', async () => {
        const { page, done } = await start({ settings: { mode: 'computer', humanColor: 'white', openingRule: 'swap2' } });
        const check = checker(page, at);
        await waitCalls(page, 'computer_move', 1);
        await page.waitForSelector('#swap-black', { state: 'visible' });
        await check.look('the choice after the computer’s three');
        const before = await fixedBoxes(page);
        await analysisOn(page, size);
        check.stays('analysis on', before, await fixedBoxes(page));
        await check.look('the choice, analysis on');
        await done();
        check.done();
      });

      test('the editor under each rule', async () => {
        const { page, done } = await start({ settings: { mode: 'computer' }, record: 'h8 i9' });
        const check = checker(page, at);
        await press(page, size, '#settings');
        await page.waitForSelector('#settings-sheet[open]');
        await page.locator('#edit-position').scrollIntoViewIfNeeded();
        await press(page, size, '#edit-position');
        await page.waitForSelector('#editor:not([hidden])');
        await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
        for (const rule of ['freestyle', 'standard', 'renju']) {
          await page.selectOption('#edit-rule', rule);
          await page.waitForFunction((r) => document.querySelector('#edit-rule').value === r, rule);
          await check.look(`the editor, ${rule}`);
        }
        await press(page, size, '#edit-to-move');
        await page.waitForSelector('#edit-to-move[data-color="white"]');
        await check.look('the editor, white to move');
        await done();
        check.done();
      });
    });
  }
}
