// Swap and Swap2 openings (phone 390×844).
// The real UI on the real core: the browser version scripts/web.sh builds (the app core and the
// engine in wasm), in headless Chromium (Debian's chromium through playwright-core); a recorder
// only notes the commands the UI sends. Screenshots go to artifacts/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calls, stoneAt, ARTIFACTS } from './harness.mjs';
import { useBrowser, open, tapAt, waitCalls, waitPlayed, statusText, settled, placed, currentGame } from './browser-shared.mjs';

useBrowser();

describe('Swap and Swap2 openings (phone 390×844)', () => {
  const SWAP2_LOCAL = { settings: { mode: 'local', confirmMove: 'off', openingRule: 'swap2' } };
  const shown = (page, sel) => page.isVisible(sel);
  const boardBox = (page) => page.locator('#board').boundingBox();

  async function fingerSized(page, sel) {
    const box = await page.locator(sel).boundingBox();
    assert.ok(box && box.height >= 44 && box.width >= 80, `${sel} is finger-sized: ${JSON.stringify(box)}`);
  }

  test('two players: stones by taps, choices by buttons, the status says who does what', async () => {
    const { page, done } = await open({ state: SWAP2_LOCAL });
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
    await settled(page);
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
    const { page, done } = await open({ state: { settings: { mode: 'computer', humanColor: 'white', openingRule: 'swap2' } } });
    await waitCalls(page, 'computer_move', 1);
    await page.waitForSelector('#swap-black', { state: 'visible' });
    assert.equal(await placed(page), 3, 'the computer’s three stones');
    assert.equal(await statusText(page), 'Choose: take black, keep white and play the 4th stone, or place two more');
    assert.equal(await page.getAttribute('#status', 'data-long'), '', 'a long status takes two lines');
    const status = await page.evaluate(() => {
      const el = document.querySelector('#status');
      return { height: el.getBoundingClientRect().height, line: parseFloat(getComputedStyle(el).lineHeight), cut: el.scrollHeight > el.clientHeight };
    });
    assert.ok(status.height >= 2 * status.line && !status.cut, `two lines or more, none cut: ${JSON.stringify(status)}`);
    await page.tap('#swap-white');
    await waitCalls(page, 'choose_opening', 1);
    await page.waitForSelector('#swap-row', { state: 'hidden' });
    assert.equal(await statusText(page), 'Your move');
    assert.equal(await page.isDisabled('#hint'), false);
    // White's stone 4, on a free point next to the centre.
    const taken = (await currentGame(page)).moves;
    const point = ['j10', 'g6', 'f10', 'j6', 'e11'].find((p) => !taken.includes(p));
    await page.tap(`#board [data-point="${point}"]`);
    await waitCalls(page, 'play', 1);
    await waitCalls(page, 'computer_move', 2);
    assert.equal(await stoneAt(page, point), 'white');
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="black"]').length === 3);
    assert.equal(await statusText(page), 'Your move');
    await done();
  });

  test('against the computer as opener: the computer’s choice is told, and the rule is a setting', async () => {
    const { page, done } = await open({ state: { settings: { mode: 'computer', humanColor: 'black', openingRule: 'swap' } } });
    assert.equal(await statusText(page), 'Place stone 1 of 3');
    assert.match(await page.textContent('#swap-info'), /Swap · you open/);
    // Black's two stones thrown into the corners, white's in the centre: the computer takes
    // white, and plays its 4th stone.
    for (const [n, [c, r]] of [[0, 14], [7, 7], [14, 0]].entries()) {
      await tapAt(page, c, r);
      await waitCalls(page, 'play', n + 1);
      // The next stone only once this one's reply is on screen: a tap while a play is in
      // flight is refused (the UI is busy), and on a loaded machine the reply can be late.
      if (n < 2) await page.waitForSelector('body:not([data-busy])');
    }
    await waitCalls(page, 'computer_move', 1);
    await page.waitForSelector('#toast:not([hidden])');
    assert.equal(await page.textContent('#toast'), 'The computer takes white: you play black');
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="white"]').length === 2);
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
    await page.waitForFunction(() => window.__calls.some((c) => c.cmd === 'set_settings' && c.args.settings.openingRule === 'swap2'));
    await page.waitForSelector('#applies-next', { state: 'visible' });
    await page.tap('#settings-sheet input[name="rule"][value="renju"]');
    await page.waitForSelector('#field-opening-rule', { state: 'hidden' });
    await done();
  });

  test('Chinese: the choices and the status are translated', async () => {
    const { page, done } = await open({ state: { settings: { mode: 'computer', humanColor: 'white', openingRule: 'swap2', language: 'zh-CN' } } });
    await page.waitForSelector('#swap-black', { state: 'visible' });
    assert.equal(await page.textContent('#swap-black'), '执黑');
    assert.equal(await page.textContent('#swap-two'), '再摆两子');
    assert.equal(await statusText(page), '请选择：执黑，执白并下第 4 子，或再摆两子');
    await done();
  });
});
