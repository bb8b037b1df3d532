// Position editor (issue 10 §5). The stones being set up live in `state.editor` (editor.js) and
// on the board in the game's place; the game itself is untouched until Done: the shell's referee
// checks the position (check_setup), the player chooses how to go on, and start_setup makes it
// the new game. Cancel (or back) drops the editor and shows the game again as it was.

import * as api from './api.js';
import { t } from './i18n.js';
import * as ctl from './controller.js';
import * as editor from './editor.js';

const $ = (id) => document.getElementById(id);

export function createEditorUi(app) {
  const { state } = app;

  function show(on) {
    if ($('editor').hidden === !on) return;
    $('editor').hidden = !on;
    $('app').toggleAttribute('data-editing', on);
  }

  function render() {
    const ed = state.editor;
    show(true);
    $('panel').hidden = true;
    delete $('app').dataset.panel;
    app.clock.render(); // hidden while editing
    app.board.update(app.game.boardModel());
    const status = state.flash || (state.editorBusy ? t('editChecking') : editor.statusText(ed));
    if ($('status').textContent !== status) $('status').textContent = status;
    $('status').toggleAttribute('data-flash', !!state.flash || !!ed.refused);
    const meta = editor.metaText(ed);
    if ($('meta').textContent !== meta) $('meta').textContent = meta;
    $('turn').dataset.color = ed.toMove;
    $('turn').removeAttribute('data-thinking');
    $('place').hidden = true;
    // Only what changed is written: WebKit drops a click whose target's text was replaced
    // between the button going down and up (a render from the pointer leaving the board).
    for (const tool of editor.TOOLS) $(`edit-${tool}`).setAttribute('aria-pressed', String(ed.tool === tool));
    const toMove = $('edit-to-move');
    if (toMove.dataset.color !== ed.toMove) {
      toMove.dataset.color = ed.toMove;
      toMove.querySelector('.mini-stone').className = `mini-stone ${ed.toMove}`;
    }
    const toMoveText = t('editToMove', { color: t(ed.toMove) });
    if ($('edit-to-move-text').textContent !== toMoveText) $('edit-to-move-text').textContent = toMoveText;
    if ($('edit-rule').value !== ed.rule) $('edit-rule').value = ed.rule;
    const sizes = [...new Set([...editor.EDITOR_SIZES, ed.size, state.view.size])].sort((a, b) => a - b);
    const select = $('edit-size');
    if ([...select.options].map((o) => o.value).join() !== sizes.join()) {
      select.replaceChildren(...sizes.map((n) => new Option(`${n} × ${n}`, String(n))));
    }
    if (select.value !== String(ed.size)) select.value = String(ed.size);
    const message = ed.refused ? editor.refusalText(ed.refused) : '';
    if ($('edit-message').textContent !== message) $('edit-message').textContent = message;
    $('edit-done').disabled = !!state.editorBusy;
  }

  /** Opens the editor on the position on screen (the live game, or the ply shown in review). */
  function open() {
    const v = state.view;
    if (!v || state.editor) return;
    const shown = ctl.shownView(state);
    app.sheets.close('settings-sheet');
    app.sheets.close('gameover-sheet');
    if (ctl.inReview(state)) app.review.close();
    state.pending = -1;
    state.hint = null;
    state.press = -1;
    state.hover = -1;
    state.editor = editor.fromView(shown);
    state.editorBusy = false;
    app.game.render();
    app.clock.syncPause();
    app.analysis.sync();
    $('edit-black').focus({ preventScroll: true });
  }

  function set(next) {
    const size = state.editor?.size;
    state.editor = next;
    if (next.size !== size) app.game.resized(next.size);
    app.game.render();
  }

  function close() {
    state.editorSerial++;
    // A notice about the editor (stones dropped by a resize) means nothing outside it.
    if (state.editor && state.flash) app.ui.clearFlash();
    const size = state.editor?.size;
    state.editor = null;
    state.editorBusy = false;
    state.setupPending = null;
    if (state.view && size !== state.view.size) app.game.resized(state.view.size);
  }

  /** Leaves the editor; the game is as it was. */
  function cancel() {
    if (!state.editor) return;
    app.sheets.close('setup-sheet');
    close();
    app.game.render();
    app.clock.syncPause(); // the game's clock runs again
    app.game.maybeComputerMove();
    app.analysis.sync();
  }

  function tap(index) {
    const ed = state.editor;
    if (!ed || index < 0) {
      app.game.render();
      return;
    }
    const next = editor.tap(ed, index);
    state.editorSerial++; // a check in flight was for the position before this tap
    state.editorBusy = false;
    set(next);
    const stone = next.stones[index];
    const point = app.game.pointOf(index).toUpperCase();
    if (stone) app.ui.feedback(stone);
    app.ui.announce(stone ? t('cellStone', { point, color: t(`${stone}Lower`) }) : t('cellEmpty', { point }));
  }

  /** Done: the referee checks the position; refused, the reason is shown and the editor stays. */
  async function done() {
    const ed = state.editor;
    if (!ed || state.editorBusy) return;
    const setup = editor.request(ed);
    const serial = ++state.editorSerial;
    state.editorBusy = true;
    app.game.render();
    try {
      await api.checkSetup(setup);
    } catch (err) {
      if (serial !== state.editorSerial || !state.editor) return;
      state.editorBusy = false;
      if (err.code === 'badSetup') {
        state.editor = { ...state.editor, refused: err };
        app.game.render();
        app.ui.announce(editor.refusalText(err));
      } else {
        app.game.render();
        app.ui.showError(err);
      }
      return;
    }
    if (serial !== state.editorSerial || !state.editor) return;
    state.editorBusy = false;
    state.setupPending = setup;
    app.game.render();
    fillSetupNotes(setup);
    app.sheets.open('setup-sheet');
  }

  /**
   * What the settings do not do to a set-up position: a Swap / Swap2 opening rule does not apply
   * (the shell starts it without an opening phase), and a time limit holds only against the computer.
   */
  function fillSetupNotes(setup) {
    const s = state.settings ?? {};
    const swap = (s.openingRule === 'swap' || s.openingRule === 'swap2') && setup.rule !== 'renju';
    const opening = swap ? t('setupNoOpening', { rule: ctl.openingRuleName(s.openingRule) }) : '';
    const minutes = Number(s.clockMinutes ?? 0);
    const limit = minutes > 0 ? t('setupClockLimit', { minutes, increment: Number(s.clockIncrement ?? 0) }) : '';
    for (const [id, text] of [['setup-opening-note', opening], ['setup-clock-note', limit]]) {
      $(id).textContent = text;
      $(id).hidden = !text;
    }
  }

  /** Starts the accepted position: 'analyse', 'black' / 'white' against the computer, or 'local'. */
  function startAs(choice) {
    const setup = state.setupPending;
    if (!setup || !state.editor) return;
    const players =
      choice === 'black' || choice === 'white'
        ? { mode: 'computer', humanColor: choice, level: Number(state.settings?.level ?? state.view.level) }
        : { mode: 'local' };
    app.sheets.close('setup-sheet');
    app.game
      .run(async () => {
        await app.game.stopThinking();
        app.review.cancel();
        const view = await api.startSetup(setup, players);
        close();
        if (choice === 'analyse') state.analysis.on = true;
        app.ui.toast(t('setupStarted'));
        return view;
      })
      .then(() => {
        // Once the new game is on screen: its clock, started paused under the editor, runs from the
        // position (a reply for it before then would be taken for the old game's and dropped).
        app.clock.syncPause();
      });
  }

  function bind() {
    $('edit-position').addEventListener('click', open);
    for (const tool of editor.TOOLS) {
      $(`edit-${tool}`).addEventListener('click', () => state.editor && set({ ...state.editor, tool }));
    }
    $('edit-to-move').addEventListener('click', () => {
      const ed = state.editor;
      if (ed) set({ ...ed, toMove: ctl.other(ed.toMove), refused: null });
    });
    $('edit-rule').addEventListener('change', (e) => {
      const ed = state.editor;
      if (ed) set({ ...ed, rule: e.target.value, refused: null });
    });
    $('edit-size').addEventListener('change', (e) => {
      const ed = state.editor;
      if (!ed) return;
      const { editor: next, dropped } = editor.resize(ed, Number(e.target.value));
      set(next);
      if (dropped) app.ui.flash(t('editDropped', { n: dropped }));
    });
    $('edit-clear').addEventListener('click', () => state.editor && set(editor.clear(state.editor)));
    $('edit-current').addEventListener('click', () => {
      const ed = state.editor;
      if (ed && state.view) set({ ...editor.fromView(state.view), tool: ed.tool });
    });
    $('edit-cancel').addEventListener('click', cancel);
    $('edit-done').addEventListener('click', done);
    $('setup-analyse').addEventListener('click', () => startAs('analyse'));
    $('setup-computer-black').addEventListener('click', () => startAs('black'));
    $('setup-computer-white').addEventListener('click', () => startAs('white'));
    $('setup-two-players').addEventListener('click', () => startAs('local'));
  }

  return { show, render, open, cancel, tap, bind };
}
