// Touch at phone size (390×844): taps and the four-corner rule, confirm mode, the computer's turn,
// renju, game over, the background, the back button, hint, analysis, review and the tap → stone timing.
// The real UI on the real core: the browser version scripts/web.sh builds (the app core and the
// engine in wasm), in headless Chromium (Debian's chromium through playwright-core); a recorder
// only notes the commands the UI sends. Screenshots go to artifacts/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calls, stoneAt, ARTIFACTS } from './harness.mjs';
import { useBrowser, LOCAL, FINISHED, open, tapAt, waitCalls, waitPlayed, statusText, placed, settled, currentGame, waitSettled, watchWhiteStones, whiteStonesDrawn, setHidden } from './browser-shared.mjs';

useBrowser();

describe('touch (phone 390×844)', () => {
  test('taps near each corner of a cell play that corner’s point', async () => {
    const { page, done } = await open({ state: LOCAL });
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
    const { page, done } = await open({ state: LOCAL });
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
    const { page, done } = await open({ state: LOCAL });
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
    const { page, done } = await open({ state: LOCAL });
    for (const [col, row, dx, dy] of [[7, 7, 0.5, 0.5], [3, 10, 0.5, 0], [11, 2, 0, 0.5], [5, 5, 0.4, 0.45]]) {
      await tapAt(page, col, row, dx, dy);
    }
    await settled(page);
    assert.equal((await calls(page, 'play')).length, 0);
    assert.equal(await page.locator('#board [data-stone="black"], #board [data-stone="white"]').count(), 0);
    await done();
  });

  test('confirm mode: first tap shows a ghost, a tap elsewhere moves it, a second tap places', async () => {
    const { page, done } = await open({ state: { settings: { mode: 'local', confirmMove: 'on' } } });
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
    const { page, done } = await open({ state: { settings: { mode: 'local', confirmMove: 'auto' } } });
    await tapAt(page, 7, 7);
    await page.waitForSelector('[data-point="h8"][data-ghost]');
    assert.equal((await calls(page, 'play')).length, 0);
    await done();
  });

  test('the computer’s turn calls computer_move, and a stale reply is dropped', async () => {
    // Master (level 5) thinks long enough for Undo to come while it does.
    const { page, done } = await open({ state: { settings: { mode: 'computer', level: 5 } } });
    const { gameId } = await currentGame(page);
    await tapAt(page, 7, 7); // h8
    await waitCalls(page, 'computer_move', 1);
    const [cm] = await calls(page, 'computer_move');
    assert.deepEqual(cm.args, { gameId, moveNumber: 1 });
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="white"]').length === 1);
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Your move');
    const reply = await page.getAttribute('#board [data-stone="white"]', 'data-point');

    // Undo while the engine thinks about its next move: its answer comes late and is dropped.
    await watchWhiteStones(page);
    const free = await page.getAttribute('#board [data-stone=""]:not([data-point="h8"])', 'data-point');
    await page.tap(`#board [data-point="${free}"]`);
    await waitCalls(page, 'computer_move', 2);
    assert.equal(await statusText(page), 'Thinking…');
    await page.tap('#undo');
    await waitCalls(page, 'undo', 1);
    assert.ok((await calls(page, 'cancel_search')).length >= 1, 'undo while thinking cancels the search');
    await waitSettled(page, 'computer_move');
    await waitSettled(page, 'undo');
    await settled(page);
    assert.equal(await stoneAt(page, free), '', 'undone move stays undone');
    assert.deepEqual(await whiteStonesDrawn(page), [], 'the late computer move is never drawn');
    assert.equal(await stoneAt(page, 'h8'), 'black');
    assert.equal(await stoneAt(page, reply), 'white');
    assert.equal(await placed(page), 2);
    assert.notEqual(await statusText(page), 'Thinking…');
    await done();
  });


  test('a busy engine is asked again; a failed play takes its stone back', async () => {
    // The browser host never answers `busy` nor refuses a move the UI allows (see the
    // harness's refusals): the Tauri app's answers are queued here, everything else is real.
    const { page, done } = await open({ state: { settings: { mode: 'computer', confirmMove: 'off' } } });
    await page.evaluate(() => window.__refusals.push({ cmd: 'computer_move', code: 'busy' }, { cmd: 'computer_move', code: 'busy' }));
    await tapAt(page, 7, 7); // h8
    await waitCalls(page, 'computer_move', 3);
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="white"]').length === 1);
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Your move');
    // The engine refuses a move the UI thought was fine: the optimistic stone goes, the reason shows.
    await page.evaluate(() => window.__refusals.push({ cmd: 'play', code: 'notYourTurn' }));
    const free = await page.getAttribute('#board [data-stone=""]', 'data-point');
    await page.tap(`#board [data-point="${free}"]`);
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Not your turn');
    assert.equal(await stoneAt(page, free), '');
    assert.equal(await placed(page), 2);
    await done();
  });

  test('renju: ✕ on black’s forbidden points, with labels, refused without a call', async () => {
    // Black: h10 i10 and j8 j9 (j10 makes two threes), b2 c2 d2 and e3 e4 e5 (e2 makes two fours).
    const black = ['h10', 'i10', 'j8', 'j9', 'b2', 'c2', 'd2', 'e3', 'e4', 'e5'];
    const white = ['o15', 'o13', 'o11', 'o9', 'o7', 'o5', 'm15', 'm13', 'm11', 'm9'];
    const moves = black.flatMap((b, i) => [b, white[i]]);
    const { page, done } = await open({ state: { moves, settings: { mode: 'local', rule: 'renju' } } });
    assert.deepEqual((await currentGame(page)).forbidden, [{ point: 'j10', reason: 'double-three' }, { point: 'e2', reason: 'double-four' }]);
    assert.equal(await page.getAttribute('[data-point="j10"]', 'data-forbidden'), 'double-three');
    assert.equal(await page.getAttribute('[data-point="e2"]', 'data-forbidden'), 'double-four');
    assert.equal(await page.getAttribute('[data-point="j10"]', 'aria-label'), 'J10, forbidden for black');
    assert.equal(await page.getAttribute('[data-point="k10"]', 'aria-label'), 'K10, empty');
    assert.equal(await page.getAttribute('[data-point="h10"]', 'aria-label'), 'H10, black');
    await tapAt(page, 9, 5); // j10
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Forbidden: double-three');
    assert.equal((await calls(page, 'play')).length, 0);
    assert.equal(await stoneAt(page, 'j10'), '');
    // Once black has moved, white is to move and the marks go.
    await tapAt(page, 2, 2); // c13
    await waitCalls(page, 'play', 1);
    await page.waitForFunction(() => !document.querySelector('[data-forbidden]'));
    await done();
  });

  test('game over: the sheet, the winning line and Play again', async () => {
    // A game loaded against the computer (Medium), black to move with four in a row.
    const record = 'd8 a1 e8 a2 f8 a3 g8 a4';
    const line = ['d8', 'e8', 'f8', 'g8', 'h8'];
    const { page, done } = await open({ state: { record, settings: { mode: 'computer', level: 3 } } });
    await tapAt(page, 7, 7); // h8 completes the five
    await page.waitForSelector('#gameover-sheet[open]');
    assert.equal(await page.textContent('#gameover-title'), 'You win!');
    assert.equal(await page.textContent('#gameover-stats'), 'Medium: 1 won · 0 lost · 0 drawn');
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

  test('going to the background saves and pauses; coming back shows the computer’s move', async () => {
    // Master thinks long enough for the page to go to the background meanwhile.
    const { page, done } = await open({ state: { settings: { mode: 'computer', level: 5 } } });
    await watchWhiteStones(page);
    await tapAt(page, 7, 7);
    await waitCalls(page, 'computer_move', 1);
    await setHidden(page, true);
    await waitCalls(page, 'save_now', 1);
    await waitCalls(page, 'cancel_search', 1);
    // The search answers anyway (a worker finishes what it started): the UI, stopped, ignores it.
    await waitSettled(page, 'computer_move');
    await settled(page);
    assert.deepEqual(await whiteStonesDrawn(page), [], 'the reply of the stopped search is not drawn');
    assert.equal(await placed(page), 1);
    // Back in front, the UI shows the game as the core has it: the computer has answered.
    await setHidden(page, false);
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="white"]').length === 1);
    assert.equal((await currentGame(page)).moves.length, 2);
    assert.equal(await statusText(page), 'Your move');
    await done();
  });

  test('the back button closes an open sheet first, then warns before leaving', async () => {
    const { page, done } = await open({ state: LOCAL });
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
    const { page, done } = await open({ state: { ...LOCAL, moves: ['h8', 'i9'] } });
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
    const { page, done } = await open({ state: LOCAL });
    // The core's 26 canonical openings, as get_state lists them.
    const { renjuOpenings } = await page.evaluate(() => window.__TAURI__.core.invoke('get_state'));
    assert.equal(renjuOpenings.length, 26);
    const kagetsu = renjuOpenings.find((o) => o.code === '4D');
    assert.deepEqual(kagetsu, { code: '4D', name: 'Kagetsu', chinese: '花月' });
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    assert.equal(await page.isVisible('#renju-opening'), false, 'hidden under freestyle');
    await page.tap('#settings-sheet input[name="rule"][value="renju"]');
    await page.waitForSelector('#renju-opening', { state: 'visible' });
    const options = await page.$$eval('#renju-opening option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(options, [
      ['free', 'Free start (empty board)'],
      ['random', 'Random canonical opening'],
      ...renjuOpenings.map((o) => [o.code, `${o.name} ${o.chinese} (${o.code})`]),
    ]);
    assert.equal(await page.inputValue('#renju-opening'), 'free');
    const box = await page.locator('#renju-opening').boundingBox();
    assert.ok(box.height >= 44 && box.width > 200, `a finger-sized control: ${JSON.stringify(box)}`);
    await page.selectOption('#renju-opening', '7I');
    await page.waitForFunction(() => window.__calls.some((c) => c.cmd === 'set_settings' && c.args.settings.renjuOpening === '7I'));
    await page.tap('#settings-sheet [data-close]');
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
    // On an empty board the changed game options start the new game as the sheet closes.
    await waitCalls(page, 'new_game', 1);
    const [call] = await calls(page, 'new_game');
    assert.equal(call.args.options.rule, 'renju');
    assert.equal(call.args.options.renjuOpening, '7I');
    // Hogetsu: black at the centre, white diagonally next to it, black's third stone below it.
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="black"], #board [data-stone="white"]').length === 3);
    assert.deepEqual((await currentGame(page)).moves, ['h8', 'i9', 'i7']);
    assert.equal(await stoneAt(page, 'h8'), 'black');
    assert.equal(await stoneAt(page, 'i9'), 'white');
    assert.equal(await stoneAt(page, 'i7'), 'black');
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
    const { page, done } = await open({ state: LOCAL });
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
    const { page, done } = await open({ state: { settings: { mode: 'computer' } } });
    const { gameId } = await currentGame(page);
    await page.tap('#hint');
    await waitCalls(page, 'hint', 1);
    await page.waitForSelector('#board [data-hint="true"]');
    const point = await page.getAttribute('#board [data-hint="true"]', 'data-point');
    assert.equal(await statusText(page), `Hint: ${point.toUpperCase()} — even`);
    assert.deepEqual((await calls(page, 'hint'))[0].args, { gameId, moveNumber: 0 });
    await tapAt(page, 2, 2); // c13
    await page.waitForFunction(() => !document.querySelector('[data-hint]'));
    await done();
  });

  test('verdicts and notices arrive as codes and are worded by the UI', async () => {
    // Black has an open three (H8 I8 J8): a four at either end wins by fours.
    const { page, done } = await open({ state: { record: 'h8 a1 i8 a3 j8 a5', settings: { mode: 'computer' } } });
    await page.tap('#hint');
    await waitCalls(page, 'hint', 1);
    await page.waitForFunction(() => document.querySelector('#status').textContent.includes('VCF'));
    assert.match(await statusText(page), /^Hint: [GK]8 — black wins by VCF in 3$/);
    await done();

    // A save the core cannot read: a fresh game, and the notice worded by the UI.
    const damaged = await open({
      state: null,
      init: [() => {
        if (!sessionStorage.getItem('damaged')) {
          sessionStorage.setItem('damaged', '1');
          localStorage.setItem('wuzi:game.json', '{"version":1,"gameId":');
        }
      }],
    });
    await damaged.page.waitForFunction(() => document.querySelector('#toast')?.textContent.includes('damaged'));
    assert.equal(await damaged.page.textContent('#toast'), 'Your saved game was damaged; a new game was started.');
    await damaged.done();
  });

  // Analysis mode (issue 10 §1), by the real engine: its rounds come one after another, each
  // deeper, so the tests look at what a round shows, not at its numbers.
  const roundShown = (page, ply) => page.waitForSelector(`#eval[data-score][data-ply="${ply}"]`);

  test('analysis: the toggle shows the evaluation, the best line and the candidates; a move restarts it', async () => {
    const { page, done } = await open({ state: LOCAL });
    const { gameId } = await currentGame(page);
    assert.equal(await page.isVisible('#panel'), false);
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'false');
    await page.tap('#analysis');
    await waitCalls(page, 'start_analysis', 1);
    const [start] = await calls(page, 'start_analysis');
    assert.equal(start.args.gameId, gameId);
    assert.equal(start.args.moveNumber, 0);
    assert.match(start.args.onUpdate, /^__CHANNEL__:\d+$/);
    await roundShown(page, 0);
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'true');
    const score = Number(await page.getAttribute('#eval', 'data-score'));
    assert.equal(await page.textContent('#eval-text'), `${score > 0 ? '+' : score < 0 ? '−' : ''}${Math.abs(score)}`);
    assert.equal(await page.textContent('#eval-verdict'), 'even', 'the empty board is even');
    assert.match(await page.textContent('#eval-info'), /^depth \d+ · [\d.]+k? nodes\/s( · done)?$/);
    // The best line from black's first move on, the colours alternating; the candidates ranked,
    // the best first, and the best line starting at the best candidate.
    const pv = await page.$$eval('#board .mark.pv', (els) => els.map((e) => [e.dataset.point, e.dataset.n, e.dataset.color]));
    assert.ok(pv.length >= 1, 'a best line is drawn');
    pv.forEach(([, n, color], k) => assert.deepEqual([n, color], [String(k + 1), k % 2 ? 'white' : 'black']));
    const cands = await page.$$eval('#board .mark.cand', (els) => els.map((e) => [e.dataset.point, e.dataset.rank]));
    assert.ok(cands.length >= 1 && cands.length <= 3, `one to three candidates: ${cands}`);
    cands.forEach(([, rank], k) => assert.equal(rank, String(k + 1)));
    assert.equal(cands[0][0], pv[0][0]);
    assert.match(await page.textContent('#board .mark.cand[data-rank="1"]'), /^\d+%$/);

    // A tap still plays at once, and the analysis restarts for the new position.
    await tapAt(page, 3, 3); // d12
    assert.equal(await stoneAt(page, 'd12'), 'black', 'the stone is drawn before any reply');
    await waitPlayed(page, 1);
    await waitCalls(page, 'start_analysis', 2);
    assert.equal((await calls(page, 'start_analysis'))[1].args.moveNumber, 1);
    await roundShown(page, 1);
    const generation = Number(await page.getAttribute('#eval', 'data-generation'));

    // A late round of an older analysis, or of another position, is dropped: such rounds, sent
    // on the UI's channel by the test, change nothing on screen.
    const shownNow = () => page.evaluate(() => [document.querySelector('#eval').dataset.generation, document.querySelector('#eval').dataset.ply]);
    await page.evaluate(({ g, id }) => {
      const channel = window.__channels.at(-1);
      const line = { point: 'a1', score: -500, blackScore: -500, win: 0.1, depth: 9, verdict: { kind: 'better', color: 'white', plies: null, byFours: false }, pv: ['a1'] };
      const round = { gameId: id, toMove: 'white', round: 9, done: false, depth: 9, nodes: 1, nps: 1, elapsedMs: 1, blackScore: -500, blackWin: 0.1, lines: [line] };
      channel.onmessage({ ...round, generation: g - 1, moveNumber: 1 });
      channel.onmessage({ ...round, generation: g, moveNumber: 0 });
    }, { g: generation, id: gameId });
    await settled(page);
    assert.deepEqual(await shownNow(), [String(generation), '1']);
    assert.equal(await page.locator('#board .mark.cand[data-point="a1"]').count(), 0);

    // Undo restarts it too; turning it off stops it and clears the board.
    await page.tap('#undo');
    await waitCalls(page, 'start_analysis', 3);
    await roundShown(page, 0);
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
    const { page, done } = await open({ state: LOCAL });
    const { gameId } = await currentGame(page);
    await page.tap('#analysis');
    await roundShown(page, 0);
    // The crowds below are rounds the test sends on the UI's channel, with the number of the
    // analysis under way, once the core's own rounds are stopped (through the real host): what
    // is checked is where the UI puts the labels of any such round.
    const generation = Number(await page.getAttribute('#eval', 'data-generation'));
    await page.evaluate(() => window.__TAURI__.core.invoke('stop_analysis'));
    const send = (lines) =>
      page.evaluate(({ lines, g, id }) => {
        const b = lines[0].blackScore;
        window.__channels.at(-1).onmessage({
          generation: g, gameId: id, moveNumber: 0, toMove: 'black', round: 1, done: false, depth: 9,
          nodes: 42000, nps: 280000, elapsedMs: 150, blackScore: b, blackWin: 1 / (1 + Math.exp(-b / 200)), lines,
        });
      }, { lines, g: generation, id: gameId });

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
      await send(crowd.map(([p, score]) => line(p, score, pv)));
      await settled(page);
      const r = await faults();
      assert.equal(r.labels.length, 3, pv.join(' '));
      assert.deepEqual(r.out, [], `${pv.join(' ')} (${r.labels.join(', ')})`);
    }
    assert.equal(await page.textContent('#board .mark.cand[data-rank="1"]'), '57%');
    await send(crowds[0].map(([p, score]) => line(p, score, ['a15'])));
    await settled(page);
    assert.deepEqual(await page.$$eval('#board .mark.cand', (els) => els.map((e) => e.textContent)), ['only move', '−M10', '−M4']);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-analysis-crowded.png') });
    await done();
  });

  test('analysis: off by default against the computer, paused while it thinks, stopped in the background', async () => {
    // Master thinks long enough for the pause to be seen.
    const { page, done } = await open({ state: { settings: { mode: 'computer', level: 5 } } });
    await settled(page); // the first state is shown (open() waited for it) and drawn
    assert.equal(await page.getAttribute('#analysis', 'aria-pressed'), 'false');
    assert.equal((await calls(page, 'start_analysis')).length, 0);
    await page.tap('#analysis');
    await roundShown(page, 0);
    await tapAt(page, 7, 7); // h8
    await waitCalls(page, 'computer_move', 1);
    await page.waitForFunction(() => document.querySelector('#eval-info').textContent === 'Paused while the computer thinks');
    assert.equal((await calls(page, 'start_analysis')).length, 1, 'no analysis while the computer is to move');
    assert.equal(await page.locator('#board .mark').count(), 0);
    await waitCalls(page, 'start_analysis', 2);
    assert.equal((await calls(page, 'start_analysis'))[1].args.moveNumber, 2);
    await roundShown(page, 2);

    await setHidden(page, true);
    await waitCalls(page, 'stop_analysis', 1);
    await setHidden(page, false);
    await waitCalls(page, 'start_analysis', 3);
    await roundShown(page, 2);

    // A new game against the computer starts with analysis off.
    await page.tap('#new-game');
    await page.tap('#new-game');
    await page.waitForFunction(() => document.querySelector('#analysis').getAttribute('aria-pressed') === 'false');
    assert.equal(await page.isVisible('#panel'), false);
    await done();
  });

  // Game review (issue 10 §2), by the real engine: the game black won on move 9 against white
  // stones thrown away on the edge. White's moves after black's open three (a2 at move 4) let
  // black win; which class each move gets is the engine's, so the tests look at what it shows.

  test('review: after the game, progress to the end, steps, slider, graph and the better move', async () => {
    const { page, done } = await open({ state: FINISHED });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.tap('#review-open');
    await waitCalls(page, 'start_review', 1);
    const [start] = await calls(page, 'start_review');
    assert.deepEqual([start.args.gameId, start.args.moveNumber], [(await currentGame(page)).gameId, 9]);
    assert.match(start.args.onProgress, /^__CHANNEL__:\d+$/);
    await page.waitForFunction(() => document.querySelector('#review-progress').textContent === '9 / 9');
    await page.waitForSelector('#review-progress[data-done]');
    assert.equal(await page.isVisible('#review-cancel'), false);
    assert.equal(await statusText(page), 'Move 9 of 9');
    // A tick on the graph for each move the review found wanting, and one at least: white's.
    const { review } = await currentGame(page);
    assert.equal(review.moves.length, 9);
    const ticks = await page.$$eval('#review-graph .graph-tick', (els) => els.map((e) => [Number(e.dataset.ply), e.dataset.class]));
    assert.ok(ticks.length >= 1, 'white’s losing moves are marked');
    for (const [ply, cls] of ticks) assert.equal(cls, review.moves[ply - 1].class, `tick of move ${ply}`);
    assert.ok(ticks.some(([ply, cls]) => ply % 2 === 0 && (cls === 'mistake' || cls === 'blunder')), JSON.stringify(ticks));
    const word = (ply) => review.moves[ply - 1].class;

    await page.tap('#review-first');
    assert.equal(await placed(page), 0);
    assert.equal(await statusText(page), 'Start of the game · 9 moves');
    assert.equal(await page.isDisabled('#review-prev'), true);
    await page.tap('#review-next');
    assert.equal(await placed(page), 1);
    assert.match(await page.textContent('#review-move'), new RegExp(`^1\\. Black H8 — ${word(1)}`));
    await page.tap('#review-last');
    assert.equal(await placed(page), 9);
    await page.tap('#review-prev');
    assert.equal(await placed(page), 8);

    // The slider, then a tap on the graph half-way (ply 5 of 9 → the blunder).
    await page.locator('#review-slider').fill('3');
    assert.equal(await placed(page), 3);
    assert.match(await page.textContent('#review-move'), new RegExp(`^3\\. Black I8 — ${word(3)}`));
    const g = await page.locator('#review-graph').boundingBox();
    await page.touchscreen.tap(g.x + g.width * 0.5, g.y + g.height / 2);
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="black"], #board [data-stone="white"]').length === 5);
    assert.match(await page.textContent('#review-move'), new RegExp(`^5\\. Black J8 — ${word(5)}`));
    // A move found wanting is shown with the better one, marked on the board.
    const worse = review.moves.find((m) => m.best && m.best !== m.point && (m.class === 'mistake' || m.class === 'blunder'));
    assert.ok(worse, 'the review names a better move for a losing one');
    await page.locator('#review-slider').fill(String(worse.ply));
    assert.equal(await page.textContent('#review-move'), `${worse.ply}. ${worse.color === 'black' ? 'Black' : 'White'} ${worse.point.toUpperCase()} — ${worse.class} · better: ${worse.best.toUpperCase()}`);
    await page.waitForSelector(`#board .mark.better[data-point="${worse.best}"]`);

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
    const { page, done } = await open({ state: FINISHED });
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
    const { page, done } = await open({ state: FINISHED });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.tap('#review-open');
    await page.waitForFunction(() => document.querySelector('#review-progress').textContent === '0 / 9');
    await page.tap('#review-cancel');
    await waitCalls(page, 'cancel_review', 1);
    await page.waitForFunction(() => document.querySelector('#review-progress').textContent === '');
    assert.equal(await page.isVisible('#review-cancel'), false);
    // The worker finishes the review it started (about 3 s), sending its progress meanwhile:
    // once its reply is in, nothing of it may show.
    assert.equal((await calls(page, 'start_review')).filter((c) => c.settled).length, 0, 'stopped while it ran');
    await waitSettled(page, 'start_review');
    await settled(page);
    assert.equal(await page.textContent('#review-progress'), '', 'a late progress of the stopped review is dropped');
    assert.equal(await page.locator('#review-graph .graph-tick').count(), 0, 'nor its result');
    // Analysis on a review step analyses that position.
    // The last position is finished: nothing to analyse, the panel says so.
    await page.tap('#analysis');
    await page.waitForFunction(() => document.querySelector('#eval-info').textContent === 'The game is over here');
    assert.equal(await page.getAttribute('#eval', 'data-score'), '30000');
    assert.equal((await calls(page, 'start_analysis')).length, 0);
    await page.tap('#review-first');
    await waitCalls(page, 'start_analysis', 1);
    assert.equal((await calls(page, 'start_analysis'))[0].args.moveNumber, 0);
    await page.waitForSelector('#eval[data-score][data-ply="0"]');
    await done();
  });

  test('tap → stone drawn within one frame', async (t) => {
    // The core answers from its worker, a message later: a stone set inside the pointer handler
    // was drawn by the UI itself.
    const { page, done } = await open({ state: LOCAL });
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
