// The game on screen. The engine's GameView is the truth; the UI adds only what is in flight (a
// stone drawn before the engine confirmed it, the computer thinking, a hint) and what the player
// is choosing (a pressed or pending point, the keyboard cursor).
//
// Stale replies: `state.epoch` changes whenever the position on screen changes (a move, undo,
// new game, the app going to the background). Every asynchronous request remembers the epoch it
// was made in, and its reply is dropped if the epoch has moved on; the engine checks the same
// thing on its side with (gameId, moveNumber).
//
// This module draws the game (status, toolbar, the panel under the board) and takes new views;
// the features it draws with (analysis, review, clock, editor, opening) are reached through `app`.

import * as api from './api.js';
import { t, setLanguage, translateStatic } from './i18n.js';
import * as ctl from './controller.js';
import * as editor from './editor.js';
import { fillStats, fillGameOver, openingName, setRenjuOpenings } from './sheets.js';

const $ = (id) => document.getElementById(id);
const GAME_OVER_DELAY_MS = 450;
const MAX_COMPUTER_RETRIES = 4;
const RETRY_MS = 150;

export function createGame(app) {
  const { state } = app;

  /** The board as drawn: the editor's position while it is open, else the game's. */
  function boardModel() {
    return state.editor ? editor.boardModel(state.editor, state) : ctl.boardModel(state, app.coarse.matches);
  }

  function pointOf(index) {
    return app.board.cell(index).dataset.point;
  }

  /** Draws the board at a new size (a new game or editor size) with the cursor back in the middle. */
  function resized(size) {
    state.cursor = -1;
    state.hover = -1;
    app.board.update(boardModel());
    app.board.setFocusIndex(Math.floor((size * size) / 2));
  }

  function render() {
    const v = state.view;
    // E2E: set while a move, the computer's reply or a hint is in flight.
    document.body.toggleAttribute('data-busy', !!(state.busy || state.thinking || state.hinting || (v && !v.result && v.computerToMove)));
    if (!v) {
      $('status').textContent = state.flash;
      return;
    }
    if (state.editor) {
      app.editor.render();
      return;
    }
    app.editor.show(false);
    app.board.update(boardModel());

    const status = ctl.statusText(state, app.coarse.matches);
    if ($('status').textContent !== status) $('status').textContent = status;
    const plainMeta = t(v.mode === 'computer' ? 'metaComputer' : 'meta', {
      rule: t(`rule_${v.rule}`),
      size: v.size,
      level: t(`level${v.level}`),
    });
    const meta = v.opening
      ? t('metaOpening', { meta: plainMeta, opening: openingName(v.opening) })
      : v.swap
        ? t('metaSwap', { meta: plainMeta, rule: ctl.openingRuleName(v.swap.rule) })
        : v.setup
          ? t('metaSetup', { meta: plainMeta })
          : plainMeta;
    if ($('meta').textContent !== meta) $('meta').textContent = meta;

    const turn = $('turn');
    const shown = ctl.shownView(state); // in review, the position on screen
    // While an opening choice is due, either colour may be the player's: the dot shows both.
    const turnColour = shown.result
      ? shown.result.winner ?? 'draw'
      : state.optimistic
        ? ctl.other(state.optimistic.color)
        : !ctl.inReview(state) && ctl.swapPhase(v)?.choices.length
          ? 'choice'
          : shown.toMove;
    turn.dataset.color = turnColour;
    turn.toggleAttribute('data-thinking', state.thinking || state.hinting);
    $('status').toggleAttribute('data-flash', !!state.flash);

    const reviewing = ctl.inReview(state);
    $('undo').disabled = !v.canUndo || state.busy || reviewing;
    $('redo').disabled = !v.canRedo || state.busy || state.thinking || reviewing;
    $('hint').disabled = !!v.result || v.computerToMove || state.thinking || state.busy || state.hinting || reviewing || ctl.openingChoiceDue(state);
    $('hint').setAttribute('aria-pressed', String(!!state.hint));
    $('place').hidden = !(ctl.confirmMode(state, app.coarse.matches) && state.pending >= 0 && ctl.humanCanPlay(state));
    $('analysis').setAttribute('aria-pressed', String(state.analysis.on));
    $('review-record').disabled = !ctl.canReview(v) || state.busy || state.thinking;
    app.clock.render();
    renderPanel();
    app.analysis.sync();
  }

  /** The panel under the board: the evaluation, the review and the opening bar, as they apply. */
  function renderPanel() {
    if (state.editor) return; // the editor hides the panel
    const model = ctl.evalModel(state);
    const reviewing = ctl.inReview(state);
    const swap = app.opening.render();
    const panel = $('panel');
    const show = !!model || reviewing || swap;
    if (panel.hidden === show) panel.hidden = !show;
    const root = $('app');
    if (show) root.dataset.panel = [model ? 'eval' : '', reviewing ? 'review' : '', swap ? 'swap' : ''].filter(Boolean).join(' ');
    else delete root.dataset.panel;
    $('eval-row').hidden = !model;
    $('review').hidden = !reviewing;
    if (reviewing) app.review.render();
    if (model) app.analysis.renderEval(model);
  }

  // -------------------------------------------------------------------------------------------
  // Engine state

  function applyView(view, { byComputer = false } = {}) {
    const prev = state.view;
    app.clock.take(view);
    const changed =
      !prev || prev.gameId !== view.gameId || prev.moveNumber !== view.moveNumber || prev.moves.join() !== view.moves.join();
    state.view = view;
    if (changed) {
      state.epoch++;
      state.computerRetries = 0;
      state.pending = -1;
      state.hint = null;
      state.hinting = false;
      // Another game or other moves: the review on screen was of something else.
      if (state.review.ply !== null || state.review.running) {
        state.review.ply = null;
        state.review.running = false;
        state.review.progress = null;
        state.review.serial++;
      }
      if (!prev || prev.gameId !== view.gameId) {
        // Against the computer a new game starts with analysis off (it is not a hint, and the
        // game would count as analysed); two players and loaded records keep it.
        if (view.mode === 'computer' && view.moves.length === 0) state.analysis.on = false;
      }
    }
    const decided = byComputer ? ctl.swapNotice(prev, view) : '';
    if (decided) {
      app.ui.toast(decided);
      app.ui.announce(decided);
    }
    if (byComputer && view.moves.length > (prev?.moves.length ?? 0)) {
      const color = ctl.moveColor(view, view.moves.length - 1);
      app.ui.feedback(color);
      // The computer's opening places several stones at once: every one is told.
      const from = prev && prev.gameId === view.gameId ? prev.moves.length : view.moves.length - 1;
      const told = view.moves.slice(from).map((point, k) => {
        const c = ctl.moveColor(view, from + k);
        return t('played', { color: ctl.colourName(c), point: point.toUpperCase() });
      });
      if (!decided) app.ui.announce(told.join(', '));
    }
    if (!prev || prev.size !== view.size) resized(view.size);
    render();

    const key = view.result ? `${view.gameId}:${view.moveNumber}` : '';
    if (key && key !== state.resultShown) {
      state.resultShown = key;
      if (view.result.winner) app.ui.announce(ctl.resultText(view.result, view));
      gameOver(view);
    } else if (!key) {
      state.resultShown = '';
    }
    maybeComputerMove();
    app.analysis.sync();
  }

  /** Takes the shell's whole state: settings, renju openings, statistics and the game. */
  function takeState(s) {
    state.settings = s.settings;
    setRenjuOpenings(s.renjuOpenings);
    state.stats = s.stats;
    applyPreferences();
    applyView(s.game);
  }

  function refresh() {
    return api.getState().then(takeState, (err) => app.ui.flash(ctl.errorText(err)));
  }

  function maybeComputerMove() {
    const v = state.view;
    if (!v || v.result || !v.computerToMove || state.thinking || state.busy || document.hidden) return;
    state.thinking = true;
    const epoch = state.epoch;
    render();
    api.computerMove(v.gameId, v.moveNumber).then(
      (view) => {
        if (epoch !== state.epoch || !state.thinking) return;
        if (view.gameId !== v.gameId || view.moveNumber < v.moveNumber) return;
        state.thinking = false;
        state.computerRetries = 0;
        applyView(view, { byComputer: true });
      },
      (err) => {
        if (epoch !== state.epoch) return;
        state.thinking = false;
        if ((err.code === 'stale' || err.code === 'cancelled' || err.code === 'busy') && state.computerRetries < MAX_COMPUTER_RETRIES) {
          // The position moved on, or a cancelled search is still winding down: look again soon.
          state.computerRetries++;
          setTimeout(() => {
            if (epoch === state.epoch) refresh();
          }, RETRY_MS * state.computerRetries);
          render();
          return;
        }
        state.computerRetries = 0;
        render();
        app.ui.showError(err.code === 'stale' || err.code === 'cancelled' ? { code: 'busy', message: err.message } : err);
      },
    );
  }

  /** Ends a search in progress; its late reply will be dropped because the epoch moves on. */
  function stopThinking() {
    const was = state.thinking || state.hinting;
    state.thinking = false;
    state.hinting = false;
    state.epoch++;
    return was ? api.cancelSearch().catch(() => null) : Promise.resolve(null);
  }

  /** Runs a request that returns the new GameView, one at a time (the UI is busy meanwhile). */
  async function run(action) {
    if (state.busy) return;
    state.busy = true;
    state.pending = -1;
    render();
    try {
      const view = await action();
      state.busy = false;
      applyView(view);
    } catch (err) {
      state.busy = false;
      render();
      app.ui.showError(err);
    }
  }

  async function gameOver(view) {
    const epoch = state.epoch;
    const stats = await api.getStats().catch(() => state.stats);
    state.stats = stats;
    fillStats(stats);
    await new Promise((resolve) => setTimeout(resolve, GAME_OVER_DELAY_MS));
    if (epoch !== state.epoch || !state.view?.result) return;
    fillGameOver(view, stats);
    app.clock.fillGameOver(view);
    if (!app.sheets.anyOpen() && !state.editor) app.sheets.open('gameover-sheet');
  }

  /** The theme and the language of the settings, on the page. */
  function applyPreferences() {
    const s = state.settings;
    if (!s) return;
    const root = document.documentElement;
    if (s.theme === 'light' || s.theme === 'dark') root.dataset.theme = s.theme;
    else delete root.dataset.theme;
    const before = root.lang;
    setLanguage(s.language);
    if (root.lang !== before) {
      translateStatic();
      app.board.relabel();
      fillStats(state.stats);
    }
  }

  /**
   * A status too long for its usual size (one line upright, two in the side panel: an opening
   * choice spelled out) takes the meta line's room in smaller lines (`data-long`), not cut.
   * Measured, not counted in characters: the width depends on the language, font and window.
   */
  function fitStatus() {
    const el = $('status');
    const texts = el.parentElement;
    el.removeAttribute('data-long');
    texts.removeAttribute('data-long');
    if (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight) {
      el.setAttribute('data-long', '');
      texts.setAttribute('data-long', '');
    }
    // The meta line comes and goes with a long status: the clock beside it fits again now, in
    // the same task, not at its next tick (a stopped clock has none).
    app.clock.fitMetaRow();
  }

  /** Fits the status line whenever its text changes (the game's, the editor's, a notice) or its width. */
  function bind() {
    new MutationObserver(fitStatus).observe($('status'), { childList: true, characterData: true, subtree: true });
    new ResizeObserver(fitStatus).observe(document.querySelector('.statusbar'));
  }

  return { bind, boardModel, pointOf, resized, render, renderPanel, applyView, takeState, refresh, maybeComputerMove, stopThinking, run, applyPreferences };
}
