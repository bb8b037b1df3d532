// What the page tells the player besides the board: a notice in the status line (flash), a
// toast, the live region for screen readers, an error in the UI's own words, and the stone's
// click and vibration. The timers are the controller state's (`state.timers`).

import * as api from './api.js';
import * as ctl from './controller.js';
import * as sound from './sound.js';
import { showInOpenSheet } from './sheet-message.js';

const $ = (id) => document.getElementById(id);

/** How long a notice stays in the status line (and the New game / back button second-tap window). */
export const FLASH_MS = 2600;

export function createMessages(app) {
  const { state } = app;

  function flash(text) {
    state.flash = text;
    clearTimeout(state.timers.flash);
    state.timers.flash = setTimeout(() => {
      state.flash = '';
      app.game.render();
    }, FLASH_MS);
    app.game.render();
  }

  /** Drops a notice still in the status line (one about the editor means nothing outside it). */
  function clearFlash() {
    clearTimeout(state.timers.flash);
    state.flash = '';
  }

  function toast(text) {
    const el = $('toast');
    el.textContent = text;
    el.hidden = false;
    clearTimeout(state.timers.toast);
    state.timers.toast = setTimeout(() => {
      el.hidden = true;
    }, FLASH_MS + 800);
  }

  function announce(text) {
    $('announce').textContent = text;
  }

  function showError(err) {
    if (err.code === 'cancelled') return;
    // A flag that fell meanwhile (or any change of the position): show the game as it is.
    if (err.code === 'stale' || err.code === 'gameOver') {
      app.game.refresh();
      return;
    }
    console.warn('wuzi:', err.code, err.message);
    // Inside a sheet the status line is hidden: the sheet says it, until dismissed.
    const text = ctl.errorText(err);
    if (!showInOpenSheet(text)) flash(text);
  }

  function feedback(color) {
    if (state.settings?.sound ?? true) sound.click(color);
    if (state.settings?.vibration ?? true) api.hapticTick().catch(() => {});
  }

  return { flash, clearFlash, toast, announce, showError, feedback };
}
