// Touch at phone size (390×844): taps and the four-corner rule, confirm mode, the computer's turn,
// renju, game over, the background, the back button, hint, analysis, review and the tap → stone timing.
// The real UI in headless Chromium (Debian's chromium through playwright-core); the Tauri IPC
// is replaced, here only, by the recorder in fake-tauri.js. Screenshots go to artifacts/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calls, stoneAt, ARTIFACTS } from './harness.mjs';
import { useBrowser, LOCAL, FINISHED, open, tapAt, waitCalls, waitPlayed, statusText, placed, settled } from './browser-shared.mjs';

useBrowser();

describe('touch (phone 390×844)', () => {
  test('taps near each corner of a cell play that corner’s point', async () => {
    const { page, done } = await open({ fake: LOCAL });
    // Cell between h8 (col 7, row 7) and i7 (col 8, row 8); each tap 0.2–0.3 pitch from its corner.
    const taps = [
      [7, 7, 0.25, 0.2, 'h8'],
      [8, 7, -0.3, 0.1, 'i8'],
      [7, 8, 0.15, -0.3, 'h7'],
      [8, 8, -0.2, -0.25, 'i7'],
    ];
    for (const [col, row, dx, dy, point] of taps) {
      const before = (await calls(page, 'play')).length;
      await tapAt(page, col, row, dx, dy);
      await waitPlayed(page, before + 1);
      const last = (await calls(page, 'play')).at(-1);
      assert.equal(last.args.point, point);
      assert.equal(last.args.moveNumber, before);
    }
    assert.equal(await stoneAt(page, 'h8'), 'black');
    assert.equal(await stoneAt(page, 'i8'), 'white');
    assert.equal(await stoneAt(page, 'h7'), 'black');
    assert.equal(await stoneAt(page, 'i7'), 'white');
    assert.equal(await page.getAttribute('[data-point="i7"]', 'aria-label'), 'I7, white');
    await done();
  });

  test('taps just outside the outer lines reach the edge points', async () => {
    const { page, done } = await open({ fake: LOCAL });
    await tapAt(page, 0, 7, -0.3, 0.05); // left of a8
    await waitPlayed(page, 1);
    await tapAt(page, 14, 0, 0.2, -0.25); // above and right of o15
    await waitCalls(page, 'play', 2);
    assert.deepEqual((await calls(page, 'play')).map((c) => c.args.point), ['a8', 'o15']);
    await tapAt(page, 0, 3, -0.6, 0); // too far out
    await settled(page);
    assert.equal((await calls(page, 'play')).length, 2);
    await done();
  });

  test('after rotating, taps still land where the lines are drawn', async () => {
    const { page, done } = await open({ fake: LOCAL });
    // The drawn intersection (col, row) is (col + 1, row + 1) in the lines SVG's user space.
    const misalignment = () =>
      page.evaluate(() => {
        const svg = document.querySelector('#board svg.lines');
        const m = svg.getScreenCTM();
        const n = Number(document.querySelector('#board').dataset.size);
        let worst = 0;
        for (const [c, r] of [[0, 0], [n - 1, 0], [0, n - 1], [n - 1, n - 1], [7, 7], [3, 11]]) {
          const cell = document.querySelector(`#board [data-index="${r * n + c}"]`).getBoundingClientRect();
          const x = m.a * (c + 1) + m.c * (r + 1) + m.e;
          const y = m.b * (c + 1) + m.d * (r + 1) + m.f;
          worst = Math.max(worst, Math.abs(cell.left + cell.width / 2 - x), Math.abs(cell.top + cell.height / 2 - y));
        }
        return worst;
      });
    assert.ok((await misalignment()) < 0.75, 'portrait: cells sit on the drawn intersections');
    await page.setViewportSize({ width: 844, height: 390 });
    await page.waitForFunction(() => document.querySelector('#board').getBoundingClientRect().width < 390);
    assert.ok((await misalignment()) < 0.75, 'landscape: cells sit on the drawn intersections');
    await tapAt(page, 10, 3, 0.2, 0.25); // k12
    await waitPlayed(page, 1);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector('#board').getBoundingClientRect().width > 350);
    await tapAt(page, 2, 12, -0.3, 0.1); // c3
    await waitCalls(page, 'play', 2);
    assert.deepEqual((await calls(page, 'play')).map((c) => c.args.point), ['k12', 'c3']);
    await done();
  });

  test('dead-zone taps (cell centres, half-way along lines) play nothing', async () => {
    const { page, done } = await open({ fake: LOCAL });
    for (const [col, row, dx, dy] of [[7, 7, 0.5, 0.5], [3, 10, 0.5, 0], [11, 2, 0, 0.5], [5, 5, 0.4, 0.45]]) {
      await tapAt(page, col, row, dx, dy);
    }
    await settled(page);
    assert.equal((await calls(page, 'play')).length, 0);
    assert.equal(await page.locator('#board [data-stone="black"], #board [data-stone="white"]').count(), 0);
    await done();
  });

  test('confirm mode: first tap shows a ghost, a tap elsewhere moves it, a second tap places', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'local', confirmMove: 'on' } } });
    await tapAt(page, 7, 7, 0.1, 0.1); // h8
    await page.waitForSelector('[data-point="h8"][data-ghost="black"]');
    assert.equal(await page.isVisible('#place'), true);
    assert.equal(await statusText(page), 'Tap again to place');
    await tapAt(page, 9, 5, -0.1, 0.2); // j10
    await page.waitForSelector('[data-point="j10"][data-ghost="black"]');
    assert.equal(await page.getAttribute('[data-point="h8"]', 'data-ghost'), null);
    assert.equal((await calls(page, 'play')).length, 0);
    await tapAt(page, 9, 5, 0.2, -0.1); // j10 again
    await waitPlayed(page, 1);
    assert.equal((await calls(page, 'play'))[0].args.point, 'j10');
    assert.equal(await stoneAt(page, 'j10'), 'black');
    // The Place button confirms too.
    await tapAt(page, 10, 4); // k11
    await page.waitForSelector('[data-point="k11"][data-ghost="white"]');
    await page.tap('#place');
    await waitCalls(page, 'play', 2);
    assert.equal((await calls(page, 'play'))[1].args.point, 'k11');
    await done();
  });

  test('confirm mode is on by default on a touch screen ("auto")', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'local', confirmMove: 'auto' } } });
    await tapAt(page, 7, 7);
    await page.waitForSelector('[data-point="h8"][data-ghost]');
    assert.equal((await calls(page, 'play')).length, 0);
    await done();
  });

  test('the computer’s turn calls computer_move, and a stale reply is dropped', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'computer', confirmMove: 'off' } } });
    await tapAt(page, 7, 7); // h8
    await waitCalls(page, 'computer_move', 1);
    const [cm] = await calls(page, 'computer_move');
    assert.deepEqual(cm.args, { gameId: 1, moveNumber: 1 });
    await page.waitForSelector('[data-point="i9"][data-stone="white"]');
    assert.equal(await statusText(page), 'Your move');

    // Now hold the engine's next answer, undo while it "thinks", then deliver the late answer.
    await page.evaluate(() => {
      window.__fake.hold = true;
    });
    await tapAt(page, 6, 8); // g7
    await waitCalls(page, 'computer_move', 2);
    assert.equal(await statusText(page), 'Thinking…');
    await page.tap('#undo');
    await waitCalls(page, 'undo', 1);
    assert.ok((await calls(page, 'cancel_search')).length >= 1, 'undo while thinking cancels the search');
    await page.waitForFunction(() => document.querySelector('[data-point="g7"]').dataset.stone === '');
    await page.evaluate(() => window.__fake.release());
    await settled(page); // the late reply has been handled
    assert.equal(await stoneAt(page, 'g7'), '', 'undone move stays undone');
    assert.equal(await stoneAt(page, 'j10'), '', 'the late computer move is not drawn');
    assert.equal(await stoneAt(page, 'h8'), 'black');
    assert.equal(await stoneAt(page, 'i9'), 'white');
    assert.notEqual(await statusText(page), 'Thinking…');
    await done();
  });

  test('a busy engine is asked again; a failed play takes its stone back', async () => {
    const failures = [{ cmd: 'computer_move', code: 'busy' }, { cmd: 'computer_move', code: 'busy' }];
    const { page, done } = await open({ fake: { failures, settings: { mode: 'computer', confirmMove: 'off' } } });
    await tapAt(page, 7, 7);
    await waitCalls(page, 'computer_move', 3);
    await page.waitForSelector('[data-point="i9"][data-stone="white"]');
    assert.equal(await statusText(page), 'Your move');
    // The engine refuses a move the UI thought was fine: the optimistic stone goes, the reason shows.
    await page.evaluate(() => window.__fake.failures.push({ cmd: 'play', code: 'notYourTurn' }));
    await tapAt(page, 3, 3); // d12
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Not your turn');
    assert.equal(await stoneAt(page, 'd12'), '');
    await done();
  });

  test('renju: ✕ on black’s forbidden points, with labels, refused without a call', async () => {
    const forbidden = [{ point: 'f10', reason: 'double-three' }, { point: 'k7', reason: 'double-four' }];
    const moves = ['h8', 'i9', 'g7', 'i7', 'i8', 'g9'];
    const { page, done } = await open({ fake: { moves, settings: { mode: 'local', rule: 'renju', confirmMove: 'off' }, view: { rule: 'renju', forbidden } } });
    assert.equal(await page.getAttribute('[data-point="f10"]', 'data-forbidden'), 'double-three');
    assert.equal(await page.getAttribute('[data-point="k7"]', 'data-forbidden'), 'double-four');
    assert.equal(await page.getAttribute('[data-point="f10"]', 'aria-label'), 'F10, forbidden for black');
    assert.equal(await page.getAttribute('[data-point="k10"]', 'aria-label'), 'K10, empty');
    assert.equal(await page.getAttribute('[data-point="h8"]', 'aria-label'), 'H8, black');
    await tapAt(page, 5, 5); // f10
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Forbidden: double-three');
    assert.equal((await calls(page, 'play')).length, 0);
    assert.equal(await stoneAt(page, 'f10'), '');
    // Once black has moved, white is to move and the marks go.
    await tapAt(page, 2, 2); // c13
    await waitCalls(page, 'play', 1);
    await page.waitForFunction(() => !document.querySelector('[data-forbidden]'));
    await done();
  });

  test('game over: the sheet, the winning line and Play again', async () => {
    const moves = ['d8', 'a1', 'e8', 'a2', 'f8', 'a3', 'g8', 'a4'];
    const line = ['d8', 'e8', 'f8', 'g8', 'h8'];
    const stats = { levels: [{ level: 3, wins: 2, losses: 1, draws: 0 }] };
    const { page, done } = await open({ fake: { moves, stats, settings: { mode: 'computer', confirmMove: 'off' } } });
    await page.evaluate((l) => {
      window.__fake.next.push({ result: { winner: 'black', reason: 'five', line: l }, computerToMove: false });
    }, line);
    await tapAt(page, 7, 7); // h8 completes the five
    await page.waitForSelector('#gameover-sheet[open]');
    assert.equal(await page.textContent('#gameover-title'), 'You win!');
    assert.equal(await page.textContent('#gameover-stats'), 'Medium: 2 won · 1 lost · 0 drawn');
    assert.equal(await statusText(page), 'Black wins — five in a row');
    const win = await page.$$eval('[data-win="true"]', (cells) => cells.map((c) => c.dataset.point).sort());
    assert.deepEqual(win, [...line].sort());
    assert.equal((await calls(page, 'computer_move')).length, 0);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-game-over.png') });
    await page.tap('#play-again');
    await waitCalls(page, 'new_game', 1);
    await page.waitForFunction(() => !document.querySelector('#gameover-sheet').open);
    assert.equal(await page.locator('[data-win]').count(), 0);
    assert.equal(await stoneAt(page, 'h8'), '');
    await done();
  });

  test('going to the background saves and pauses; coming back resumes the computer', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'computer', confirmMove: 'off' }, hold: true } });
    await tapAt(page, 7, 7);
    await waitCalls(page, 'computer_move', 1);
    const setHidden = (hidden) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { value: h, configurable: true });
        Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    await waitCalls(page, 'save_now', 1);
    await waitCalls(page, 'cancel_search', 1);
    // The search that was cancelled answers anyway: ignored.
    await page.evaluate(() => window.__fake.release());
    await settled(page); // the late reply has been handled
    assert.equal(await stoneAt(page, 'i9'), '');
    await page.evaluate(() => {
      window.__fake.hold = false;
    });
    await setHidden(false);
    await waitCalls(page, 'computer_move', 2);
    await page.waitForSelector('[data-stone="white"]');
    await done();
  });

  test('the back button closes an open sheet first, then warns before leaving', async () => {
    const { page, done } = await open({ fake: LOCAL });
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.evaluate(() => history.back());
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
    assert.equal(await page.isVisible('#toast'), false);
    await page.evaluate(() => history.back());
    await page.waitForSelector('#toast:not([hidden])');
    assert.equal(await page.textContent('#toast'), 'Press back again to leave');
    assert.ok((await calls(page, 'save_now')).length >= 1);
    // Closing a sheet with its own button leaves no stray history entry behind.
    await page.waitForFunction(() => history.state?.wuzi === 'guard', null, { timeout: 5000 });
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.tap('#settings-sheet [data-close]');
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open && history.state?.wuzi === 'guard');
    await done();
  });

  test('New game mid-game needs a second tap; on an empty board one tap starts it', async () => {
    const { page, done } = await open({ fake: { ...LOCAL, moves: ['h8', 'i9'] } });
    await page.tap('#new-game');
    await page.waitForSelector('#toast:not([hidden])');
    assert.equal(await page.textContent('#toast'), 'Tap New game again to abandon this game');
    assert.equal((await calls(page, 'new_game')).length, 0);
    assert.equal(await stoneAt(page, 'h8'), 'black');
    await page.tap('#new-game');
    await waitCalls(page, 'new_game', 1);
    await page.waitForFunction(() => !document.querySelector('#board [data-point="h8"]').getAttribute('data-stone'));
    await page.tap('#new-game');
    await waitCalls(page, 'new_game', 2);
    await done();
  });

  test('renju openings: the choice shows under renju only, starts the game from its stones and names it', async () => {
    const renjuOpenings = [
      { code: '4D', name: 'Kagetsu', chinese: '花月', moves: ['h8', 'h9', 'i9'] },
      { code: '7I', name: 'Hogetsu', chinese: '浦月', moves: ['h8', 'i9', 'i7'] },
    ];
    const { page, done } = await open({ fake: { ...LOCAL, renjuOpenings } });
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    assert.equal(await page.isVisible('#renju-opening'), false, 'hidden under freestyle');
    await page.tap('#settings-sheet input[name="rule"][value="renju"]');
    await page.waitForSelector('#renju-opening', { state: 'visible' });
    const options = await page.$$eval('#renju-opening option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(options, [
      ['free', 'Free start (empty board)'],
      ['random', 'Random canonical opening'],
      ['4D', 'Kagetsu 花月 (4D)'],
      ['7I', 'Hogetsu 浦月 (7I)'],
    ]);
    assert.equal(await page.inputValue('#renju-opening'), 'free');
    const box = await page.locator('#renju-opening').boundingBox();
    assert.ok(box.height >= 44 && box.width > 200, `a finger-sized control: ${JSON.stringify(box)}`);
    await page.selectOption('#renju-opening', '7I');
    await page.waitForFunction(() => window.__fake.calls.some((c) => c.cmd === 'set_settings' && c.args.settings.renjuOpening === '7I'));
    await page.tap('#settings-sheet [data-close]');
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
    // On an empty board the changed game options start the new game as the sheet closes.
    await waitCalls(page, 'new_game', 1);
    const [call] = await calls(page, 'new_game');
    assert.equal(call.args.options.rule, 'renju');
    assert.equal(call.args.options.renjuOpening, '7I');
    await page.waitForSelector('#board [data-point="i7"][data-stone="black"]');
    assert.equal(await stoneAt(page, 'h8'), 'black');
    assert.equal(await stoneAt(page, 'i9'), 'white');
    assert.match(await page.textContent('#meta'), /Hogetsu 浦月 \(7I\)/);
    assert.equal(await page.isDisabled('#undo'), true, 'the opening stones cannot be undone');
    // The game follows the choice now: nothing waits for a next game.
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    assert.equal(await page.isVisible('#applies-next'), false);
    assert.equal(await page.inputValue('#renju-opening'), '7I');
    await page.selectOption('#renju-opening', 'free');
    await page.waitForSelector('#applies-next', { state: 'visible' });
    await done();
  });

  test('safe-area insets pad the app (viewport-fit=cover)', async () => {
    const { page, done } = await open({ fake: LOCAL });
    assert.match(await page.getAttribute('meta[name="viewport"]', 'content'), /viewport-fit=cover/);
    const rules = await page.evaluate(() =>
      [...document.styleSheets].flatMap((s) => [...s.cssRules]).map((r) => r.cssText).join('\n'),
    );
    for (const side of ['top', 'right', 'bottom', 'left']) assert.match(rules, new RegExp(`env\\(safe-area-inset-${side}\\)`));
    const pad = await page.$eval('.app', (el) => {
      const cs = getComputedStyle(el);
      return [cs.paddingTop, cs.paddingRight, cs.paddingBottom, cs.paddingLeft].map(parseFloat);
    });
    for (const p of pad) assert.ok(p >= 8, `padding ${p}`);
    assert.equal(await page.$eval('#board', (el) => getComputedStyle(el).touchAction), 'none');
    await done();
  });

  test('hint marks the point and shows the verdict', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'computer', confirmMove: 'off' }, hintPoint: 'h8' } });
    await page.tap('#hint');
    await waitCalls(page, 'hint', 1);
    await page.waitForSelector('[data-point="h8"][data-hint="true"]');
    assert.equal(await statusText(page), 'Hint: H8 — even');
    assert.deepEqual((await calls(page, 'hint'))[0].args, { gameId: 1, moveNumber: 0 });
    await tapAt(page, 7, 7);
    await page.waitForFunction(() => !document.querySelector('[data-hint]'));
    await done();
  });

  test('verdicts and notices arrive as codes and are worded by the UI', async () => {
    const win = { kind: 'wins', color: 'black', plies: 7, byFours: true };
    const { page, done } = await open({
      fake: { settings: { mode: 'computer', confirmMove: 'off' }, hintPoint: 'h8', hintVerdict: win, notices: ['gameDamaged'] },
    });
    await page.waitForFunction(() => document.querySelector('#toast')?.textContent.includes('damaged'));
    assert.equal(await page.textContent('#toast'), 'Your saved game was damaged; a new game was started.');
    await page.tap('#hint');
    await waitCalls(page, 'hint', 1);
    await page.waitForFunction(() => document.querySelector('#status').textContent.includes('VCF'));
    assert.equal(await statusText(page), 'Hint: H8 — black wins by VCF in 7');
    await done();
  });

  // Analysis mode (issue 10 §1). No engine runs in Chromium: fake-tauri.js answers
  // start_analysis with made-up rounds whose score grows with the move number, which is all the
  // UI's part needs (the real rounds are tested in Rust and in the WebDriver E2E).
  const setHidden = (page, hidden) =>
    page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { value: h, configurable: true });
      Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);

  test('analysis: the toggle shows the evaluation, the best line and the candidates; a move restarts it', async () => {
    const { page, done } = await open({ fake: LOCAL });
    assert.equal(await page.isVisible('#panel'), false);
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'false');
    await page.tap('#analysis');
    await waitCalls(page, 'start_analysis', 1);
    assert.deepEqual((await calls(page, 'start_analysis'))[0].args, { gameId: 1, moveNumber: 0, onUpdate: {} });
    await page.waitForSelector('#eval[data-score="40"]');
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'true');
    assert.equal(await page.textContent('#eval-text'), '+40');
    assert.equal(await page.textContent('#eval-verdict'), 'even');
    assert.equal(await page.textContent('#eval-info'), 'depth 6 · 280k nodes/s');
    assert.deepEqual(await page.$$eval('#board .mark.pv', (els) => els.map((e) => [e.dataset.point, e.dataset.n, e.dataset.color])), [
      ['h8', '1', 'black'], ['i9', '2', 'white'], ['g7', '3', 'black'],
    ]);
    assert.deepEqual(await page.$$eval('#board .mark.cand', (els) => els.map((e) => [e.dataset.point, e.dataset.rank])), [
      ['h8', '1'], ['i9', '2'], ['g7', '3'],
    ]);
    assert.match(await page.textContent('#board .mark.cand[data-rank="1"]'), /^\d+%$/);

    // A tap still plays at once, and the analysis restarts for the new position.
    await tapAt(page, 3, 3); // d12
    assert.equal(await stoneAt(page, 'd12'), 'black', 'the stone is drawn before any reply');
    await waitPlayed(page, 1);
    await waitCalls(page, 'start_analysis', 2);
    assert.equal((await calls(page, 'start_analysis'))[1].args.moveNumber, 1);
    await page.waitForSelector('#eval[data-score="75"]');
    assert.equal(await page.textContent('#eval-text'), '+75');

    // A late round of an older analysis, or for another position, is dropped.
    await page.evaluate(() => window.__fake.sendAnalysis({ generation: window.__fake.generation - 1, blackScore: -500 }));
    await page.evaluate(() => window.__fake.sendAnalysis({ moveNumber: 0, blackScore: -600 }));
    await settled(page);
    assert.equal(await page.getAttribute('#eval', 'data-score'), '75');

    // Undo restarts it too; turning it off stops it and clears the board.
    await page.tap('#undo');
    await waitCalls(page, 'start_analysis', 3);
    await page.waitForSelector('#eval[data-score="40"]');
    await page.tap('#analysis');
    await waitCalls(page, 'stop_analysis', 1);
    assert.equal(await page.isVisible('#panel'), false);
    assert.equal(await page.locator('#board .mark').count(), 0);
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'false');
    await done();
  });

  // Issue 26 §6: candidates crowded together (a forced block with losing alternatives, or next
  // to each other in a corner) used to draw each label under its ring, over its neighbours.
  test('analysis: a candidate label never covers another candidate or label, nor leaves the board', async () => {
    const { page, done } = await open({ fake: LOCAL });
    await page.tap('#analysis');
    await page.waitForSelector('#eval[data-score]');
    const even = { kind: 'even', color: null, plies: null, byFours: false };
    const line = (point, score, pv) => ({ point, score, blackScore: score, win: 1 / (1 + Math.exp(-score / 200)), depth: 9, verdict: even, pv });
    const faults = () =>
      page.evaluate(() => {
        const box = (e) => e.getBoundingClientRect();
        const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
        const area = box(document.querySelector('#board .marks'));
        const cands = [...document.querySelectorAll('#board .mark.cand')];
        const out = [];
        cands.forEach((c, i) => {
          const label = box(c.querySelector('b'));
          if (label.left < area.left - 0.5 || label.right > area.right + 0.5 || label.top < area.top - 0.5 || label.bottom > area.bottom + 0.5) out.push(`${c.dataset.point}: label off the board`);
          cands.forEach((d, j) => {
            if (j === i) return;
            if (hit(label, box(d))) out.push(`${c.dataset.point}: label on ${d.dataset.point}'s ring`);
            if (j > i && hit(label, box(d.querySelector('b')))) out.push(`${c.dataset.point}, ${d.dataset.point}: labels overlap`);
          });
        });
        return { labels: cands.map((c) => c.textContent), out };
      });
    const crowds = [
      // The only move and two losing moves: the widest labels.
      [['a15', 120], ['b15', -29990], ['a14', -29996]],
      [['o1', 120], ['n1', -29990], ['o2', -29996]],
      [['h9', 120], ['h8', -29990], ['h10', -29996]],
      [['i8', 120], ['h8', -29990], ['j8', -29996]],
      [['h8', 120], ['i9', -29990], ['g7', -29996]],
      [['h8', 60], ['h9', 40], ['i8', 20]],
      [['a1', 60], ['b2', 40], ['a2', 20]],
    ];
    for (const crowd of crowds) {
      const pv = crowd.map(([p]) => p);
      await page.evaluate((lines) => window.__fake.sendAnalysis({ lines }), crowd.map(([p, score]) => line(p, score, pv)));
      await settled(page);
      const r = await faults();
      assert.equal(r.labels.length, 3, pv.join(' '));
      assert.deepEqual(r.out, [], `${pv.join(' ')} (${r.labels.join(', ')})`);
    }
    assert.equal(await page.textContent('#board .mark.cand[data-rank="1"]'), '57%');
    await page.evaluate((lines) => window.__fake.sendAnalysis({ lines }), crowds[0].map(([p, score]) => line(p, score, ['a15'])));
    await settled(page);
    assert.deepEqual(await page.$$eval('#board .mark.cand', (els) => els.map((e) => e.textContent)), ['only move', '−M10', '−M4']);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-analysis-crowded.png') });
    await done();
  });

  test('analysis: off by default against the computer, paused while it thinks, stopped in the background', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'computer', confirmMove: 'off' }, computerLatency: 400 } });
    await settled(page); // the first state is shown (open() waited for it) and drawn
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'false');
    assert.equal((await calls(page, 'start_analysis')).length, 0);
    await page.tap('#analysis');
    await page.waitForSelector('#eval[data-score="40"]');
    await tapAt(page, 7, 7); // h8
    await waitCalls(page, 'computer_move', 1);
    await page.waitForFunction(() => document.querySelector('#eval-info').textContent === 'Paused while the computer thinks');
    assert.equal((await calls(page, 'start_analysis')).length, 1, 'no analysis while the computer is to move');
    assert.equal(await page.locator('#board .mark').count(), 0);
    await waitCalls(page, 'start_analysis', 2);
    assert.equal((await calls(page, 'start_analysis'))[1].args.moveNumber, 2);
    await page.waitForSelector('#eval[data-score="110"]');

    await setHidden(page, true);
    await waitCalls(page, 'stop_analysis', 1);
    await setHidden(page, false);
    await waitCalls(page, 'start_analysis', 3);
    await page.waitForSelector('#eval[data-score="110"]');

    // A new game against the computer starts with analysis off.
    await page.tap('#new-game');
    await page.tap('#new-game');
    await page.waitForFunction(() => document.querySelector('#analysis').getAttribute('aria-pressed') === 'false');
    assert.equal(await page.isVisible('#panel'), false);
    await done();
  });

  // Game review (issue 10 §2): fake-tauri.js stands in for the engine's review (made-up
  // classes, progress every reviewDelay ms); the real review runs in the Rust tests and the E2E.

  test('review: after the game, progress to the end, steps, slider, graph and the better move', async () => {
    const { page, done } = await open({ fake: FINISHED });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.tap('#review-open');
    await waitCalls(page, 'start_review', 1);
    assert.deepEqual((await calls(page, 'start_review'))[0].args, { gameId: 1, moveNumber: 9, onProgress: {} });
    await page.waitForFunction(() => document.querySelector('#review-progress').textContent === '9 / 9');
    await page.waitForSelector('#review-progress[data-done]');
    assert.equal(await page.isVisible('#review-cancel'), false);
    assert.equal(await statusText(page), 'Move 9 of 9');
    assert.equal(await page.locator('#review-graph .graph-tick').count(), 5);
    assert.equal(await page.getAttribute('#review-graph .graph-tick[data-ply="5"]', 'data-class'), 'blunder');

    await page.tap('#review-first');
    assert.equal(await placed(page), 0);
    assert.equal(await statusText(page), 'Start of the game · 9 moves');
    assert.equal(await page.isDisabled('#review-prev'), true);
    await page.tap('#review-next');
    assert.equal(await placed(page), 1);
    assert.equal(await page.textContent('#review-move'), '1. Black H8 — best');
    await page.tap('#review-last');
    assert.equal(await placed(page), 9);
    await page.tap('#review-prev');
    assert.equal(await placed(page), 8);

    // The slider, then a tap on the graph half-way (ply 5 of 9 → the blunder).
    await page.locator('#review-slider').fill('3');
    assert.equal(await placed(page), 3);
    assert.equal(await page.textContent('#review-move'), '3. Black I8 — inaccuracy');
    const g = await page.locator('#review-graph').boundingBox();
    await page.touchscreen.tap(g.x + g.width * 0.5, g.y + g.height / 2);
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="black"], #board [data-stone="white"]').length === 5);
    assert.equal(await page.textContent('#review-move'), '5. Black J8 — blunder · better: A15');
    await page.waitForSelector('#board .mark.better[data-point="a15"]');

    // The board is for looking in review: a tap places nothing; Undo waits.
    await tapAt(page, 3, 3);
    await settled(page);
    assert.equal((await calls(page, 'play')).length, 0);
    assert.equal(await page.isDisabled('#undo'), true);

    // Back to the game; the finished review is kept and not asked for again.
    await page.tap('#review-close');
    assert.equal(await placed(page), 9);
    assert.equal(await page.isVisible('#panel'), false);
    await page.tap('#settings');
    await page.tap('#review-record');
    await page.waitForSelector('#review:not([hidden])');
    assert.equal((await calls(page, 'start_review')).length, 1);
    await done();
  });

  test('review: a swipe across the board steps back and forward', async () => {
    const { page, done } = await open({ fake: FINISHED });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.tap('#review-open');
    await page.waitForSelector('#review-progress[data-done]');
    const swipe = (dx) =>
      page.evaluate((d) => {
        const board = document.querySelector('#board');
        const r = board.getBoundingClientRect();
        const at = (x) => ({ bubbles: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: r.top + r.height / 2 });
        const x0 = r.left + r.width / 2 - d / 2;
        board.dispatchEvent(new PointerEvent('pointerdown', at(x0)));
        board.dispatchEvent(new PointerEvent('pointerup', at(x0 + d)));
      }, dx);
    await swipe(160);
    assert.equal(await placed(page), 8);
    await swipe(160);
    assert.equal(await placed(page), 7);
    await swipe(-160);
    assert.equal(await placed(page), 8);
    await swipe(30);
    assert.equal(await placed(page), 8, 'a short slide is not a swipe');
    assert.equal((await calls(page, 'play')).length, 0);
    await done();
  });

  test('review: a running review can be stopped; analysis follows the step shown', async () => {
    const { page, done } = await open({ fake: { ...FINISHED, reviewDelay: 250 } });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.tap('#review-open');
    await page.waitForFunction(() => document.querySelector('#review-progress').textContent === '0 / 9');
    await page.tap('#review-cancel');
    await waitCalls(page, 'cancel_review', 1);
    await page.waitForFunction(() => document.querySelector('#review-progress').textContent === '');
    assert.equal(await page.isVisible('#review-cancel'), false);
    // Time must pass here: the stopped review would have sent two more progress reports by now
    // (one every 250 ms); there is no event for a report that must not be drawn.
    await page.waitForTimeout(600);
    assert.equal(await page.textContent('#review-progress'), '', 'a late progress of the stopped review is dropped');
    // Analysis on a review step analyses that position.
    // The last position is finished: nothing to analyse, the panel says so.
    await page.tap('#analysis');
    await page.waitForFunction(() => document.querySelector('#eval-info').textContent === 'The game is over here');
    assert.equal(await page.getAttribute('#eval', 'data-score'), '30000');
    assert.equal((await calls(page, 'start_analysis')).length, 0);
    await page.tap('#review-first');
    await waitCalls(page, 'start_analysis', 1);
    assert.equal((await calls(page, 'start_analysis'))[0].args.moveNumber, 0);
    await page.waitForSelector('#eval[data-score="40"][data-ply="0"]');
    await done();
  });

  test('tap → stone drawn within one frame', async (t) => {
    // The engine answers 50 ms later: any stone seen before that was drawn by the UI itself.
    const { page, done } = await open({ fake: { ...LOCAL, latency: 50 } });
    await page.evaluate(() => {
      const board = document.querySelector('#board');
      window.__taps = [];
      let current = null;
      board.addEventListener('pointerup', () => {
        performance.mark('tap-start');
        current = { start: performance.now(), stone: null, handlerEnd: null };
      }, { capture: true });
      // Bubbles to the window after the board's own pointerup handler has returned.
      window.addEventListener('pointerup', () => {
        if (current) current.handlerEnd = performance.now();
      });
      new MutationObserver((records) => {
        if (!current || current.stone !== null) return;
        if (!records.some((r) => r.target.dataset.stone)) return;
        current.stone = performance.now();
        const tap = current;
        requestAnimationFrame(() => {
          performance.mark('stone-frame');
          tap.frame = performance.now();
          window.__taps.push(tap);
        });
      }).observe(board, { subtree: true, attributeFilter: ['data-stone'] });
    });
    const points = [[3, 3], [4, 3], [5, 3], [6, 3], [7, 3], [3, 6], [4, 6], [5, 6], [6, 6], [7, 6], [3, 9], [4, 9], [5, 9], [6, 9], [7, 9], [3, 12], [4, 12], [5, 12], [6, 12], [7, 12], [10, 10]];
    for (const [i, [col, row]] of points.entries()) {
      await tapAt(page, col, row);
      await page.waitForFunction((k) => window.__taps.length >= k, i + 1);
      await waitCalls(page, 'play', i + 1);
      // The engine's answer has arrived once Undo is enabled again.
      await page.waitForFunction(() => !document.querySelector('#undo').disabled);
    }
    const taps = await page.evaluate(() => window.__taps);
    for (const tap of taps) {
      assert.ok(tap.stone !== null && tap.stone <= tap.handlerEnd, 'the stone is set inside the pointer handler, before any frame');
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const toFrame = median(taps.map((t) => t.frame - t.start));
    const inHandler = median(taps.map((t) => t.stone - t.start));
    const report = `tap → stone: set after ${inHandler.toFixed(2)} ms (median, in the handler); first frame with it after ${toFrame.toFixed(2)} ms (median of ${taps.length})`;
    t.diagnostic(report);
    await done();
  });
});
