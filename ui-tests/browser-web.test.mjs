// The browser version on the real core: the site scripts/web.sh built into target/web/ (the
// app core and the engine in wasm, in a Web Worker behind the same ui/api.js), served on
// 127.0.0.1 and opened in headless Chromium at phone size with touch, from a first visit on:
// a tap places a stone, the real engine answers, and a reload keeps both; a damaged save gives
// a fresh game and a notice; the site opens offline from its service worker.
// Run after `scripts/web.sh` (scripts/test.sh does: stage "web").
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, launch, pointPixel, stoneAt, PHONE } from './harness.mjs';

let site;
let browser;
before(async () => {
  site = await startSite();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

async function openSite(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(site.url);
  await page.waitForSelector('html[data-ready="true"]');
  await page.waitForSelector('#board [role="gridcell"]');
  return { page, errors };
}

const stones = (page) => page.locator('#board [data-stone="black"], #board [data-stone="white"]').count();

describe('the browser version on the real core (phone 390×844, touch)', () => {
  test('a tap at the centre places a stone, the engine answers, and a reload keeps both', async () => {
    const context = await browser.newContext({ ...PHONE, locale: 'en-US' });
    const { page, errors } = await openSite(context);
    assert.equal(await stones(page), 0, 'a first visit is an empty board');
    // A first start plays black against the computer; on a touch screen a tap would first ask
    // to confirm, so confirming is switched off (through the real core) for one tap to place.
    await page.evaluate(() => window.__TAURI__.core.invoke('set_settings', { settings: { confirmMove: 'off' } }));
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    const centre = await pointPixel(page, 7, 7);
    await page.touchscreen.tap(centre.x, centre.y);
    await page.waitForSelector('#board [data-point="h8"][data-stone="black"]');
    await page.waitForFunction(() => document.querySelectorAll('#board [data-stone="white"]').length === 1, null, { timeout: 20_000 });
    const reply = await page.getAttribute('#board [data-stone="white"]', 'data-point');
    assert.notEqual(reply, 'h8');
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    await page.waitForSelector('#board [data-point="h8"][data-stone="black"]');
    assert.equal(await stoneAt(page, reply), 'white', 'the reply survives the reload');
    assert.equal(await stones(page), 2);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a damaged save gives a fresh game and a notice, and keeps the damage aside', async () => {
    const context = await browser.newContext({ ...PHONE, locale: 'en-US' });
    await context.addInitScript(() => {
      if (!sessionStorage.getItem('damaged')) {
        sessionStorage.setItem('damaged', '1');
        localStorage.setItem('wuzi:game.json', '{"version":1,"gameId":');
      }
    });
    const { page, errors } = await openSite(context);
    // The notice comes as the toast of the first start.
    await page.waitForFunction(() => document.querySelector('#toast')?.textContent.includes('saved game was damaged'));
    assert.equal(await stones(page), 0);
    const kept = await page.evaluate(() => [localStorage.getItem('wuzi:game.json.corrupt'), localStorage.getItem('wuzi:game.json')]);
    assert.equal(kept[0], '{"version":1,"gameId":');
    assert.ok(JSON.parse(kept[1]).gameId >= 1, 'a fresh game replaced the damaged one');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('the site is installable and opens offline from its service worker', async () => {
    const context = await browser.newContext({ ...PHONE, locale: 'en-US' });
    const { page, errors } = await openSite(context);
    const manifest = await page.evaluate(async () => {
      const link = document.querySelector('link[rel="manifest"]');
      return (await fetch(link.href)).json();
    });
    assert.equal(manifest.display, 'standalone');
    assert.ok(manifest.icons.some((i) => i.sizes === '512x512'));
    // The worker installs the whole site, then takes the page over (skipWaiting, claim).
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    await page.waitForSelector('#board [role="gridcell"]');
    // The engine still answers offline: the core was cached with the page.
    const state = await page.evaluate(() => window.__TAURI__.core.invoke('get_state'));
    assert.equal(state.game.gameId, 1);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
