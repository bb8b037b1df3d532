// The player's actions on the game: a stone (at once, or after a confirming second tap), undo,
// redo, new game and hint. Each is a request to the shell; the stone is drawn before it answers.

import * as api from './api.js';
import { t, verdict as verdictText } from './i18n.js';
import * as ctl from './controller.js';
import { FLASH_MS } from './messages-ui.js';

export function createPlay(app) {
  const { state } = app;
  const confirmMode = () => ctl.confirmMode(state, app.coarse.matches);

  function place(index) {
    const v = state.view;
    if (!ctl.humanCanPlay(state) || index < 0) return;
    const problem = ctl.refusal(state, index);
    if (problem) {
      state.pending = -1;
      app.ui.flash(problem);
      return;
    }
    const point = app.game.pointOf(index);
    const color = v.toMove;
    state.pending = -1;
    state.hint = null;
    state.optimistic = { index, color };
    state.busy = true;
    app.game.render(); // the stone is on the board before this event handler returns
    const epoch = state.epoch;
    api.play(point, v.gameId, v.moveNumber).then(
      (view) => {
        state.busy = false;
        state.optimistic = null;
        if (epoch !== state.epoch) return app.game.render();
        app.game.applyView(view);
      },
      (err) => {
        state.busy = false;
        state.optimistic = null;
        app.game.render();
        if (epoch === state.epoch) app.ui.showError(err);
      },
    );
    // After the request, so the engine hears about the move first.
    app.ui.feedback(color);
    app.ui.announce(t('played', { color: ctl.colourName(color), point: point.toUpperCase() }));
  }

  function choose(index) {
    if (index < 0) return;
    if (!confirmMode() || state.pending === index) {
      place(index);
      return;
    }
    const problem = ctl.refusal(state, index);
    if (problem) {
      app.ui.flash(problem);
      return;
    }
    state.pending = index;
    app.game.render();
  }

  function undo() {
    const v = state.view;
    if (!v?.canUndo || state.busy || state.editor || app.sheets.isOpen('settings-sheet')) return;
    app.sheets.close('gameover-sheet');
    app.game.run(async () => {
      await app.game.stopThinking();
      return api.undo();
    });
  }

  function redo() {
    const v = state.view;
    if (!v?.canRedo || state.busy || state.editor || app.sheets.anyOpen()) return;
    app.game.run(async () => {
      await app.game.stopThinking();
      return api.redo();
    });
  }

  // The toolbar's New game abandons a game in progress, so a first tap only warns; a second tap
  // within FLASH_MS starts the new game (as the back button does before leaving).
  function onNewGameButton() {
    const v = state.view;
    const inProgress = Boolean(v && !v.result && ctl.hasStones(v));
    if (inProgress && performance.now() > state.newGameArmedUntil) {
      state.newGameArmedUntil = performance.now() + FLASH_MS;
      app.ui.toast(t('newGameAgain'));
      return;
    }
    state.newGameArmedUntil = 0;
    newGame();
  }

  function newGame() {
    app.sheets.close('gameover-sheet');
    app.game.run(async () => {
      await app.game.stopThinking();
      return api.newGame(app.settings.gameOptions());
    });
  }

  async function hint() {
    const v = state.view;
    if (!v || v.result || v.computerToMove || state.thinking || state.busy || state.hinting) return;
    if (state.hint) {
      state.hint = null;
      app.game.render();
      return;
    }
    state.hinting = true;
    const epoch = state.epoch;
    app.game.render();
    try {
      const h = await api.hint(v.gameId, v.moveNumber);
      if (epoch !== state.epoch || h.gameId !== v.gameId || h.moveNumber !== v.moveNumber) return;
      state.hint = { index: h.point ? ctl.indexOf(h.point, v.size) : -1, point: h.point, verdict: h.verdict };
      if (h.point) app.ui.announce(t('hintText', { point: h.point.toUpperCase(), verdict: verdictText(h.verdict) }));
    } catch (err) {
      if (epoch === state.epoch) app.ui.showError(err);
    } finally {
      if (epoch === state.epoch) {
        state.hinting = false;
        app.game.render();
      }
    }
  }

  return { place, choose, undo, redo, onNewGameButton, newGame, hint };
}
