// Swap and Swap2 openings (phone 390×844).
// The real UI in headless Chromium (Debian's chromium through playwright-core); the Tauri IPC
// is replaced, here only, by the recorder in fake-tauri.js. Screenshots go to artifacts/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calls, stoneAt, ARTIFACTS } from './harness.mjs';
import { useBrowser, open, tapAt, waitCalls, waitPlayed, statusText, settled } from './browser-shared.mjs';

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
    const { page, done } = await open({ fake: { settings: { mode: 'computer', humanColor: 'white', confirmMove: 'off', openingRule: 'swap2' } } });
    await waitCalls(page, 'computer_move', 1);
    await page.waitForSelector('#swap-black', { state: 'visible' });
    for (const p of ['h8', 'h9', 'i9']) assert.ok(await stoneAt(page, p));
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
