// Swap / Swap2 opening (issue 10 §3): the bar under the board while the phase lasts, the choice
// buttons in it. What the computer decided is told by game-ui.js when its view comes.

import * as api from './api.js';
import * as ctl from './controller.js';

const $ = (id) => document.getElementById(id);

export function createOpening(app) {
  const { state } = app;

  /** Draws the opening bar; says whether it is shown. */
  function render() {
    const bar = ctl.swapBar(state);
    const row = $('swap-row');
    if (row.hidden === !!bar) row.hidden = !bar;
    if (!bar) return false;
    const info = $('swap-info');
    if (info.textContent !== bar.info) info.textContent = bar.info;
    const shown = new Map(bar.choices.map((c) => [c.choice, c]));
    for (const button of row.querySelectorAll('.swap-btn')) {
      const c = shown.get(button.dataset.choice);
      button.hidden = !c;
      if (!c) continue;
      const span = button.querySelector('span');
      if (span.textContent !== c.text) span.textContent = c.text;
      button.setAttribute('aria-label', c.label);
      button.title = c.label;
      button.disabled = bar.disabled;
    }
    return true;
  }

  function choose(choice) {
    const v = state.view;
    if (!v || !ctl.openingChoiceDue(state) || state.busy || state.thinking) return;
    app.game.run(() => api.chooseOpening(choice, v.gameId, v.moveNumber));
  }

  function bind() {
    for (const button of document.querySelectorAll('#swap-row .swap-btn')) {
      button.addEventListener('click', () => choose(button.dataset.choice));
    }
  }

  return { render, bind };
}
