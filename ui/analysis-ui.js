// Analysis mode: the engine thinks about the position on screen. Each start gets its own channel
// and serial (`state.analysis.serial`); a round is shown only if it belongs to the latest start
// and to the position on screen (ctl.acceptAnalysis), so a late round for an old position is
// dropped here as well as in the shell.

import * as api from './api.js';
import * as ctl from './controller.js';

const $ = (id) => document.getElementById(id);

export function createAnalysis(app) {
  const { state } = app;
  const a = state.analysis;

  /** The position analysis should run on now, as a key; '' when it should not run. */
  function key() {
    const v = state.view;
    if (!a.on || !v || document.hidden || state.editor) return '';
    // A running review has the background engine; analysis follows once it is done.
    if (state.review.running) return '';
    const shown = ctl.shownView(state);
    if (shown.result) return '';
    // The computer's own search has the cores while it is to move; analysis resumes after.
    if (!ctl.inReview(state) && (v.computerToMove || state.thinking)) return '';
    return `${v.gameId}:${shown.moves.join(' ')}`;
  }

  /**
   * Starts the analysis of the position on screen if it is not the one being analysed (after a
   * move, undo, redo, new game, import, review step, or coming back from the background).
   */
  function sync() {
    const k = key();
    if (k === a.key) return;
    a.key = k;
    const serial = ++a.serial;
    a.update = null;
    a.generation = 0;
    // No IPC to pause: every change of the position already stopped the shell's job.
    if (!k) {
      app.game.renderPanel();
      return;
    }
    const v = state.view;
    const ply = ctl.shownPly(state);
    renderRound();
    api
      .startAnalysis(v.gameId, ply, (update) => {
        if (serial !== a.serial || !ctl.acceptAnalysis(state, update)) return;
        a.update = update;
        renderRound();
      })
      .then(
        (generation) => {
          if (serial !== a.serial) return;
          a.generation = generation;
          // A round that came before the answer belongs to it only if it carries the same number.
          if (a.update && a.update.generation !== generation) a.update = null;
          renderRound();
        },
        (err) => {
          if (serial !== a.serial) return;
          // The key stays: no retry until the position on screen changes (which restarts it),
          // so a failing shell is not asked again and again.
          if (err.code !== 'stale' && err.code !== 'gameOver') app.ui.showError(err);
        },
      );
  }

  /** Draws a new analysis round: the panel and the marks, nothing else changes. */
  function renderRound() {
    app.board.update(app.game.boardModel());
    app.game.renderPanel();
  }

  /** The evaluation row of the panel (`model` from ctl.evalModel). */
  function renderEval(model) {
    const meter = $('eval');
    const score = model.score === null ? null : String(model.score);
    if (score === null) meter.removeAttribute('data-score');
    else meter.dataset.score = score;
    // Which analysis and position the numbers are from (tests and measurements read these).
    const u = ctl.acceptAnalysis(state, a.update) ? a.update : null;
    if (u) {
      meter.dataset.generation = String(u.generation);
      meter.dataset.ply = String(u.moveNumber);
      meter.dataset.round = String(u.round);
    } else {
      for (const name of ['generation', 'ply', 'round']) delete meter.dataset[name];
    }
    const percent = Math.round(model.win * 100);
    meter.setAttribute('aria-valuenow', String(percent));
    meter.setAttribute('aria-valuetext', model.verdict || model.info);
    $('eval-fill').style.width = `${percent}%`;
    $('eval-text').textContent = model.text;
    $('eval-verdict').textContent = model.verdict;
    $('eval-info').textContent = model.info;
  }

  /** Stops the shell's analysis (turned off, or the app went to the background). */
  function stop() {
    a.serial++;
    a.key = '';
    a.update = null;
    a.generation = 0;
    return api.stopAnalysis().catch(() => null);
  }

  function toggle() {
    a.on = !a.on;
    if (!a.on) stop();
    app.game.render();
    sync();
  }

  function bind() {
    $('analysis').addEventListener('click', toggle);
  }

  return { sync, renderEval, stop, toggle, bind };
}
