// The page's entry point: builds the app's wiring and starts it. Each feature's wiring is a module
// of its own (game-ui.js, play-ui.js, analysis-ui.js, review-ui.js, clock-ui.js, editor-ui.js,
// opening-ui.js, settings-ui.js, records.js, messages-ui.js); none imports another. They share
// one object, `app`: the controller's state (ctl.createState(), where every feature keeps its
// state), the board, the sheets and each feature's functions, which they call through it.
// This module binds the board's input and the toolbar, and the app's lifecycle (background,
// back button).

import * as api from './api.js';
import { createBoard } from './render.js';
import { bindInput } from './input.js';
import { t, setLanguage, translateStatic } from './i18n.js';
import * as ctl from './controller.js';
import * as sound from './sound.js';
import { createSheets } from './sheets.js';
import { bindSheetMessages } from './sheet-message.js';
import { bindRecords } from './records.js';
import { createMessages, FLASH_MS } from './messages-ui.js';
import { createGame } from './game-ui.js';
import { createPlay } from './play-ui.js';
import { createAnalysis } from './analysis-ui.js';
import { createReview } from './review-ui.js';
import { createClock } from './clock-ui.js';
import { createEditorUi } from './editor-ui.js';
import { createOpening } from './opening-ui.js';
import { createSettings } from './settings-ui.js';

const $ = (id) => document.getElementById(id);

const app = { state: ctl.createState(), coarse: matchMedia('(pointer: coarse)'), board: null, sheets: null };
app.ui = createMessages(app);
app.game = createGame(app);
app.play = createPlay(app);
app.analysis = createAnalysis(app);
app.review = createReview(app);
app.clock = createClock(app);
app.editor = createEditorUi(app);
app.opening = createOpening(app);
app.settings = createSettings(app);

const { state } = app;
const render = () => app.game.render();
const humanCanPlay = () => ctl.humanCanPlay(state);

// ---------------------------------------------------------------------------------------------
// App lifecycle

function suspend() {
  api.saveNow().catch(() => {});
  api.cancelSearch().catch(() => {});
  if (state.analysis.on) app.analysis.stop();
  if (state.thinking || state.hinting) {
    state.thinking = false;
    state.hinting = false;
    state.epoch++;
    render();
  }
}

function onVisibility() {
  app.clock.syncPause();
  if (document.hidden) suspend();
  else if (state.view) app.game.refresh();
}

function onBackAtRoot() {
  // Back leaves the position editor first, as it closes a sheet, changing nothing.
  if (state.editor) {
    app.editor.cancel();
    app.sheets.rearm();
    return;
  }
  // First press: warn (the game is already saved); a second press within the window leaves,
  // because the webview then has no history left to go back to.
  api.saveNow().catch(() => {});
  app.ui.toast(t('pressBackAgain'));
  clearTimeout(state.timers.exit);
  state.timers.exit = setTimeout(() => app.sheets.rearm(), FLASH_MS);
}

function bindUi() {
  bindInput($('board'), app.board, {
    onGesture: () => {
      if (state.settings?.sound ?? true) sound.unlock();
    },
    onPress(index, type) {
      state.press = humanCanPlay() || state.editor ? index : -1;
      state.pressType = type;
      render();
    },
    onDrag(index) {
      if (state.press === -1 && !humanCanPlay() && !state.editor) return;
      state.press = index;
      render();
    },
    onRelease(index) {
      state.press = -1;
      if (state.editor) {
        app.editor.tap(index);
        return;
      }
      const v = state.view;
      if (v && v.computerToMove && !v.result && !state.thinking && !state.busy) {
        app.game.maybeComputerMove();
        return;
      }
      if (!humanCanPlay() || index < 0) {
        render();
        return;
      }
      app.play.choose(index);
    },
    onCancel() {
      state.press = -1;
      render();
    },
    onHover(index) {
      state.hover = index;
      render();
    },
    onCursor(index) {
      state.cursor = index;
      render();
    },
    onEscape() {
      state.pending = -1;
      state.cursor = -1;
      render();
    },
    onActivate: (index) => (state.editor ? app.editor.tap(index) : app.play.place(index)),
    onUndo: app.play.undo,
    onRedo: app.play.redo,
  });

  app.game.bind();
  $('undo').addEventListener('click', app.play.undo);
  $('redo').addEventListener('click', app.play.redo);
  $('hint').addEventListener('click', app.play.hint);
  app.analysis.bind();
  app.review.bind();
  $('new-game').addEventListener('click', app.play.onNewGameButton);
  $('place').addEventListener('click', () => app.play.place(state.pending));
  app.opening.bind();
  $('play-again').addEventListener('click', app.play.newGame);
  $('gameover-undo').addEventListener('click', app.play.undo);
  app.settings.bind();
  bindRecords(app);
  bindSheetMessages();
  app.editor.bind();

  app.coarse.addEventListener('change', render);
  app.clock.bind();
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', suspend);
}

async function start() {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform ?? '');
  for (const kbd of document.querySelectorAll('kbd[data-keys]')) kbd.textContent = `${mac ? '⌘' : 'Ctrl+'}${kbd.dataset.keys}`;
  setLanguage('system');
  translateStatic();
  app.board = createBoard($('board'), {
    label(point, stone, forbidden) {
      const p = point.toUpperCase();
      if (stone) return t('cellStone', { point: p, color: t(`${stone}Lower`) });
      return t(forbidden ? 'cellForbidden' : 'cellEmpty', { point: p });
    },
  });
  app.sheets = createSheets({ onBackAtRoot, onClose: app.settings.onClose });
  bindUi();
  try {
    const s = await api.getState();
    app.game.takeState(s);
    if (s.notices?.length) app.ui.toast(s.notices.map((code) => t(`notice_${code}`)).join(' '));
    app.clock.syncPause();
  } catch (err) {
    state.flash = ctl.errorText(err);
    render();
  }
  document.documentElement.dataset.ready = 'true';
  // For start-up measurements (e.g. the desktop E2E): the first board is on screen after this.
  performance.mark('wuzi-ready');
}

start();
