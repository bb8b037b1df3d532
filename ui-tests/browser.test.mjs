// The real UI in headless Chromium (Debian's /usr/bin/chromium through playwright-core), with
// touch emulation for the phone cases. The Tauri IPC is replaced, here only, by the recorder in
// fake-tauri.js. Screenshots go to artifacts/ (gitignored).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, launch, openApp, pointPixel, calls, stoneAt, PHONE, DESKTOP, ARTIFACTS } from './harness.mjs';

let server;
let browser;

before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const LOCAL = { settings: { mode: 'local', confirmMove: 'off' } };
// A two-player game black won on move 9, for the review tests.
const FINISHED = {
  ...LOCAL,
  moves: ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'],
  view: { result: { winner: 'black', reason: 'five', line: ['h8', 'i8', 'j8', 'k8', 'l8'] } },
};

async function open(opts = {}) {
  const app = await openApp(browser, server, opts);
  app.done = async () => {
    assert.deepEqual(app.errors, [], 'no page errors or CSP violations');
    await app.context.close();
  };
  return app;
}

async function tapAt(page, col, row, dx = 0, dy = 0) {
  const p = await pointPixel(page, col, row);
  await page.touchscreen.tap(p.x + dx * p.pitch, p.y + dy * p.pitch);
}

const waitCalls = (page, cmd, n) => page.waitForFunction(([c, k]) => window.__fake.count(c) >= k, [cmd, n]);
// The n-th play call was made and its reply is on screen. A move made while the previous one is
// still in flight is refused (the UI is busy), so a test must wait for this before the next
// move; Undo comes back only with the reply (local games: every move can be undone).
async function waitPlayed(page, n) {
  await waitCalls(page, 'play', n);
  await page.waitForSelector('#undo:not([disabled])');
}
const statusText = (page) => page.textContent('#status');
const placed = (page) => page.locator('#board [data-stone="black"], #board [data-stone="white"]').count();

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
    await page.waitForTimeout(100);
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
    await page.waitForTimeout(150);
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
    await page.waitForTimeout(150);
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
    await page.waitForTimeout(100);
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
    await page.waitForTimeout(80);
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

  test('analysis: off by default against the computer, paused while it thinks, stopped in the background', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'computer', confirmMove: 'off' }, computerLatency: 400 } });
    await page.waitForTimeout(80);
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
    await page.waitForTimeout(100);
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

describe('desktop (1280×800, mouse and keyboard)', () => {
  test('review: arrow keys, Home and End step through the game', async () => {
    const { page, done } = await open({ device: DESKTOP, fake: FINISHED });
    await page.waitForSelector('#gameover-sheet[open]');
    await page.click('#review-open');
    await page.waitForSelector('#review-progress[data-done]');
    await page.click('#status');
    await page.keyboard.press('Home');
    assert.equal(await placed(page), 0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await placed(page), 2);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await placed(page), 1);
    await page.keyboard.press('End');
    assert.equal(await placed(page), 9);
    await done();
  });

  test('keyboard: arrows move one focus cursor, Enter places', async () => {
    const { page, done } = await open({ device: DESKTOP, fake: { settings: { ...LOCAL.settings, sound: true } } });
    // Count the stone clicks the sound module synthesises.
    await page.evaluate(() => {
      window.__clicks = 0;
      const make = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (...args) {
        window.__clicks++;
        return make.apply(this, args);
      };
    });
    // The board is one tab stop (after the help button in the header).
    for (let i = 0; i < 4 && !(await page.evaluate(() => document.activeElement.matches('[role="gridcell"]'))); i++) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await page.evaluate(() => document.activeElement.dataset.point), 'h8');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'hint', 'one Tab leaves the board (Undo and Redo are disabled)');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.point), 'h8');
    assert.equal(await page.locator('#board [tabindex="0"]').count(), 1);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.point), 'j9');
    assert.equal(await page.getAttribute('[data-point="j9"]', 'data-ghost'), 'black');
    await page.keyboard.press('Enter');
    await waitPlayed(page, 1);
    assert.equal((await calls(page, 'play'))[0].args.point, 'j9');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press(' ');
    await waitCalls(page, 'play', 2);
    assert.equal((await calls(page, 'play'))[1].args.point, 'i9');
    assert.equal(await page.locator('#board [tabindex="0"]').count(), 1);
    await page.waitForFunction(() => window.__clicks >= 2);
    assert.equal((await calls(page, 'haptic_tick')).length, 2, 'a haptic tick per stone');
    await done();
  });

  test('Ctrl+Z undoes and Ctrl+Y redoes', async () => {
    const { page, done } = await open({ device: DESKTOP, fake: LOCAL });
    const p = await pointPixel(page, 7, 7);
    await page.mouse.click(p.x, p.y);
    await waitCalls(page, 'play', 1);
    await page.waitForFunction(() => !document.querySelector('#undo').disabled);
    await page.keyboard.press('Control+z');
    await waitCalls(page, 'undo', 1);
    await page.waitForFunction(() => document.querySelector('[data-point="h8"]').dataset.stone === '');
    await page.keyboard.press('Control+y');
    await waitCalls(page, 'redo', 1);
    await page.waitForSelector('[data-point="h8"][data-stone="black"]');
    await page.keyboard.press('Meta+z');
    await waitCalls(page, 'undo', 2);
    await done();
  });

  test('a mouse click places at once (confirm "auto" is off for a fine pointer)', async () => {
    const { page, done } = await open({ device: DESKTOP, fake: { settings: { mode: 'local', confirmMove: 'auto' } } });
    const p = await pointPixel(page, 3, 11);
    await page.mouse.click(p.x + p.pitch * 0.2, p.y - p.pitch * 0.2);
    await waitCalls(page, 'play', 1);
    assert.equal((await calls(page, 'play'))[0].args.point, 'd4');
    await done();
  });

  test('settings: every change is saved; game options wait for a new game', async () => {
    const { page, done } = await open({ device: DESKTOP, fake: { moves: ['h8', 'i9'], settings: { mode: 'computer', confirmMove: 'off' } } });
    await page.click('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.click('#settings-sheet input[name="level"][value="5"]');
    await waitCalls(page, 'set_settings', 1);
    assert.equal((await calls(page, 'set_settings'))[0].args.settings.level, 5);
    assert.equal(await page.isVisible('#applies-next'), true);
    await page.click('#settings-sheet input[name="moveNumbers"]');
    await waitCalls(page, 'set_settings', 2);
    await page.waitForSelector('#board[data-numbers] [data-point="h8"][data-num="1"]');
    await page.click('#settings-sheet input[name="theme"][value="dark"]');
    await page.waitForSelector('html[data-theme="dark"]');
    await page.click('#apply-new-game');
    await waitCalls(page, 'new_game', 1);
    assert.equal((await calls(page, 'new_game'))[0].args.options.level, 5);
    await done();
  });

  test('a hovering mouse previews the stone; leaving the board clears it', async () => {
    const { page, done } = await open({ device: DESKTOP, fake: LOCAL });
    const p = await pointPixel(page, 4, 10);
    await page.mouse.move(p.x + p.pitch * 0.1, p.y + p.pitch * 0.1);
    await page.waitForSelector('[data-point="e5"][data-ghost="black"]');
    await page.mouse.move(p.x + p.pitch * 0.5, p.y + p.pitch * 0.5); // dead zone
    await page.waitForFunction(() => !document.querySelector('[data-ghost]'));
    await page.mouse.move(p.x, p.y);
    await page.waitForSelector('[data-point="e5"][data-ghost]');
    await page.mouse.move(5, 5);
    await page.waitForFunction(() => !document.querySelector('[data-ghost]'));
    assert.equal((await calls(page, 'play')).length, 0);
    await done();
  });

  test('statistics and game records in the settings sheet', async () => {
    const stats = { levels: [{ level: 1, wins: 0, losses: 0, draws: 0, analysed: 0 }, { level: 5, wins: 1, losses: 4, draws: 2, analysed: 3 }] };
    const { page, done } = await open({ device: DESKTOP, fake: { moves: ['h8', 'i9', 'j10'], stats, settings: { mode: 'local' } } });
    await page.click('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    const rows = await page.$$eval('#stats tbody tr', (trs) => trs.map((tr) => tr.textContent.trim().replace(/\s+/g, ' ')));
    assert.deepEqual(rows, ['Master1423'], 'only levels with finished games are listed, with the analysed ones');
    await page.click('#copy-moves');
    await waitCalls(page, 'export_record', 1);
    assert.deepEqual((await calls(page, 'export_record'))[0].args, { format: 'moves' });
    await page.waitForFunction(() => document.querySelector('#record-text').value === 'h8 i9 j10');
    await page.fill('#record-text', 'a1 b2 c3 d4');
    await page.click('#import-record');
    await waitCalls(page, 'import_record', 1);
    assert.deepEqual((await calls(page, 'import_record'))[0].args, { text: 'a1 b2 c3 d4' });
    await page.waitForFunction(() => !document.querySelector('#settings-sheet').open);
    await page.waitForSelector('[data-point="d4"][data-stone="white"]');
    assert.equal(await stoneAt(page, 'h8'), '');
    await done();
  });

  test('reduced motion: stones appear without animation', async () => {
    const { page, done } = await open({ device: DESKTOP, reducedMotion: 'reduce', fake: { moves: ['h8'], settings: { mode: 'local' } } });
    const name = await page.$eval('[data-point="h8"]', (el) => getComputedStyle(el, '::before').animationName);
    assert.equal(name, 'none');
    await done();
    const moving = await open({ device: DESKTOP, fake: { moves: ['h8'], settings: { mode: 'local' } } });
    assert.equal(await moving.page.$eval('[data-point="h8"]', (el) => getComputedStyle(el, '::before').animationName), 'drop');
    await moving.done();
  });

  test('start-up: navigation to the first board (reported, not asserted)', async (t) => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const { page, done } = await open({ device: DESKTOP, fake: LOCAL });
      times.push(await page.evaluate(() => performance.getEntriesByName('wuzi-ready')[0].startTime));
      await done();
    }
    times.sort((a, b) => a - b);
    t.diagnostic(`navigation → first board: median ${times[2].toFixed(1)} ms of 5 (${times.map((x) => x.toFixed(0)).join(', ')})`);
  });

  test('Chinese follows the system language', async () => {
    const context = await browser.newContext({ ...DESKTOP, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__FAKE_CONFIG__ = { settings: { mode: 'computer', language: 'system' } };
    });
    await page.addInitScript({ path: join(import.meta.dirname, 'fake-tauri.js') });
    await page.goto(server.url);
    await page.waitForSelector('html[data-ready="true"]');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.equal(await page.textContent('#status'), '轮到你了');
    assert.equal(await page.textContent('#undo span'), '悔棋');
    await context.close();
  });
});

describe('screenshots', () => {
  const moves = ['h8', 'i9', 'g7', 'i7', 'i8', 'g9', 'j8', 'f8', 'g8', 'k8', 'h9', 'h7', 'j10', 'j9'];
  const forbidden = [{ point: 'f10', reason: 'double-three' }, { point: 'k7', reason: 'double-four' }];
  test('phone landscape, Chinese, move numbers', async () => {
    const { page, done } = await open({
      device: { ...PHONE, deviceScaleFactor: 2, viewport: { width: 844, height: 390 } },
      reducedMotion: 'reduce',
      fake: { moves, settings: { language: 'zh-CN', moveNumbers: true, level: 5, confirmMove: 'off' }, view: { level: 5 } },
    });
    assert.equal(await page.textContent('#status'), '轮到你了');
    assert.equal(await page.getAttribute('[data-point="j9"]', 'data-num'), '14');
    await page.screenshot({ path: join(ARTIFACTS, 'phone-landscape-zh.png') });
    await done();
  });

  test('analysis and review fit small phones upright and on their side: every control reachable', async () => {
    for (const viewport of [{ width: 844, height: 390 }, { width: 360, height: 640 }, { width: 390, height: 844 }]) {
      const { page, done } = await open({ device: { ...PHONE, deviceScaleFactor: 1, viewport }, reducedMotion: 'reduce', fake: FINISHED });
      await page.waitForSelector('#gameover-sheet[open]');
      await page.tap('#review-open');
      await page.waitForSelector('#review-progress[data-done]');
      await page.tap('#analysis');
      await page.tap('#review-prev');
      await page.waitForSelector('#eval[data-score]');
      const ids = ['undo', 'redo', 'hint', 'analysis', 'new-game', 'settings', 'review-first', 'review-prev', 'review-slider', 'review-next', 'review-last', 'review-close', 'review-graph', 'eval', 'status', 'board'];
      const boxes = await page.evaluate((list) => list.map((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return { id, left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
      }), ids);
      for (const b of boxes) {
        const where = `${viewport.width}×${viewport.height} #${b.id} ${JSON.stringify(b)}`;
        assert.ok(b.top >= 0 && b.left >= 0 && b.bottom <= viewport.height + 0.5 && b.right <= viewport.width + 0.5, `on screen: ${where}`);
        assert.ok(b.width >= (b.id === 'review-slider' ? 40 : 24), `usable: ${where}`);
      }
      // The board keeps clear of the panel and the panel of the tools.
      const box = Object.fromEntries(boxes.map((b) => [b.id, b]));
      if (viewport.width < viewport.height) {
        assert.ok(box.board.bottom <= box.eval.top && box['review-graph'].bottom <= box.undo.top, `stacked at ${viewport.width}×${viewport.height}`);
        assert.ok(box.status.bottom <= box.board.top);
      }
      await page.screenshot({ path: join(ARTIFACTS, `review-${viewport.width}x${viewport.height}.png`) });
      await done();
    }
  });

  // Phone shots at 2× keep the files small enough to commit one to docs/.
  for (const [name, device] of [['phone', { ...PHONE, deviceScaleFactor: 2 }], ['desktop', DESKTOP]]) {
    for (const colorScheme of ['light', 'dark']) {
      test(`${name} ${colorScheme}`, async () => {
        const { page, done } = await open({
          device,
          colorScheme,
          reducedMotion: 'reduce',
          fake: { moves, settings: { rule: 'renju', level: 4, confirmMove: 'off' }, view: { rule: 'renju', level: 4, forbidden } },
        });
        await page.waitForTimeout(100);
        await page.screenshot({ path: join(ARTIFACTS, `${name}-${colorScheme}.png`) });
        if (name === 'phone' && colorScheme === 'dark') {
          await page.click('#settings');
          await page.click('#settings-sheet input[name="confirmMove"][value="on"]');
          await page.click('#settings-sheet [data-close]');
          await tapAt(page, 10, 4); // k11, waiting for confirmation
          await page.waitForSelector('#place:not([hidden])');
          await page.screenshot({ path: join(ARTIFACTS, 'phone-confirm-dark.png') });
        }
        if (colorScheme === 'light') {
          await page.click('#settings');
          await page.waitForSelector('#settings-sheet[open]');
          await page.screenshot({ path: join(ARTIFACTS, `${name}-settings.png`) });
          await page.click('#settings-sheet [data-close]');
          await page.click('#help');
          await page.waitForSelector('#help-sheet[open]');
          assert.match(await page.textContent('#help-body'), /double-three/);
          await page.screenshot({ path: join(ARTIFACTS, `${name}-help.png`) });
        }
        await done();
      });
    }
  }
});

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
  const load = async (page, text) => {
    await page.fill('#record-text', text);
    await page.click('#import-record');
  };

  test('a finished record of another rule stays on screen, its rule the game’s', async () => {
    const { page, done } = await open({ device: WINDOW, fake: COMPUTER });
    await openSettings(page);
    await page.evaluate(() =>
      window.__fake.next.push({ rule: 'standard', result: { winner: 'black', reason: 'five', line: ['h8', 'i8', 'j8', 'k8', 'l8'] } }),
    );
    await load(page, 'h8 a15 i8 c15 j8 e15 k8 g15 l8');
    await page.waitForSelector('#gameover-sheet[open]');
    assert.equal((await calls(page, 'new_game')).length, 0, 'the loaded game is not thrown away');
    assert.equal(await placed(page), 9);
    assert.match(await page.textContent('#meta'), /^Standard/);
    await done();
  });

  test('a review started from the sheet keeps its game, options changed or not', async () => {
    const { page, done } = await open({ device: WINDOW, fake: { ...FINISHED, settings: { mode: 'local', confirmMove: 'off' } } });
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
    const { page, done } = await open({ device: WINDOW, fake: COMPUTER });
    await openSettings(page);
    await page.click('#settings-sheet input[name="rule"][value="standard"]');
    await waitCalls(page, 'set_settings', 1);
    await page.click('#settings-sheet [data-close]');
    await waitCalls(page, 'new_game', 1);
    assert.equal((await calls(page, 'new_game'))[0].args.options.rule, 'standard');
    await done();
  });

  test('errors show inside the sheet until dismissed or replaced, in the UI’s own words', async () => {
    const { page, done } = await open({
      device: WINDOW,
      fake: { ...COMPUTER, failures: [{ cmd: 'import_record', code: 'badRecord', message: 'not a readable game record: raw engine words' }] },
    });
    await openSettings(page);
    await load(page, 'hello world ((');
    await page.waitForSelector('#record-message:not([hidden])');
    assert.deepEqual(await message(page), { text: 'That record could not be read', kind: 'error' });
    assert.equal(await page.getAttribute('#record-message', 'role'), 'alert');
    assert.equal(await page.evaluate(() => document.querySelector('#settings-sheet').open), true, 'the sheet stays open');
    assert.doesNotMatch(await page.textContent('body'), /raw engine words/);
    // Longer than a notice in the status line lasts (2.6 s): it is still there.
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
    const { page, done } = await open({
      device: WINDOW,
      fake: { settings: { ...COMPUTER.settings, language: 'zh-CN' }, setup: { black: ['h8'], white: [], toMove: 'white' }, failures: [{ cmd: 'import_record', code: 'internal', message: 'panic at src/x.rs' }] },
    });
    await openSettings(page);
    await page.click('#copy-moves'); // a set-up position needs SGF
    await page.waitForSelector('#record-message:not([hidden])');
    assert.equal((await message(page)).text, '着法列表无法保存摆好的棋子，请复制 SGF');
    await load(page, 'h8 i9');
    await page.waitForFunction(() => document.querySelector('#record-message .sheet-message-text').textContent === '出错了');
    assert.doesNotMatch(await page.textContent('body'), /panic/);
    await done();
  });

  test('an unfinished loaded game can be reviewed against the computer', async () => {
    const { page, done } = await open({ device: WINDOW, fake: COMPUTER });
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
    const { page, done } = await open({ device: WINDOW, reducedMotion: 'reduce', fake: { ...COMPUTER, moves: ['h8', 'i9'] } });
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
      const { page, done } = await open({ device: { ...WINDOW, viewport }, reducedMotion: 'reduce', fake: { ...LOCAL, moves: ['h8', 'i9'] } });
      const top = () => page.evaluate(() => document.querySelector('#board').getBoundingClientRect().top);
      const before = await top();
      await page.click('#analysis');
      await page.waitForSelector('#eval[data-score]');
      assert.equal(await top(), before, `board top at ${viewport.width}×${viewport.height}`);
      await done();
    }
  });
});

describe('Swap and Swap2 openings (phone 390×844)', () => {
  const SWAP2_LOCAL = { settings: { mode: 'local', confirmMove: 'off', openingRule: 'swap2' } };
  const shown = (page, sel) => page.isVisible(sel);
  const boardBox = (page) => page.locator('#board').boundingBox();

  async function fingerSized(page, sel) {
    const box = await page.locator(sel).boundingBox();
    assert.ok(box && box.height >= 44 && box.width >= 80, `${sel} is finger-sized: ${JSON.stringify(box)}`);
  }

  test('two players: stones by taps, choices by buttons, the status says who does what', async () => {
    const { page, done } = await open({ fake: SWAP2_LOCAL });
    await page.waitForSelector('#swap-row', { state: 'visible' });
    assert.equal(await statusText(page), 'Opener: place stone 1 of 3');
    assert.match(await page.textContent('#meta'), /Swap2/, 'the rule in use is named');
    assert.match(await page.textContent('#swap-info'), /Swap2 · opener: black, white, black/);
    const before = await boardBox(page);
    await tapAt(page, 7, 7); // h8
    await waitPlayed(page, 1);
    assert.equal(await statusText(page), 'Opener: place stone 2 of 3');
    await tapAt(page, 7, 6); // h9
    await waitPlayed(page, 2);
    await tapAt(page, 8, 6); // i9
    await waitCalls(page, 'play', 3);
    await page.waitForSelector('#swap-two', { state: 'visible' });
    assert.equal(await statusText(page), 'Chooser — take black, keep white and play the 4th stone, or place two more');
    for (const sel of ['#swap-black', '#swap-white', '#swap-two']) await fingerSized(page, sel);
    assert.equal(await page.getAttribute('#swap-white', 'aria-label'), 'Keep white and play the 4th stone');
    assert.deepEqual(await boardBox(page), before, 'the board stays put when the choice comes');
    assert.equal(await page.isDisabled('#hint'), true, 'no hint while a choice is due');
    // A tap on the board while the choice is due places nothing.
    await tapAt(page, 9, 5);
    await page.waitForTimeout(100);
    assert.equal((await calls(page, 'play')).length, 3);

    await page.tap('#swap-two');
    await waitCalls(page, 'choose_opening', 1);
    assert.equal((await calls(page, 'choose_opening'))[0].args.choice, 'placeTwo');
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Chooser: place stone 1 of 2');
    assert.equal(await shown(page, '#swap-two'), false);
    await tapAt(page, 6, 8); // g7
    await waitCalls(page, 'play', 4);
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'Chooser: place stone 2 of 2');
    await tapAt(page, 9, 5); // j10
    await waitCalls(page, 'play', 5);
    await page.waitForSelector('#swap-white', { state: 'visible' });
    assert.equal(await statusText(page), 'Opener — take black, or take white and play the 6th stone');
    assert.equal(await shown(page, '#swap-two'), false, 'placing two is offered once');
    assert.equal(await page.textContent('#swap-white'), 'Take white');
    await page.screenshot({ path: join(ARTIFACTS, 'swap2-local-390x844.png') });

    await page.tap('#swap-white');
    await waitCalls(page, 'choose_opening', 2);
    await page.waitForSelector('#swap-row', { state: 'hidden' });
    assert.equal(await statusText(page), 'White to move');
    assert.equal(await page.isVisible('#panel'), false, 'the bar goes with the phase');
    assert.deepEqual(
      (await calls(page, 'play')).map((c) => c.args.point),
      ['h8', 'h9', 'i9', 'g7', 'j10'],
    );
    await done();
  });

  test('against the computer: it proposes three stones, the player takes white and plays on', async () => {
    const { page, done } = await open({ fake: { settings: { mode: 'computer', humanColor: 'white', confirmMove: 'off', openingRule: 'swap2' } } });
    await waitCalls(page, 'computer_move', 1);
    await page.waitForSelector('#swap-black', { state: 'visible' });
    for (const p of ['h8', 'h9', 'i9']) assert.ok(await stoneAt(page, p));
    assert.equal(await statusText(page), 'Choose: take black, keep white and play the 4th stone, or place two more');
    assert.equal(await page.getAttribute('#status', 'data-long'), '', 'a long status takes two lines');
    const status = await page.locator('#status').boundingBox();
    assert.ok(status.height >= 30, `two lines: ${JSON.stringify(status)}`);
    await page.tap('#swap-white');
    await waitCalls(page, 'choose_opening', 1);
    await page.waitForSelector('#swap-row', { state: 'hidden' });
    assert.equal(await statusText(page), 'Your move');
    assert.equal(await page.isDisabled('#hint'), false);
    await tapAt(page, 9, 5); // j10, white's stone 4
    await waitCalls(page, 'play', 1);
    await waitCalls(page, 'computer_move', 2);
    assert.equal(await stoneAt(page, 'j10'), 'white');
    await done();
  });

  test('against the computer as opener: the computer’s choice is told, and the rule is a setting', async () => {
    const fake = {
      settings: { mode: 'computer', humanColor: 'black', confirmMove: 'off', openingRule: 'swap' },
      swapComputer: [{ choice: 'white', stones: ['j10'] }],
    };
    const { page, done } = await open({ fake });
    assert.equal(await statusText(page), 'Place stone 1 of 3');
    assert.match(await page.textContent('#swap-info'), /Swap · you open/);
    for (const [n, [c, r]] of [[7, 7], [7, 6], [8, 6]].entries()) {
      await tapAt(page, c, r);
      await waitCalls(page, 'play', n + 1);
    }
    await waitCalls(page, 'computer_move', 1);
    await page.waitForSelector('#toast:not([hidden])');
    assert.equal(await page.textContent('#toast'), 'The computer takes white: you play black');
    await page.waitForSelector('#board [data-point="j10"][data-stone="white"]');
    assert.equal(await statusText(page), 'Your move');
    await page.tap('#help');
    await page.waitForSelector('#help-sheet[open]');
    assert.match(await page.textContent('#help-body'), /Swap opening: the opener places three stones/);
    await page.tap('#help-sheet [data-close]');
    await page.waitForFunction(() => !document.querySelector('#help-sheet').open);

    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    assert.equal(await page.isChecked('#settings-sheet input[name="openingRule"][value="swap"]'), true);
    assert.equal(await page.isVisible('#applies-next'), false, 'playing black after opening is what was set');
    await page.tap('#settings-sheet input[name="openingRule"][value="swap2"]');
    await page.waitForFunction(() => window.__fake.calls.some((c) => c.cmd === 'set_settings' && c.args.settings.openingRule === 'swap2'));
    await page.waitForSelector('#applies-next', { state: 'visible' });
    await page.tap('#settings-sheet input[name="rule"][value="renju"]');
    await page.waitForSelector('#field-opening-rule', { state: 'hidden' });
    await done();
  });

  test('Chinese: the choices and the status are translated', async () => {
    const fake = { settings: { mode: 'computer', humanColor: 'white', confirmMove: 'off', openingRule: 'swap2', language: 'zh-CN' } };
    const { page, done } = await open({ fake });
    await page.waitForSelector('#swap-black', { state: 'visible' });
    assert.equal(await page.textContent('#swap-black'), '执黑');
    assert.equal(await page.textContent('#swap-two'), '再摆两子');
    assert.equal(await statusText(page), '请选择：执黑，执白并下第 4 子，或再摆两子');
    await done();
  });
});

// Game clock (issue 10 §4): the shell's time drawn and counted on, paused under sheets, the
// limit chosen in the settings, and a flag that falls without a tap.
describe('clock (phone 390×844)', () => {
  const clockText = (page, color) => page.textContent(`#clock-${color} .clock-time`);

  test('shown under the status line, ticking for the side to move, paused while a sheet is open', async () => {
    const { page, done } = await open({
      fake: { ...LOCAL, moves: ['h8', 'i9'], clock: { blackMs: 61_000, whiteMs: 5_000, totalMs: 66_000 } },
    });
    await page.waitForSelector('#clock[data-running]');
    assert.equal(await clockText(page, 'white'), '0:05');
    assert.match(await clockText(page, 'black'), /^1:0[12]$/);
    assert.equal(await page.getAttribute('#clock-black', 'data-active'), '');
    assert.equal(await page.getAttribute('#clock-white', 'data-active'), null);
    assert.match(await page.textContent('#clock-total'), /^Game 1:0[67]$/);
    // It counts on between replies, for black only.
    await page.waitForFunction(() => document.querySelector('#clock-black .clock-time').textContent === '1:03', null, { timeout: 4000 });
    assert.equal(await clockText(page, 'white'), '0:05');
    // Inside the status bar, on the meta line: the board does not move for it.
    const box = await page.evaluate(() => {
      const r = (id) => document.getElementById(id).getBoundingClientRect();
      return { clock: r('clock'), bar: document.querySelector('.statusbar').getBoundingClientRect(), meta: r('meta') };
    });
    assert.ok(box.clock.right <= 390 && box.clock.bottom <= box.bar.bottom + 0.5, JSON.stringify(box));
    assert.ok(Math.abs(box.clock.top - box.meta.top) < 4, JSON.stringify(box));
    // A sheet pauses it; closing it lets it run.
    await page.tap('#settings');
    await page.waitForSelector('#settings-sheet[open]');
    await page.waitForSelector('#clock:not([data-running])');
    assert.deepEqual((await calls(page, 'set_clock_paused')).map((c) => c.args.paused), [true]);
    await page.tap('#settings-sheet [data-close]');
    await page.waitForSelector('#clock[data-running]');
    assert.deepEqual((await calls(page, 'set_clock_paused')).map((c) => c.args.paused), [true, false]);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-clock.png') });
    await done();
  });

  test('on a narrow bar the total gives way, so the meta line keeps the level', async () => {
    const { page, done } = await open({
      fake: {
        settings: { mode: 'computer', level: 5, confirmMove: 'off' },
        moves: ['h8', 'i9'],
        clock: { blackMs: 61_000, whiteMs: 65_000, totalMs: 126_000, blackLeftMs: 239_000, whiteLeftMs: 235_000, limit: { baseMs: 300_000, incrementMs: 0 } },
      },
    });
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
    const { page, done } = await open({ fake: { ...LOCAL, moves: ['h8'], clock: {} } });
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
    await done();
  });

  test('a flag falls without a tap: the UI asks the shell, and the game is lost on time', async () => {
    const { page, done } = await open({
      fake: {
        ...LOCAL,
        moves: ['h8', 'i9'],
        clock: { blackMs: 298_800, whiteMs: 100_000, totalMs: 398_800, blackLeftMs: 1_200, whiteLeftMs: 200_000, limit: { baseMs: 300_000, incrementMs: 0 } },
        flag: {
          result: { winner: 'white', reason: 'time', line: [] },
          canUndo: false,
          canRedo: false,
          clock: { running: false, blackMs: 300_000, blackLeftMs: 0, totalMs: 400_000, flag: 'black' },
        },
      },
    });
    // With a limit the clock shows the time left, tenths in the last ten seconds.
    assert.match(await clockText(page, 'black'), /^0:0[01]\.\d$/);
    assert.equal(await clockText(page, 'white'), '3:20');
    assert.equal(await page.getAttribute('#clock-black', 'data-low'), '');
    await page.waitForSelector('#gameover-sheet[open]', { timeout: 5000 });
    assert.ok((await calls(page, 'check_clock')).length >= 1);
    assert.equal(await page.textContent('#gameover-title'), 'White wins');
    assert.equal(await page.textContent('#gameover-reason'), 'Black ran out of time');
    assert.equal(await page.textContent('#gameover-clock'), 'Black 5:00 · White 1:40 · Game 6:40');
    assert.equal(await statusText(page), 'White wins — on time');
    assert.equal(await page.getAttribute('#clock-black', 'data-flag'), '');
    assert.equal(await clockText(page, 'black'), '0:00.0');
    await page.screenshot({ path: join(ARTIFACTS, 'phone-flag.png') });
    await done();
  });

  test('review shows the time of each move and the sides’ time up to it', async () => {
    const { page, done } = await open({ fake: { ...FINISHED, clock: { running: false }, clockMoveMs: 12_300 } });
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
    const { page, done } = await open({ fake: { ...LOCAL, moves: ['h8', 'i9'] } });
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
    assert.equal(await page.textContent('#meta'), 'Setting up · Freestyle · 15×15 · 0 black, 2 white');

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
      fake: {
        settings: { mode: 'computer', confirmMove: 'off', level: 2 },
        failures: [{ cmd: 'check_setup', code: 'badSetup', message: 'the position is already won', reason: 'five', color: 'black', points: five }],
      },
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
    // White (the computer) is to move from the set-up position: it answers at once.
    await waitCalls(page, 'computer_move', 1);
    await page.waitForSelector('[data-point="i9"][data-stone="white"]');
    assert.deepEqual(await stonesOnBoard(page), { d8: 'black', e8: 'black', f8: 'black', g8: 'black', h8: 'white', i9: 'white' });
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
      fake: {
        settings: { mode: 'local', confirmMove: 'off', openingRule: 'swap2', clockMinutes: 5, clockIncrement: 2 },
        clock: { limit: { baseMs: 300_000, incrementMs: 2_000 }, blackLeftMs: 300_000, whiteLeftMs: 300_000 },
      },
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
    const { page, done } = await open({ fake: { settings: { mode: 'local', confirmMove: 'off', openingRule: 'swap' } } });
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
    const { page, done } = await open({ fake: { settings: { mode: 'computer', confirmMove: 'off' }, moves: ['h8', 'a1'] } });
    await openEditor(page);
    await page.selectOption('#edit-size', '13');
    await page.waitForSelector('#board[data-size="13"]');
    assert.deepEqual(await stonesOnBoard(page), { g7: 'black' }, 'h8 stays the centre; a1 falls off');
    assert.match(await statusText(page), /Stones off the smaller board were removed: 1/);
    await page.selectOption('#edit-rule', 'renju');
    assert.equal(await page.textContent('#meta'), 'Setting up · Renju · 13×13 · 1 black, 0 white');
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
    const { page, done } = await open({ fake: LOCAL });
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
      const { page, done } = await open({ device: { ...PHONE, deviceScaleFactor: viewport.width === 390 ? 2 : 1, viewport }, reducedMotion: 'reduce', fake: { ...LOCAL, moves: ['h8', 'i9', 'j10', 'i8'] } });
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
