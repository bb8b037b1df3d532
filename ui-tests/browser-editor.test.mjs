// The position editor (phone 390×844, touch).
// The real UI on the real core: the browser version scripts/web.sh builds (the app core and the
// engine in wasm), in headless Chromium (Debian's chromium through playwright-core); a recorder
// only notes the commands the UI sends. Screenshots go to artifacts/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calls, PHONE, ARTIFACTS } from './harness.mjs';
import { useBrowser, LOCAL, open, tapAt, waitCalls, statusText } from './browser-shared.mjs';

useBrowser();

// ---------------------------------------------------------------------------------------------
// Position editor (issue 10 §5), at phone size with real touch taps.

describe('position editor (phone 390×844, touch)', () => {
  const stonesOnBoard = (page) =>
    page.$$eval('#board [data-stone="black"], #board [data-stone="white"]', (els) =>
      Object.fromEntries(els.map((e) => [e.dataset.point, e.dataset.stone])),
    );
  const openEditor = async (page) => {
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.tap('#edit-position');
    await page.waitForSelector('#editor:not([hidden])');
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
  };
  // A tap near (not on) the point, so the editor is seen to snap by the four-corner rule.
  const tapPoint = async (page, point, dx = 0.2, dy = -0.15) => {
    const col = point.charCodeAt(0) - 97;
    const n = Number(await page.getAttribute('#board', 'data-size'));
    const row = n - Number(point.slice(1));
    await tapAt(page, col, row, dx, dy);
  };

  test('palette, taps, side to move, clear, current position; cancel leaves the game untouched', async () => {
    const { page, done } = await open({ state: { ...LOCAL, moves: ['h8', 'i9'] } });
    await openEditor(page);
    assert.equal(await page.isVisible('.toolbar'), false, 'the editor takes the toolbar’s place');
    assert.deepEqual(await stonesOnBoard(page), { h8: 'black', i9: 'white' }, 'it starts from the position on screen');
    assert.equal(await page.textContent('#edit-to-move-text'), 'Black to move');
    assert.equal(await page.getAttribute('#edit-black', 'aria-pressed'), 'true');
    assert.equal(await statusText(page), 'Tap to place or remove black');

    await tapPoint(page, 'j10');
    await page.waitForSelector('[data-point="j10"][data-stone="black"]');
    await tapPoint(page, 'j10', -0.25, 0.1);
    await page.waitForSelector('[data-point="j10"][data-stone=""]');
    await page.tap('#edit-white');
    assert.equal(await page.getAttribute('#edit-white', 'aria-pressed'), 'true');
    assert.equal(await page.getAttribute('#edit-black', 'aria-pressed'), 'false');
    await tapPoint(page, 'k11');
    await page.waitForSelector('[data-point="k11"][data-stone="white"]');
    await tapPoint(page, 'h8');
    await page.waitForSelector('[data-point="h8"][data-stone="white"]');
    await page.tap('#edit-erase');
    await tapPoint(page, 'i9');
    await page.waitForSelector('[data-point="i9"][data-stone=""]');
    assert.deepEqual(await stonesOnBoard(page), { h8: 'white', k11: 'white' });
    assert.equal(await page.textContent('#meta'), 'Setting up · 0 black, 2 white');

    await page.tap('#edit-to-move');
    assert.equal(await page.textContent('#edit-to-move-text'), 'White to move');
    assert.equal(await page.getAttribute('#edit-to-move', 'data-color'), 'white');
    await page.tap('#edit-clear');
    assert.deepEqual(await stonesOnBoard(page), {});
    assert.equal(await page.textContent('#edit-to-move-text'), 'White to move', 'clear keeps the side to move');
    await page.tap('#edit-current');
    assert.deepEqual(await stonesOnBoard(page), { h8: 'black', i9: 'white' });

    await tapPoint(page, 'a1');
    await page.tap('#edit-cancel');
    await page.waitForSelector('#editor', { state: 'hidden' });
    assert.equal(await page.isVisible('.toolbar'), true);
    assert.deepEqual(await stonesOnBoard(page), { h8: 'black', i9: 'white' }, 'the game as it was');
    for (const cmd of ['check_setup', 'start_setup', 'play', 'new_game']) assert.equal((await calls(page, cmd)).length, 0, cmd);

    // Android's back button leaves the editor the same way.
    await openEditor(page);
    await tapPoint(page, 'a1');
    await page.evaluate(() => history.back());
    await page.waitForSelector('#editor', { state: 'hidden' });
    assert.deepEqual(await stonesOnBoard(page), { h8: 'black', i9: 'white' });
    assert.equal(await page.isVisible('#toast'), false, 'back in the editor does not warn about leaving');
    await done();
  });

  test('a refused position says why and stays; an accepted one is played against the computer', async () => {
    const five = ['d8', 'e8', 'f8', 'g8', 'h8'];
    const { page, done } = await open({
      state: { settings: { mode: 'computer', level: 2 } },
    });
    await openEditor(page);
    for (const p of five) {
      await tapPoint(page, p);
      await page.waitForSelector(`[data-point="${p}"][data-stone="black"]`);
    }
    await page.tap('#edit-done');
    await page.waitForFunction(() => document.querySelector('#edit-message').textContent !== '');
    assert.equal(await page.textContent('#edit-message'), 'Black already has five in a row (D8–H8): a position to play cannot be won already');
    assert.equal(await statusText(page), 'The position was refused');
    assert.equal(await page.locator('#board [data-win="true"]').count(), 5, 'the five is marked');
    assert.equal(await page.isVisible('#editor'), true, 'the editor stays');
    assert.equal(await page.evaluate(() => document.querySelector('#setup-sheet').open), false);
    assert.deepEqual((await calls(page, 'check_setup'))[0].args, {
      setup: { rule: 'freestyle', size: 15, black: five, white: [], toMove: 'black' },
    });

    await tapPoint(page, 'h8'); // black in hand: takes h8 off
    await page.waitForSelector('[data-point="h8"][data-stone=""]');
    assert.equal(await page.textContent('#edit-message'), '', 'an edit clears the refusal');
    await page.tap('#edit-white');
    await tapPoint(page, 'h8');
    await page.waitForSelector('[data-point="h8"][data-stone="white"]');
    await page.tap('#edit-to-move');
    await page.tap('#edit-done');
    await page.waitForSelector('#setup-sheet[open]');
    for (const id of ['setup-analyse', 'setup-computer-black', 'setup-computer-white', 'setup-two-players']) {
      assert.equal(await page.isVisible(`#${id}`), true, id);
    }
    await page.tap('#setup-computer-black');
    await waitCalls(page, 'start_setup', 1);
    assert.deepEqual((await calls(page, 'start_setup'))[0].args, {
      setup: { rule: 'freestyle', size: 15, black: ['d8', 'e8', 'f8', 'g8'], white: ['h8'], toMove: 'white' },
      players: { mode: 'computer', humanColor: 'black', level: 2 },
    });
    await page.waitForSelector('#editor', { state: 'hidden' });
    // White (the computer) is to move from the set-up position: it answers at once, blocking
    // black's four at its only open end.
    await waitCalls(page, 'computer_move', 1);
    await page.waitForSelector('[data-point="c8"][data-stone="white"]');
    assert.deepEqual(await stonesOnBoard(page), { d8: 'black', e8: 'black', f8: 'black', g8: 'black', h8: 'white', c8: 'white' });
    assert.match(await page.textContent('#meta'), /set-up position/);
    assert.equal(await statusText(page), 'Your move');
    assert.equal((await calls(page, 'new_game')).length, 0);

    // Records: a move list cannot hold the setup, SGF can.
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.tap('#copy-moves');
    // Said inside the sheet, where the player is looking (the status line is behind it).
    await page.waitForFunction(() => document.querySelector('#record-message .sheet-message-text').textContent.includes('copy SGF'));
    await page.tap('#copy-sgf');
    await page.waitForFunction(() => document.querySelector('#record-text').value.includes('PL[W]'));
    await done();
  });

  test('with Swap2 and a time limit set: the editor pauses the clock, the sheet says what applies, no opening phase', async () => {
    const { page, done } = await open({
      state: { settings: { mode: 'local', openingRule: 'swap2', clockMinutes: 5, clockIncrement: 2 } },
    });
    await page.waitForSelector('#swap-row', { state: 'visible' });
    await openEditor(page);
    assert.equal(await page.isVisible('#clock'), false, 'the game’s clock is hidden while editing');
    assert.equal(await page.isVisible('#swap-row'), false);
    await tapPoint(page, 'h8');
    await page.waitForSelector('[data-point="h8"][data-stone="black"]');
    await page.tap('#edit-white');
    await tapPoint(page, 'i9');
    await page.waitForSelector('[data-point="i9"][data-stone="white"]');
    // The sheet closing behind the editor lets nothing run: the clock stays paused.
    assert.deepEqual((await calls(page, 'set_clock_paused')).map((c) => c.args.paused), [true]);
    await page.tap('#edit-done');
    await page.waitForSelector('#setup-sheet[open]');
    assert.equal(
      await page.textContent('#setup-opening-note'),
      'The opening rule (Swap2) is not used: the game starts from this position, without an opening phase',
    );
    assert.equal(
      await page.textContent('#setup-clock-note'),
      'Against the computer each side has 5 min + 2 s a move; two players and analysis have no time limit',
    );
    await page.tap('#setup-two-players');
    await waitCalls(page, 'start_setup', 1);
    await page.waitForSelector('#editor', { state: 'hidden' });
    // The set-up game's clock runs from the position once the editor is gone; no opening phase.
    await page.waitForSelector('#clock[data-running]');
    assert.deepEqual((await calls(page, 'set_clock_paused')).map((c) => c.args.paused), [true, false]);
    assert.equal(await page.isVisible('#swap-row'), false, 'no opening phase');
    assert.equal(await statusText(page), 'Black to move');
    await tapPoint(page, 'j10');
    await waitCalls(page, 'play', 1);
    assert.equal((await calls(page, 'choose_opening')).length, 0);
    await done();
  });

  test('the opening note is not shown under renju or without an opening rule', async () => {
    const { page, done } = await open({ state: { settings: { mode: 'local', confirmMove: 'off', openingRule: 'swap' } } });
    await openEditor(page);
    await page.selectOption('#edit-rule', 'renju');
    await tapPoint(page, 'h8');
    await page.waitForSelector('[data-point="h8"][data-stone="black"]');
    await page.tap('#edit-done');
    await page.waitForSelector('#setup-sheet[open]');
    assert.equal(await page.isVisible('#setup-opening-note'), false);
    assert.equal(await page.isVisible('#setup-clock-note'), false, 'no limit set');
    await page.tap('#setup-sheet [data-close]');
    await page.waitForFunction(() => !document.querySelector('#setup-sheet').open);
    await page.selectOption('#edit-rule', 'freestyle');
    await page.tap('#edit-done');
    await page.waitForSelector('#setup-sheet[open]');
    assert.equal(await page.textContent('#setup-opening-note'), 'The opening rule (Swap) is not used: the game starts from this position, without an opening phase');
    await done();
  });

  test('analyse: the rule and size chosen in the editor, the position kept centred', async () => {
    const { page, done } = await open({ state: { settings: { mode: 'computer' }, record: 'h8 a1' } });
    await openEditor(page);
    await page.selectOption('#edit-size', '13');
    await page.waitForSelector('#board[data-size="13"]');
    assert.deepEqual(await stonesOnBoard(page), { g7: 'black' }, 'h8 stays the centre; a1 falls off');
    assert.match(await statusText(page), /Stones off the smaller board were removed: 1/);
    await page.selectOption('#edit-rule', 'renju');
    assert.equal(await page.textContent('#meta'), 'Setting up · 1 black, 0 white');
    assert.deepEqual([await page.inputValue('#edit-rule'), await page.inputValue('#edit-size')], ['renju', '13']);
    await tapPoint(page, 'h8'); // on 13×13: next to the centre
    await page.waitForSelector('[data-point="h8"][data-stone="black"]');
    await page.tap('#edit-white');
    await tapPoint(page, 'f6');
    await page.waitForSelector('[data-point="f6"][data-stone="white"]');
    await page.tap('#edit-done');
    await page.waitForSelector('#setup-sheet[open]');
    await page.tap('#setup-analyse');
    await waitCalls(page, 'start_setup', 1);
    assert.deepEqual((await calls(page, 'start_setup'))[0].args, {
      setup: { rule: 'renju', size: 13, black: ['h8', 'g7'], white: ['f6'], toMove: 'black' },
      players: { mode: 'local' },
    });
    await waitCalls(page, 'start_analysis', 1);
    await page.waitForSelector('#eval[data-score]');
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'true');
    assert.equal(await page.getAttribute('#board', 'data-size'), '13');
    assert.equal(await statusText(page), 'Black to move');
    // A new game afterwards follows the settings again (the editor did not change them).
    await page.tap('#new-game');
    await page.waitForSelector('#toast:not([hidden])');
    await page.tap('#new-game');
    await waitCalls(page, 'new_game', 1);
    assert.equal((await calls(page, 'new_game'))[0].args.options.size, 15);
    await done();
  });

  test('editor: tap → stone drawn within one frame', async (t) => {
    const { page, done } = await open({ state: LOCAL });
    await openEditor(page);
    await page.evaluate(() => {
      const board = document.querySelector('#board');
      window.__taps = [];
      let current = null;
      board.addEventListener('pointerup', () => {
        current = { start: performance.now(), stone: null, handlerEnd: null };
      }, { capture: true });
      window.addEventListener('pointerup', () => {
        if (current) current.handlerEnd = performance.now();
      });
      new MutationObserver((records) => {
        if (!current || current.stone !== null || !records.some((r) => r.target.dataset.stone)) return;
        current.stone = performance.now();
        const tap = current;
        requestAnimationFrame(() => {
          tap.frame = performance.now();
          window.__taps.push(tap);
        });
      }).observe(board, { subtree: true, attributeFilter: ['data-stone'] });
    });
    const points = [];
    for (let col = 2; col < 13; col += 2) for (const row of [3, 7, 11]) points.push([col, row]);
    for (const [i, [col, row]] of points.entries()) {
      await tapAt(page, col, row);
      await page.waitForFunction((k) => window.__taps.length >= k, i + 1);
    }
    const taps = await page.evaluate(() => window.__taps);
    for (const tap of taps) assert.ok(tap.stone !== null && tap.stone <= tap.handlerEnd, 'the stone is set inside the pointer handler');
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const toFrame = median(taps.map((x) => x.frame - x.start));
    const inHandler = median(taps.map((x) => x.stone - x.start));
    t.diagnostic(`editor tap → stone: set after ${inHandler.toFixed(2)} ms (median, in the handler); first frame with it after ${toFrame.toFixed(2)} ms (median of ${taps.length})`);
    assert.equal((await calls(page, 'play')).length, 0, 'nothing is played while editing');
    await done();
  });

  test('every editor control is on screen and usable on small phones upright and on their side', async () => {
    for (const viewport of [{ width: 360, height: 640 }, { width: 844, height: 390 }, { width: 390, height: 844 }]) {
      const { page, done } = await open({ device: { ...PHONE, deviceScaleFactor: viewport.width === 390 ? 2 : 1, viewport }, reducedMotion: 'reduce', state: { ...LOCAL, moves: ['h8', 'i9', 'j10', 'i8'] } });
      await openEditor(page);
      await page.tap('#edit-done');
      await page.waitForSelector('#setup-sheet[open]');
      await page.tap('#setup-sheet [data-close]');
      await page.waitForFunction(() => !document.querySelector('#setup-sheet').open);
      const ids = ['edit-black', 'edit-white', 'edit-erase', 'edit-to-move', 'edit-rule', 'edit-size', 'edit-clear', 'edit-current', 'edit-message', 'edit-cancel', 'edit-done', 'status', 'board'];
      const boxes = await page.evaluate((list) => list.map((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return { id, left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
      }), ids);
      const box = Object.fromEntries(boxes.map((b) => [b.id, b]));
      for (const b of boxes) {
        const where = `${viewport.width}×${viewport.height} #${b.id} ${JSON.stringify(b)}`;
        assert.ok(b.top >= 0 && b.left >= 0 && b.bottom <= viewport.height + 0.5 && b.right <= viewport.width + 0.5, `on screen: ${where}`);
        if (b.id.startsWith('edit-') && b.id !== 'edit-message') assert.ok(b.width >= 44 && b.height >= 34, `usable: ${where}`);
        if (b.id !== 'board' && b.id !== 'status') {
          const overlaps = b.left < box.board.right && b.right > box.board.left && b.top < box.board.bottom && b.bottom > box.board.top;
          assert.ok(!overlaps, `clear of the board: ${where}`);
        }
      }
      await page.screenshot({ path: join(ARTIFACTS, `editor-${viewport.width}x${viewport.height}.png`) });
      await done();
    }
  });
});
