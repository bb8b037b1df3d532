// The game clock (phone 390×844).
// The real UI on the real core: the browser version scripts/web.sh builds (the app core and the
// engine in wasm), in headless Chromium (Debian's chromium through playwright-core); a recorder
// only notes the commands the UI sends. Screenshots go to artifacts/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calls, ARTIFACTS } from './harness.mjs';
import { useBrowser, LOCAL, FINISHED, open, waitCalls, statusText, currentGame, waitSettled } from './browser-shared.mjs';

useBrowser();

// Game clock (issue 10 §4): the core's time drawn and counted on, paused under sheets, the
// limit chosen in the settings, and a flag that falls without a tap. The clock runs on real
// time; where a test needs more spent than it can wait, it starts from a saved game whose
// clock an earlier session ran down (`saved`).
describe('clock (phone 390×844)', () => {
  const clockText = (page, color) => page.textContent(`#clock-${color} .clock-time`);
  // Against the computer with a limit: black played h8, the computer answered.
  const answered = async (view) => window.__TAURI__.core.invoke('computer_move', { gameId: view.gameId, moveNumber: view.moveNumber });

  test('shown under the status line, ticking for the side to move, paused while a sheet is open', async () => {
    // Two players: no limit, the time each side used.
    const { page, done } = await open({ state: { ...LOCAL, moves: ['h8', 'i9'] } });
    await page.waitForSelector('#clock[data-running]');
    assert.equal(await clockText(page, 'white'), '0:00');
    const shown = Number((await clockText(page, 'black')).match(/^0:0(\d)$/)?.[1]);
    assert.ok(shown <= 5, 'black’s few seconds since the game was saved');
    assert.equal(await page.getAttribute('#clock-black', 'data-active'), '');
    assert.equal(await page.getAttribute('#clock-white', 'data-active'), null);
    assert.match(await page.textContent('#clock-total'), /^Game 0:0\d$/);
    // It counts on between replies, for black only.
    await page.waitForFunction((next) => document.querySelector('#clock-black .clock-time').textContent === next, `0:0${shown + 1}`);
    assert.equal(await clockText(page, 'white'), '0:00');
    // Inside the status bar, on the meta line: the board does not move for it.
    const box = await page.evaluate(() => {
      const r = (id) => document.getElementById(id).getBoundingClientRect();
      return { clock: r('clock'), bar: document.querySelector('.statusbar').getBoundingClientRect(), meta: r('meta') };
    });
    assert.ok(box.clock.right <= 390 && box.clock.bottom <= box.bar.bottom + 0.5, JSON.stringify(box));
    assert.ok(Math.abs(box.clock.top - box.meta.top) < 4, JSON.stringify(box));
    // A sheet pauses it (in the core too); closing it lets it run.
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.waitForSelector('#clock:not([data-running])');
    assert.deepEqual((await calls(page, 'set_clock_paused')).map((c) => c.args.paused), [true]);
    await waitSettled(page, 'set_clock_paused');
    assert.equal((await currentGame(page)).clock.running, false);
    await page.tap('#settings-sheet [data-close]');
    await page.waitForSelector('#clock[data-running]');
    assert.deepEqual((await calls(page, 'set_clock_paused')).map((c) => c.args.paused), [true, false]);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-clock.png') });
    await done();
  });

  test('on a narrow bar the total gives way, so the meta line keeps the level', async () => {
    const { page, done } = await open({ state: { settings: { mode: 'computer', level: 5, clockMinutes: 5 }, moves: ['h8'], then: answered } });
    await page.waitForSelector('#clock[data-running]');
    const row = () => page.evaluate(() => {
      const meta = document.getElementById('meta');
      const total = document.getElementById('clock-total');
      return { text: meta.textContent, cut: meta.scrollWidth > meta.clientWidth, total: total.getBoundingClientRect().width > 0 };
    });
    assert.deepEqual(await row(), { text: 'Freestyle · 15×15 · Master', cut: false, total: false });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForFunction(() => document.getElementById('meta').clientWidth < 200);
    assert.deepEqual(await row(), { text: 'Freestyle · 15×15 · Master', cut: false, total: false });
    // On a wider screen there is room for everything again.
    await page.setViewportSize({ width: 600, height: 900 });
    await page.waitForFunction(() => document.getElementById('clock-total').getBoundingClientRect().width > 0);
    assert.deepEqual(await row(), { text: 'Freestyle · 15×15 · Master', cut: false, total: true });
    await done();
  });

  test('the time limit is chosen by touch in the settings and waits for the next game', async () => {
    const { page, done } = await open({ state: { ...LOCAL, moves: ['h8'] } });
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    const minutes = page.locator('#settings-sheet input[name="clockMinutes"][value="10"] + span');
    await minutes.scrollIntoViewIfNeeded();
    const box = await minutes.boundingBox();
    assert.ok(box.height >= 38 && box.width >= 60, `a thumb-sized target: ${JSON.stringify(box)}`);
    await page.locator('#settings-sheet input[name="clockMinutes"][value="10"]').tap();
    await waitCalls(page, 'set_settings', 1);
    assert.equal((await calls(page, 'set_settings'))[0].args.settings.clockMinutes, 10);
    assert.equal(await page.isVisible('#applies-next'), true);
    await page.locator('#settings-sheet input[name="clockIncrement"][value="5"]').tap();
    await waitCalls(page, 'set_settings', 2);
    assert.equal((await calls(page, 'set_settings'))[1].args.settings.clockIncrement, 5);
    await page.tap('#apply-new-game');
    await waitCalls(page, 'new_game', 1);
    await waitSettled(page, 'new_game');
    const { settings } = await page.evaluate(() => window.__TAURI__.core.invoke('get_state'));
    assert.deepEqual([settings.clockMinutes, settings.clockIncrement], [10, 5], 'saved by the core');
    await done();
  });

  test('a flag falls without a tap: the UI asks the shell, and the game is lost on time', async () => {
    // A game against the computer with 5 minutes each, saved with black's clock run down to 8 s.
    const { page, done } = await open({
      state: {
        settings: { mode: 'computer', level: 1, clockMinutes: 5 },
        moves: ['h8'],
        then: answered,
        saved: (game) => ({ ...game, clock: { ...game.clock, pendingMs: 292_000 } }),
      },
    });
    // With a limit the clock shows the time left, tenths in the last ten seconds.
    assert.match(await clockText(page, 'black'), /^0:0\d\.\d$/);
    assert.match(await clockText(page, 'white'), /^(4:59|5:00)$/);
    assert.equal(await page.getAttribute('#clock-black', 'data-low'), '');
    await page.waitForSelector('#gameover-sheet[open]');
    assert.ok((await calls(page, 'check_clock')).length >= 1);
    assert.equal(await page.textContent('#gameover-title'), 'You lose', 'the player (black) lost to the computer');
    assert.equal(await page.textContent('#gameover-reason'), 'Black ran out of time');
    assert.match(await page.textContent('#gameover-clock'), /^Black 5:00 · White 0:0\d · Game 5:0\d$/);
    assert.equal(await statusText(page), 'White wins — on time');
    assert.equal(await page.getAttribute('#clock-black', 'data-flag'), '');
    assert.equal(await clockText(page, 'black'), '0:00.0');
    const { result, clock } = await currentGame(page);
    assert.deepEqual([result.winner, result.reason, clock.flag], ['white', 'time', 'black'], 'the core has it lost on time');
    await page.screenshot({ path: join(ARTIFACTS, 'phone-flag.png') });
    await done();
  });

  test('review shows the time of each move and the sides’ time up to it', async () => {
    // The finished game as saved, each of its moves having taken 12.3 s.
    const { page, done } = await open({ state: { ...FINISHED, saved: (game) => ({ ...game, clock: { ...game.clock, moves: game.clock.moves.map(() => 12_300), pendingMs: 0 } }) } });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.tap('#review-open');
    await page.waitForSelector('#review:not([hidden])');
    await page.tap('#review-first');
    await page.tap('#review-next');
    await page.tap('#review-next');
    await page.tap('#review-next');
    assert.equal(await page.textContent('#clock-total'), 'Move 3: 12.3 s');
    assert.equal(await clockText(page, 'black'), '0:24');
    assert.equal(await clockText(page, 'white'), '0:12');
    await done();
  });
});
