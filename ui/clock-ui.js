// Game clock (issue 10 §4): the shell keeps the time; the page draws GameView.clock and counts on
// for the side to move between replies. It tells the shell when the clock must pause (the app in
// the background, a sheet or the editor open), and asks it (`check_clock`) when the time it shows
// runs out, so a flag falls even if nobody taps. Its state is `state.clock`.

import * as api from './api.js';
import { t } from './i18n.js';
import * as ctl from './controller.js';
import * as clock from './clock.js';

const $ = (id) => document.getElementById(id);
const CLOCK_TICK_MS = 200;
const FLAG_ASK_MS = 1000;

export function createClock(app) {
  const { state } = app;
  const c = state.clock;

  /** Keeps the clock of a view from the shell, with when it came (performance.now()). */
  function take(view) {
    if (!view?.clock) return;
    // The side whose time runs: in a Swap / Swap2 opening phase, whoever acts, not the stone's colour.
    c.sync = { clock: view.clock, toMove: view.clock.side ?? view.toMove, gameId: view.gameId, moveNumber: view.moveNumber, at: performance.now() };
  }

  /** A reply that only brings the clock (pause, flag check): a fallen flag changes the game. */
  function onReply(view) {
    const v = state.view;
    if (!view || !v || view.gameId !== v.gameId) return;
    if (view.result && !v.result) {
      app.game.applyView(view);
      return;
    }
    if (view.moveNumber === v.moveNumber) {
      take(view);
      render();
    }
  }

  function live() {
    const v = state.view;
    const s = c.sync;
    if (!s || !v || s.gameId !== v.gameId || s.moveNumber !== v.moveNumber) return null;
    return clock.liveClock(s.clock, s.toMove, s.at, performance.now());
  }

  function render() {
    const el = $('clock');
    const v = state.view;
    const now = live();
    // The editor shows another position: the game's clock is hidden (and paused) meanwhile.
    const model = state.editor
      ? null
      : ctl.inReview(state) && v ? clock.reviewClockModel(v.clock, ctl.shownPly(state)) : clock.clockModel(now);
    el.hidden = !model;
    if (!model) return;
    el.toggleAttribute('data-running', !!now?.running && !ctl.inReview(state));
    el.toggleAttribute('data-limit', !!now?.left);
    const swapPhase = !!v?.swap && v.swap.stage !== 'done';
    el.toggleAttribute('data-swap-phase', swapPhase);
    for (const color of ['black', 'white']) {
      const side = $(`clock-${color}`);
      const m = model[color];
      const text = side.querySelector('.clock-time');
      if (text.textContent !== m.text) text.textContent = m.text;
      side.dataset.ms = String(Math.round(m.ms));
      side.toggleAttribute('data-active', m.active);
      side.toggleAttribute('data-low', m.low);
      side.toggleAttribute('data-flag', m.flag);
      // In a Swap / Swap2 opening phase the sides are the players' roles until the colours are decided.
      const who = swapPhase && !ctl.inReview(state) ? t(color === 'black' ? 'clockOpener' : 'clockChooser') : t(color);
      const label = m.flag ? t('clockFlag', { color: who }) : t(now?.left && !ctl.inReview(state) ? 'clockLeft' : 'clockSide', { color: who, time: m.text });
      if (side.getAttribute('aria-label') !== label) side.setAttribute('aria-label', label);
    }
    const total = $('clock-total');
    if (total.textContent !== model.total) total.textContent = model.total;
    fitMetaRow();
    if (flagDue(now)) askFlag();
  }

  /**
   * On a narrow status bar (a phone upright) the game's total time gives way, so the meta line
   * (rule, size, level) is not cut short; it comes back when there is room. The total is also in
   * the game-over sheet.
   */
  function fitMetaRow() {
    const el = $('clock');
    if (el.hidden) return;
    const meta = $('meta');
    el.removeAttribute('data-compact');
    if (meta.scrollWidth > meta.clientWidth) el.setAttribute('data-compact', '');
  }

  function flagDue(now) {
    return clock.flagDue(now) && !state.view?.result;
  }

  function askFlag() {
    const now = performance.now();
    if (now - c.flagAskedAt < FLAG_ASK_MS) return;
    c.flagAskedAt = now;
    api.checkClock().then(onReply, () => {});
  }

  /** Pauses the shell's clock while the page is hidden, a sheet or the editor is open, and lets it run after. */
  function syncPause() {
    // The dialogs themselves, not the sheet stack: it is updated only on the later `close` event.
    const paused = document.hidden || !!state.editor || [...document.querySelectorAll('dialog.sheet')].some((d) => d.open);
    if (paused === c.pausedSent) return;
    c.pausedSent = paused;
    api.setClockPaused(paused).then(onReply, () => {});
  }

  function fillGameOver(view) {
    const line = clock.clockSummary(view.clock);
    $('gameover-clock').textContent = line;
    $('gameover-clock').hidden = !line;
  }

  function bind() {
    // A turned phone or a resized window: fit again (a stopped clock does not tick).
    new ResizeObserver(fitMetaRow).observe($('meta').parentElement);
    setInterval(() => {
      const now = live();
      if (now?.running || flagDue(now)) render();
    }, CLOCK_TICK_MS);
    // Every sheet (settings, game over, help, and any added later) pauses the clock while open.
    const observer = new MutationObserver(syncPause);
    for (const dialog of document.querySelectorAll('dialog.sheet')) observer.observe(dialog, { attributes: true, attributeFilter: ['open'] });
  }

  return { take, render, fitMetaRow, syncPause, fillGameOver, bind };
}
