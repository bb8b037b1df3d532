// Wiring: the engine's GameView is the truth; the UI adds only what is in flight (a stone drawn
// before the engine confirmed it, the computer thinking, a hint) and what the player is choosing
// (a pressed or pending point, the keyboard cursor).
//
// Stale replies: `state.epoch` changes whenever the position on screen changes (a move, undo,
// new game, the app going to the background). Every asynchronous request remembers the epoch it
// was made in, and its reply is dropped if the epoch has moved on; the engine checks the same
// thing on its side with (gameId, moveNumber).

import * as api from './api.js';
import { createBoard } from './render.js';
import { bindInput } from './input.js';
import { t, setLanguage, translateStatic, verdict as verdictText } from './i18n.js';
import * as ctl from './controller.js';
import * as sound from './sound.js';
import { createSheets, fillSettings, readSettings, fillStats, fillHelp, fillGameOver, openingName, setRenjuOpenings } from './sheets.js';
import * as clock from './clock.js';
import * as editor from './editor.js';
import { showInOpenSheet, clearSheetMessages, bindSheetMessages } from './sheet-message.js';
import { copyRecord } from './records.js';

const $ = (id) => document.getElementById(id);
const coarse = matchMedia('(pointer: coarse)');
const GAME_OVER_DELAY_MS = 450;
const FLASH_MS = 2600;
const MAX_COMPUTER_RETRIES = 4;
const RETRY_MS = 150;

const state = ctl.createState();

let board;
let sheets;
let flashTimer = 0;
let toastTimer = 0;
let exitTimer = 0;
let settingsSerial = 0;

// ---------------------------------------------------------------------------------------------
// Derived drawing model

function pointOf(index) {
  return board.cell(index).dataset.point;
}

// The DOM-free logic lives in controller.js; these bind it to this page's state and pointer.
const { indexOf, colourName, resultText, errorText, other } = ctl;
const boardModel = () => (state.editor ? editor.boardModel(state.editor, state) : ctl.boardModel(state, coarse.matches));
const humanCanPlay = () => ctl.humanCanPlay(state);
const confirmMode = () => ctl.confirmMode(state, coarse.matches);
const statusText = () => ctl.statusText(state, coarse.matches);
const refusal = (index) => ctl.refusal(state, index);

// ---------------------------------------------------------------------------------------------
// Rendering

function render() {
  const v = state.view;
  document.body.toggleAttribute('data-busy', !!(state.busy || state.thinking || state.hinting || (v && !v.result && v.computerToMove))); // E2E: in flight
  if (!v) {
    $('status').textContent = state.flash;
    return;
  }
  if (state.editor) {
    renderEditor();
    return;
  }
  showEditor(false);
  board.update(boardModel());

  const status = statusText();
  if ($('status').textContent !== status) $('status').textContent = status;
  // A long line (an opening choice spelled out) takes the meta line's room, in two lines.
  const long = status.length > 40;
  $('status').toggleAttribute('data-long', long);
  $('status').parentElement.toggleAttribute('data-long', long);
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
      ? other(state.optimistic.color)
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
  $('place').hidden = !(confirmMode() && state.pending >= 0 && humanCanPlay());
  $('analysis').setAttribute('aria-pressed', String(state.analysis.on));
  $('review-record').disabled = !ctl.canReview(v) || state.busy || state.thinking;
  renderClock();
  renderPanel();
  syncAnalysis();
}

function renderPanel() {
  if (state.editor) return; // the editor hides the panel
  const model = ctl.evalModel(state);
  const reviewing = ctl.inReview(state);
  const swap = renderSwapBar();
  const panel = $('panel');
  const show = !!model || reviewing || swap;
  if (panel.hidden === show) panel.hidden = !show;
  const app = $('app');
  if (show) app.dataset.panel = [model ? 'eval' : '', reviewing ? 'review' : '', swap ? 'swap' : ''].filter(Boolean).join(' ');
  else delete app.dataset.panel;
  $('eval-row').hidden = !model;
  $('review').hidden = !reviewing;
  if (reviewing) renderReview();
  if (!model) return;
  const meter = $('eval');
  const score = model.score === null ? null : String(model.score);
  if (score === null) meter.removeAttribute('data-score');
  else meter.dataset.score = score;
  // Which analysis and position the numbers are from (tests and measurements read these).
  const u = ctl.acceptAnalysis(state, state.analysis.update) ? state.analysis.update : null;
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

// ---------------------------------------------------------------------------------------------
// Swap / Swap2 opening (issue 10 §3): the bar under the board while the phase lasts, the
// choice buttons in it, and what the computer decided.

/** Draws the opening bar; says whether it is shown. */
function renderSwapBar() {
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

function chooseOpening(choice) {
  const v = state.view;
  if (!v || !ctl.openingChoiceDue(state) || state.busy || state.thinking) return;
  run(() => api.chooseOpening(choice, v.gameId, v.moveNumber));
}

function flash(text) {
  state.flash = text;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    state.flash = '';
    render();
  }, FLASH_MS);
  render();
}

function toast(text) {
  const el = $('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
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
    refresh();
    return;
  }
  console.warn('wuzi:', err.code, err.message);
  // Inside a sheet the status line is hidden: the sheet says it, until dismissed.
  const text = errorText(err);
  if (!showInOpenSheet(text)) flash(text);
}

function feedback(color) {
  if (state.settings?.sound ?? true) sound.click(color);
  if (state.settings?.vibration ?? true) api.hapticTick().catch(() => {});
}

// ---------------------------------------------------------------------------------------------
// Engine state

function applyView(view, { byComputer = false } = {}) {
  const prev = state.view;
  takeClock(view);
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
      reviewSerial++;
    }
    if (!prev || prev.gameId !== view.gameId) {
      // Against the computer a new game starts with analysis off (it is not a hint, and the
      // game would count as analysed); two players and loaded records keep it.
      if (view.mode === 'computer' && view.moves.length === 0) state.analysis.on = false;
    }
  }
  const decided = byComputer ? ctl.swapNotice(prev, view) : '';
  if (decided) {
    toast(decided);
    announce(decided);
  }
  if (byComputer && view.moves.length > (prev?.moves.length ?? 0)) {
    const color = ctl.moveColor(view, view.moves.length - 1);
    feedback(color);
    // The computer's opening places several stones at once: every one is told.
    const from = prev && prev.gameId === view.gameId ? prev.moves.length : view.moves.length - 1;
    const told = view.moves.slice(from).map((point, k) => {
      const c = ctl.moveColor(view, from + k);
      return t('played', { color: colourName(c), point: point.toUpperCase() });
    });
    if (!decided) announce(told.join(', '));
  }
  if (!prev || prev.size !== view.size) {
    state.cursor = -1;
    state.hover = -1;
    board.update(boardModel());
    board.setFocusIndex(Math.floor((view.size * view.size) / 2));
  }
  render();

  const key = view.result ? `${view.gameId}:${view.moveNumber}` : '';
  if (key && key !== state.resultShown) {
    state.resultShown = key;
    if (view.result.winner) announce(resultText(view.result, view));
    gameOver(view);
  } else if (!key) {
    state.resultShown = '';
  }
  maybeComputerMove();
  syncAnalysis();
}

function refresh() {
  return api.getState().then(
    (s) => {
      state.settings = s.settings;
    setRenjuOpenings(s.renjuOpenings);
      state.stats = s.stats;
      applyPreferences();
      applyView(s.game);
    },
    (err) => flash(errorText(err)),
  );
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
      showError(err.code === 'stale' || err.code === 'cancelled' ? { code: 'busy', message: err.message } : err);
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
    showError(err);
  }
}

// ---------------------------------------------------------------------------------------------
// Analysis mode: the engine thinks about the position on screen. Each start gets its own channel
// and serial; a round is shown only if it belongs to the latest start and to the position on
// screen (ctl.acceptAnalysis), so a late round for an old position is dropped here as well as
// in the shell.

let analysisSerial = 0;

/** The position analysis should run on now, as a key; '' when it should not run. */
function analysisKey() {
  const v = state.view;
  if (!state.analysis.on || !v || document.hidden || state.editor) return '';
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
function syncAnalysis() {
  const key = analysisKey();
  if (key === state.analysis.key) return;
  state.analysis.key = key;
  const serial = ++analysisSerial;
  state.analysis.update = null;
  state.analysis.generation = 0;
  // No IPC to pause: every change of the position already stopped the shell's job.
  if (!key) {
    renderPanel();
    return;
  }
  const v = state.view;
  const ply = ctl.shownPly(state);
  renderAnalysis();
  api
    .startAnalysis(v.gameId, ply, (update) => {
      if (serial !== analysisSerial || !ctl.acceptAnalysis(state, update)) return;
      state.analysis.update = update;
      renderAnalysis();
    })
    .then(
      (generation) => {
        if (serial !== analysisSerial) return;
        state.analysis.generation = generation;
        // A round that came before the answer belongs to it only if it carries the same number.
        if (state.analysis.update && state.analysis.update.generation !== generation) state.analysis.update = null;
        renderAnalysis();
      },
      (err) => {
        if (serial !== analysisSerial) return;
        // The key stays: no retry until the position on screen changes (which restarts it),
        // so a failing shell is not asked again and again.
        if (err.code !== 'stale' && err.code !== 'gameOver') showError(err);
      },
    );
}

/** Draws a new analysis round: the panel and the marks, nothing else changes. */
function renderAnalysis() {
  board.update(boardModel());
  renderPanel();
}

/** Stops the shell's analysis (turned off, or the app went to the background). */
function stopAnalysis() {
  analysisSerial++;
  state.analysis.key = '';
  state.analysis.update = null;
  state.analysis.generation = 0;
  return api.stopAnalysis().catch(() => null);
}

function toggleAnalysis() {
  state.analysis.on = !state.analysis.on;
  if (!state.analysis.on) stopAnalysis();
  render();
  syncAnalysis();
}

// ---------------------------------------------------------------------------------------------
// Game review: step through the game (buttons, slider, graph), every move classified with the
// engine's better move on the board. The review runs in the shell with progress on a channel;
// the finished one comes with the GameView (and is kept in the save).

const GRAPH_W = 300;
const GRAPH_H = 56;
const SVG_NS = 'http://www.w3.org/2000/svg';
let reviewSerial = 0;

function renderReview() {
  const v = state.view;
  const n = v.moves.length;
  const ply = ctl.shownPly(state);
  const slider = $('review-slider');
  if (slider.max !== String(n)) slider.max = String(n);
  if (slider.value !== String(ply)) slider.value = String(ply);
  $('review-first').disabled = ply === 0;
  $('review-prev').disabled = ply === 0;
  $('review-next').disabled = ply === n;
  $('review-last').disabled = ply === n;
  const info = ctl.reviewMoveInfo(state);
  $('review-move').textContent = info.text;
  $('review-move').dataset.class = info.cls;
  const p = ctl.reviewProgress(state.review.progress);
  const progress = $('review-progress');
  const text = p ? t('reviewProgress', { done: p.done, total: p.total }) : '';
  if (progress.textContent !== text) progress.textContent = text;
  progress.toggleAttribute('data-done', !!p && p.done === p.total && !state.review.running);
  $('review-cancel').hidden = !state.review.running;
  drawGraph();
}

let graphKey = '';
function drawGraph() {
  const g = ctl.reviewGraph(state, GRAPH_W, GRAPH_H);
  const svg = $('review-graph');
  const key = g ? `${state.view.gameId}:${g.n}:${g.cursor}:${state.view.review.blackChances.join()}` : '';
  if (key === graphKey) return;
  graphKey = key;
  svg.toggleAttribute('data-empty', !g);
  if (!g) {
    svg.replaceChildren();
    return;
  }
  const el = (tag, attrs) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, String(val));
    return e;
  };
  const nodes = [
    el('rect', { class: 'graph-bg', x: 0, y: 0, width: GRAPH_W, height: GRAPH_H }),
    el('path', { class: 'graph-area', d: g.area }),
    el('line', { class: 'graph-mid', x1: 0, x2: GRAPH_W, y1: GRAPH_H / 2, y2: GRAPH_H / 2, 'vector-effect': 'non-scaling-stroke' }),
  ];
  for (const tick of g.ticks) {
    nodes.push(el('line', { class: 'graph-tick', 'data-ply': tick.ply, 'data-class': tick.cls, x1: tick.x, x2: tick.x, y1: 0, y2: GRAPH_H, 'vector-effect': 'non-scaling-stroke' }));
  }
  nodes.push(el('line', { class: 'graph-cursor', x1: g.cursor, x2: g.cursor, y1: 0, y2: GRAPH_H, 'vector-effect': 'non-scaling-stroke' }));
  svg.replaceChildren(...nodes);
}

function showPly(ply) {
  if (!ctl.inReview(state)) return;
  state.review.ply = ply;
  render();
}

function openReview() {
  const v = state.view;
  if (!ctl.canReview(v) || state.busy || state.thinking) return;
  sheets.close('gameover-sheet');
  sheets.close('settings-sheet');
  state.pending = -1;
  state.hint = null;
  state.review.ply = v.moves.length;
  render();
  if (!v.review && !state.review.running) runReview();
}

function runReview() {
  const v = state.view;
  const serial = ++reviewSerial;
  state.review.running = true;
  state.review.progress = { done: 0, total: v.moves.length + 1 };
  render();
  api
    .startReview(v.gameId, v.moveNumber, (p) => {
      if (serial !== reviewSerial || p.gameId !== state.view?.gameId) return;
      state.review.progress = p;
      renderPanel();
    })
    .then(
      (view) => {
        if (serial !== reviewSerial) return;
        state.review.running = false;
        applyView(view);
      },
      (err) => {
        if (serial !== reviewSerial) return;
        state.review.running = false;
        state.review.progress = null;
        render();
        if (err.code !== 'cancelled' && err.code !== 'stale') showError(err);
      },
    );
}

function cancelReview() {
  if (!state.review.running) return;
  reviewSerial++;
  state.review.running = false;
  state.review.progress = null;
  api.cancelReview().catch(() => null);
  render();
}

function closeReview() {
  cancelReview();
  state.review.ply = null;
  render();
}

// Review on the desktop: ← → step, Home / End jump (not while typing, nor on the board, whose
// arrows move the focus cursor); on a touch screen a horizontal swipe across the board steps.
const REVIEW_KEYS = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };

function onReviewKey(e) {
  if (!ctl.inReview(state) || e.altKey || e.ctrlKey || e.metaKey || !(e.key in REVIEW_KEYS)) return;
  const target = e.target;
  if (target instanceof HTMLElement && (target.closest('#board') || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  if (sheets.anyOpen()) return;
  e.preventDefault();
  showPly(ctl.reviewStep(state, REVIEW_KEYS[e.key]));
}

let swipeFrom = null;
function onBoardSwipeStart(e) {
  swipeFrom = ctl.inReview(state) && e.isPrimary ? { x: e.clientX, y: e.clientY } : null;
}

function onBoardSwipeEnd(e) {
  const from = swipeFrom;
  swipeFrom = null;
  if (!from || !ctl.inReview(state)) return;
  const step = ctl.swipeStep(e.clientX - from.x, e.clientY - from.y, $('board').clientWidth);
  if (step) showPly(ctl.reviewStep(state, step));
}

function onGraphTap(e) {
  const r = $('review-graph').getBoundingClientRect();
  const n = state.view?.moves.length ?? 0;
  if (!r.width) return;
  showPly(ctl.plyAt((e.clientX - r.left) / r.width, n));
}

// ---------------------------------------------------------------------------------------------
// Game clock (issue 10 §4): the shell keeps the time; the page draws GameView.clock and counts on
// for the side to move between replies. It tells the shell when the clock must pause (the app in
// the background, a sheet open), and asks it (`check_clock`) when the time it shows runs out, so a
// flag falls even if nobody taps.

const CLOCK_TICK_MS = 200;
const FLAG_ASK_MS = 1000;
// The latest clock from the shell, the position it is for and when it came (performance.now()).
let clockSync = null;
let clockPausedSent = false;
let flagAskedAt = -Infinity;

function takeClock(view) {
  if (!view?.clock) return;
  // The side whose time runs: in a Swap / Swap2 opening phase, whoever acts, not the stone's colour.
  clockSync = { clock: view.clock, toMove: view.clock.side ?? view.toMove, gameId: view.gameId, moveNumber: view.moveNumber, at: performance.now() };
}

/** A reply that only brings the clock (pause, flag check): a fallen flag changes the game. */
function onClockReply(view) {
  const v = state.view;
  if (!view || !v || view.gameId !== v.gameId) return;
  if (view.result && !v.result) {
    applyView(view);
    return;
  }
  if (view.moveNumber === v.moveNumber) {
    takeClock(view);
    renderClock();
  }
}

function liveClock() {
  const v = state.view;
  if (!clockSync || !v || clockSync.gameId !== v.gameId || clockSync.moveNumber !== v.moveNumber) return null;
  return clock.liveClock(clockSync.clock, clockSync.toMove, clockSync.at, performance.now());
}

function renderClock() {
  const el = $('clock');
  const v = state.view;
  const live = liveClock();
  // The editor shows another position: the game's clock is hidden (and paused) meanwhile.
  const model = state.editor
    ? null
    : ctl.inReview(state) && v ? clock.reviewClockModel(v.clock, ctl.shownPly(state)) : clock.clockModel(live);
  el.hidden = !model;
  if (!model) return;
  el.toggleAttribute('data-running', !!live?.running && !ctl.inReview(state));
  el.toggleAttribute('data-limit', !!live?.left);
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
    const label = m.flag ? t('clockFlag', { color: who }) : t(live?.left && !ctl.inReview(state) ? 'clockLeft' : 'clockSide', { color: who, time: m.text });
    if (side.getAttribute('aria-label') !== label) side.setAttribute('aria-label', label);
  }
  const total = $('clock-total');
  if (total.textContent !== model.total) total.textContent = model.total;
  fitMetaRow();
  if (flagDue(live)) askFlag();
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

function flagDue(live) {
  return clock.flagDue(live) && !state.view?.result;
}

function askFlag() {
  const now = performance.now();
  if (now - flagAskedAt < FLAG_ASK_MS) return;
  flagAskedAt = now;
  api.checkClock().then(onClockReply, () => {});
}

/** Pauses the shell's clock while the page is hidden, a sheet or the editor is open, and lets it run after. */
function syncClockPause() {
  // The dialogs themselves, not the sheet stack: it is updated only on the later `close` event.
  const paused = document.hidden || !!state.editor || [...document.querySelectorAll('dialog.sheet')].some((d) => d.open);
  if (paused === clockPausedSent) return;
  clockPausedSent = paused;
  api.setClockPaused(paused).then(onClockReply, () => {});
}

function fillGameOverClock(view) {
  const line = clock.clockSummary(view.clock);
  $('gameover-clock').textContent = line;
  $('gameover-clock').hidden = !line;
}

/** Whether the time limit chosen in the settings is not the current game's (it applies to the next). */
function clockDiffers(s, v) {
  if (s.clockMinutes === undefined) return false;
  const base = Number(s.clockMinutes) ? Number(s.clockMinutes) * 60_000 : null;
  const increment = base ? Number(s.clockIncrement ?? 0) * 1000 : 0;
  const limit = v.clock?.limit ?? null;
  return (limit?.baseMs ?? null) !== base || (limit?.incrementMs ?? 0) !== increment;
}

function bindClock() {
  // A turned phone or a resized window: fit again (a stopped clock does not tick).
  new ResizeObserver(fitMetaRow).observe($('meta').parentElement);
  setInterval(() => {
    const live = liveClock();
    if (live?.running || flagDue(live)) renderClock();
  }, CLOCK_TICK_MS);
  // Every sheet (settings, game over, help, and any added later) pauses the clock while open.
  const observer = new MutationObserver(syncClockPause);
  for (const dialog of document.querySelectorAll('dialog.sheet')) observer.observe(dialog, { attributes: true, attributeFilter: ['open'] });
}

// ---------------------------------------------------------------------------------------------
// Player actions

function place(index) {
  const v = state.view;
  if (!humanCanPlay() || index < 0) return;
  const problem = refusal(index);
  if (problem) {
    state.pending = -1;
    flash(problem);
    return;
  }
  const point = pointOf(index);
  const color = v.toMove;
  state.pending = -1;
  state.hint = null;
  state.optimistic = { index, color };
  state.busy = true;
  render(); // the stone is on the board before this event handler returns
  const epoch = state.epoch;
  api.play(point, v.gameId, v.moveNumber).then(
    (view) => {
      state.busy = false;
      state.optimistic = null;
      if (epoch !== state.epoch) return render();
      applyView(view);
    },
    (err) => {
      state.busy = false;
      state.optimistic = null;
      render();
      if (epoch === state.epoch) showError(err);
    },
  );
  // After the request, so the engine hears about the move first.
  feedback(color);
  announce(t('played', { color: colourName(color), point: point.toUpperCase() }));
}

function choose(index) {
  if (index < 0) return;
  if (!confirmMode() || state.pending === index) {
    place(index);
    return;
  }
  const problem = refusal(index);
  if (problem) {
    flash(problem);
    return;
  }
  state.pending = index;
  render();
}

function doUndo() {
  const v = state.view;
  if (!v?.canUndo || state.busy || state.editor || sheets.isOpen('settings-sheet')) return;
  sheets.close('gameover-sheet');
  run(async () => {
    await stopThinking();
    return api.undo();
  });
}

function doRedo() {
  const v = state.view;
  if (!v?.canRedo || state.busy || state.editor || sheets.anyOpen()) return;
  run(async () => {
    await stopThinking();
    return api.redo();
  });
}

function gameOptions() {
  const s = state.settings ?? state.view;
  const options = { mode: s.mode, rule: s.rule, size: Number(s.size), level: Number(s.level), humanColor: s.humanColor };
  if (s.renjuOpening) options.renjuOpening = s.renjuOpening;
  if (s.openingRule) options.openingRule = s.openingRule;
  return options;
}

function optionsDiffer() {
  const v = state.view;
  const s = state.settings;
  if (!v || !s) return false;
  if (s.mode !== v.mode || s.rule !== v.rule || Number(s.size) !== v.size) return true;
  if (s.rule === 'renju' && s.renjuOpening) {
    // A random opening is any opening; a named one, that one; a free start, none.
    const code = v.opening?.code;
    if (s.renjuOpening === 'free' ? code : s.renjuOpening === 'random' ? !code : code !== s.renjuOpening) return true;
  }
  if (s.rule !== 'renju' && (s.openingRule ?? 'none') !== (v.swap?.rule ?? 'none')) return true;
  if (clockDiffers(s, v)) return true;
  // Under Swap the colour setting says who opens; the colour played is the phase's outcome.
  const colourDiffers = v.swap?.you ? (s.humanColor === 'black') !== (v.swap.you === 'opener') : s.humanColor !== v.humanColor;
  return s.mode === 'computer' && (colourDiffers || Number(s.level) !== v.level);
}

// The toolbar's New game abandons a game in progress, so a first tap only warns; a second tap
// within FLASH_MS starts the new game (as the back button does before leaving).
let newGameArmedUntil = 0;

function onNewGameButton() {
  const v = state.view;
  const inProgress = Boolean(v && !v.result && ctl.hasStones(v));
  if (inProgress && performance.now() > newGameArmedUntil) {
    newGameArmedUntil = performance.now() + FLASH_MS;
    toast(t('newGameAgain'));
    return;
  }
  newGameArmedUntil = 0;
  doNewGame();
}

function doNewGame() {
  sheets.close('gameover-sheet');
  run(async () => {
    await stopThinking();
    return api.newGame(gameOptions());
  });
}

async function doHint() {
  const v = state.view;
  if (!v || v.result || v.computerToMove || state.thinking || state.busy || state.hinting) return;
  if (state.hint) {
    state.hint = null;
    render();
    return;
  }
  state.hinting = true;
  const epoch = state.epoch;
  render();
  try {
    const h = await api.hint(v.gameId, v.moveNumber);
    if (epoch !== state.epoch || h.gameId !== v.gameId || h.moveNumber !== v.moveNumber) return;
    state.hint = { index: h.point ? indexOf(h.point, v.size) : -1, point: h.point, verdict: h.verdict };
    if (h.point) announce(t('hintText', { point: h.point.toUpperCase(), verdict: verdictText(h.verdict) }));
  } catch (err) {
    if (epoch === state.epoch) showError(err);
  } finally {
    if (epoch === state.epoch) {
      state.hinting = false;
      render();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sheets

async function gameOver(view) {
  const epoch = state.epoch;
  const stats = await api.getStats().catch(() => state.stats);
  state.stats = stats;
  fillStats(stats);
  await new Promise((resolve) => setTimeout(resolve, GAME_OVER_DELAY_MS));
  if (epoch !== state.epoch || !state.view?.result) return;
  fillGameOver(view, stats);
  fillGameOverClock(view);
  if (!sheets.anyOpen() && !state.editor) sheets.open('gameover-sheet');
}

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
    board.relabel();
    fillStats(state.stats);
  }
}

function saveSettings(next) {
  state.settings = next;
  applyPreferences();
  fillSettingsForm();
  render();
  const serial = ++settingsSerial;
  api.setSettings(next).then(
    (saved) => {
      if (serial !== settingsSerial || !saved) return;
      state.settings = saved;
      applyPreferences();
      fillSettingsForm();
      render();
    },
    (err) => showError(err),
  );
}

function fillSettingsForm() {
  const v = state.view;
  fillSettings(state.settings, { waitsForNewGame: optionsDiffer() && ctl.hasStones(v) && !v.result });
}

// The game on screen and its settings when the settings sheet was opened (see onSheetClosed).
let settingsOpenedOn = null;

function openSettings() {
  settingsOpenedOn = { gameId: state.view?.gameId, key: ctl.gameSettingsKey(state.settings) };
  clearSheetMessages($('settings-sheet'));
  fillSettingsForm();
  fillStats(state.stats);
  sheets.open('settings-sheet');
}

function onSheetClosed(id) {
  if (id === 'setup-sheet') state.setupPending = null;
  // The editor or a review opened from the sheet shows the game it was opened on.
  if (id !== 'settings-sheet' || state.editor || ctl.inReview(state)) {
    settingsOpenedOn = null;
    return;
  }
  const opened = settingsOpenedOn;
  settingsOpenedOn = null;
  const v = state.view;
  // Game options changed in the sheet change the game itself; on an empty or finished board that
  // happens at once. Only then: a game loaded meanwhile (another gameId) is never thrown away,
  // whatever its rule, size, opening or clock, and neither is one whose options were set before.
  const changed = !!opened && opened.gameId === v?.gameId && opened.key !== ctl.gameSettingsKey(state.settings);
  if (v && changed && optionsDiffer() && (!ctl.hasStones(v) || v.result)) doNewGame();
}

function importRecord() {
  const text = $('record-text').value.trim();
  if (!text) return;
  run(async () => {
    await stopThinking();
    const view = await api.importRecord(text);
    sheets.close('settings-sheet');
    toast(t('loaded'));
    return view;
  });
}

// ---------------------------------------------------------------------------------------------
// Position editor (issue 10 §5). The stones being set up live in `state.editor` (editor.js) and
// on the board in the game's place; the game itself is untouched until Done: the shell's referee
// checks the position (check_setup), the player chooses how to go on, and start_setup makes it
// the new game. Cancel (or back) drops the editor and shows the game again as it was.

let editorSerial = 0;

function showEditor(on) {
  const app = $('app');
  if ($('editor').hidden === !on) return;
  $('editor').hidden = !on;
  app.toggleAttribute('data-editing', on);
}

function renderEditor() {
  const ed = state.editor;
  showEditor(true);
  $('panel').hidden = true;
  delete $('app').dataset.panel;
  renderClock(); // hidden while editing
  board.update(boardModel());
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
function openEditor() {
  const v = state.view;
  if (!v || state.editor) return;
  const shown = ctl.shownView(state);
  sheets.close('settings-sheet');
  sheets.close('gameover-sheet');
  if (ctl.inReview(state)) closeReview();
  state.pending = -1;
  state.hint = null;
  state.press = -1;
  state.hover = -1;
  state.editor = editor.fromView(shown);
  state.editorBusy = false;
  render();
  syncClockPause();
  syncAnalysis();
  $('edit-black').focus({ preventScroll: true });
}

function setEditor(next) {
  const size = state.editor?.size;
  state.editor = next;
  if (next.size !== size) {
    state.cursor = -1;
    state.hover = -1;
    board.update(boardModel());
    board.setFocusIndex(Math.floor((next.size * next.size) / 2));
  }
  render();
}

function closeEditor() {
  editorSerial++;
  // A notice about the editor (stones dropped by a resize) means nothing outside it.
  if (state.editor && state.flash) {
    clearTimeout(flashTimer);
    state.flash = '';
  }
  const size = state.editor?.size;
  state.editor = null;
  state.editorBusy = false;
  state.setupPending = null;
  if (state.view && size !== state.view.size) {
    state.cursor = -1;
    state.hover = -1;
    board.update(boardModel());
    board.setFocusIndex(Math.floor((state.view.size * state.view.size) / 2));
  }
}

/** Leaves the editor; the game is as it was. */
function cancelEditor() {
  if (!state.editor) return;
  sheets.close('setup-sheet');
  closeEditor();
  render();
  syncClockPause(); // the game's clock runs again
  maybeComputerMove();
  syncAnalysis();
}

function editorTap(index) {
  const ed = state.editor;
  if (!ed || index < 0) {
    render();
    return;
  }
  const next = editor.tap(ed, index);
  editorSerial++; // a check in flight was for the position before this tap
  state.editorBusy = false;
  setEditor(next);
  const stone = next.stones[index];
  const point = pointOf(index).toUpperCase();
  if (stone) feedback(stone);
  announce(stone ? t('cellStone', { point, color: t(`${stone}Lower`) }) : t('cellEmpty', { point }));
}

/** Done: the referee checks the position; refused, the reason is shown and the editor stays. */
async function editorDone() {
  const ed = state.editor;
  if (!ed || state.editorBusy) return;
  const setup = editor.request(ed);
  const serial = ++editorSerial;
  state.editorBusy = true;
  render();
  try {
    await api.checkSetup(setup);
  } catch (err) {
    if (serial !== editorSerial || !state.editor) return;
    state.editorBusy = false;
    if (err.code === 'badSetup') {
      state.editor = { ...state.editor, refused: err };
      render();
      announce(editor.refusalText(err));
    } else {
      render();
      showError(err);
    }
    return;
  }
  if (serial !== editorSerial || !state.editor) return;
  state.editorBusy = false;
  state.setupPending = setup;
  render();
  fillSetupNotes(setup);
  sheets.open('setup-sheet');
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
function startSetupAs(choice) {
  const setup = state.setupPending;
  if (!setup || !state.editor) return;
  const players =
    choice === 'black' || choice === 'white'
      ? { mode: 'computer', humanColor: choice, level: Number(state.settings?.level ?? state.view.level) }
      : { mode: 'local' };
  sheets.close('setup-sheet');
  run(async () => {
    await stopThinking();
    cancelReview();
    const view = await api.startSetup(setup, players);
    closeEditor();
    if (choice === 'analyse') state.analysis.on = true;
    toast(t('setupStarted'));
    return view;
  }).then(() => {
    // Once the new game is on screen: its clock, started paused under the editor, runs from the
    // position (a reply for it before then would be taken for the old game's and dropped).
    syncClockPause();
  });
}

function bindEditor() {
  $('edit-position').addEventListener('click', openEditor);
  for (const tool of editor.TOOLS) {
    $(`edit-${tool}`).addEventListener('click', () => state.editor && setEditor({ ...state.editor, tool }));
  }
  $('edit-to-move').addEventListener('click', () => {
    const ed = state.editor;
    if (ed) setEditor({ ...ed, toMove: other(ed.toMove), refused: null });
  });
  $('edit-rule').addEventListener('change', (e) => {
    const ed = state.editor;
    if (ed) setEditor({ ...ed, rule: e.target.value, refused: null });
  });
  $('edit-size').addEventListener('change', (e) => {
    const ed = state.editor;
    if (!ed) return;
    const { editor: next, dropped } = editor.resize(ed, Number(e.target.value));
    setEditor(next);
    if (dropped) flash(t('editDropped', { n: dropped }));
  });
  $('edit-clear').addEventListener('click', () => state.editor && setEditor(editor.clear(state.editor)));
  $('edit-current').addEventListener('click', () => {
    const ed = state.editor;
    if (ed && state.view) setEditor({ ...editor.fromView(state.view), tool: ed.tool });
  });
  $('edit-cancel').addEventListener('click', cancelEditor);
  $('edit-done').addEventListener('click', editorDone);
  $('setup-analyse').addEventListener('click', () => startSetupAs('analyse'));
  $('setup-computer-black').addEventListener('click', () => startSetupAs('black'));
  $('setup-computer-white').addEventListener('click', () => startSetupAs('white'));
  $('setup-two-players').addEventListener('click', () => startSetupAs('local'));
}

// ---------------------------------------------------------------------------------------------
// App lifecycle

function suspend() {
  api.saveNow().catch(() => {});
  api.cancelSearch().catch(() => {});
  if (state.analysis.on) stopAnalysis();
  if (state.thinking || state.hinting) {
    state.thinking = false;
    state.hinting = false;
    state.epoch++;
    render();
  }
}

function onVisibility() {
  syncClockPause();
  if (document.hidden) suspend();
  else if (state.view) refresh();
}

function onBackAtRoot() {
  // Back leaves the position editor first, as it closes a sheet, changing nothing.
  if (state.editor) {
    cancelEditor();
    sheets.rearm();
    return;
  }
  // First press: warn (the game is already saved); a second press within the window leaves,
  // because the webview then has no history left to go back to.
  api.saveNow().catch(() => {});
  toast(t('pressBackAgain'));
  clearTimeout(exitTimer);
  exitTimer = setTimeout(() => sheets.rearm(), FLASH_MS);
}

function bindUi() {
  bindInput($('board'), board, {
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
        editorTap(index);
        return;
      }
      const v = state.view;
      if (v && v.computerToMove && !v.result && !state.thinking && !state.busy) {
        maybeComputerMove();
        return;
      }
      if (!humanCanPlay() || index < 0) {
        render();
        return;
      }
      choose(index);
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
    onActivate: (index) => (state.editor ? editorTap(index) : place(index)),
    onUndo: doUndo,
    onRedo: doRedo,
  });

  $('undo').addEventListener('click', doUndo);
  $('redo').addEventListener('click', doRedo);
  $('hint').addEventListener('click', doHint);
  $('analysis').addEventListener('click', toggleAnalysis);
  $('review-open').addEventListener('click', openReview);
  $('review-record').addEventListener('click', openReview);
  for (const step of ['first', 'prev', 'next', 'last']) {
    $(`review-${step}`).addEventListener('click', () => showPly(ctl.reviewStep(state, step)));
  }
  $('review-slider').addEventListener('input', (e) => showPly(ctl.reviewStep(state, e.target.value)));
  $('review-graph').addEventListener('pointerup', onGraphTap);
  $('review-cancel').addEventListener('click', cancelReview);
  $('review-close').addEventListener('click', closeReview);
  document.addEventListener('keydown', onReviewKey);
  $('board').addEventListener('pointerdown', onBoardSwipeStart);
  $('board').addEventListener('pointerup', onBoardSwipeEnd);
  $('board').addEventListener('pointercancel', () => {
    swipeFrom = null;
  });
  $('new-game').addEventListener('click', onNewGameButton);
  $('settings').addEventListener('click', openSettings);
  $('place').addEventListener('click', () => place(state.pending));
  for (const button of document.querySelectorAll('#swap-row .swap-btn')) {
    button.addEventListener('click', () => chooseOpening(button.dataset.choice));
  }
  $('play-again').addEventListener('click', doNewGame);
  $('gameover-undo').addEventListener('click', doUndo);
  $('apply-new-game').addEventListener('click', () => {
    sheets.close('settings-sheet');
    doNewGame();
  });
  const openHelp = () => {
    fillHelp(state.view?.rule ?? state.settings?.rule ?? 'freestyle', state.view?.swap?.rule);
    sheets.open('help-sheet');
  };
  $('open-help').addEventListener('click', openHelp);
  $('help').addEventListener('click', openHelp);
  $('copy-moves').addEventListener('click', () => copyRecord('moves', showError));
  $('copy-sgf').addEventListener('click', () => copyRecord('sgf', showError));
  bindSheetMessages();
  $('import-record').addEventListener('click', importRecord);
  const form = $('settings-form');
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('change', (e) => {
    if (e.target.id === 'record-text') return;
    saveSettings(readSettings(state.settings));
  });

  bindEditor();

  coarse.addEventListener('change', render);
  bindClock();
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', suspend);
}

async function start() {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform ?? '');
  for (const kbd of document.querySelectorAll('kbd[data-keys]')) kbd.textContent = `${mac ? '⌘' : 'Ctrl+'}${kbd.dataset.keys}`;
  setLanguage('system');
  translateStatic();
  board = createBoard($('board'), {
    label(point, stone, forbidden) {
      const p = point.toUpperCase();
      if (stone) return t('cellStone', { point: p, color: t(`${stone}Lower`) });
      return t(forbidden ? 'cellForbidden' : 'cellEmpty', { point: p });
    },
  });
  sheets = createSheets({ onBackAtRoot, onClose: onSheetClosed });
  bindUi();
  try {
    const s = await api.getState();
    state.settings = s.settings;
    setRenjuOpenings(s.renjuOpenings);
    state.stats = s.stats;
    applyPreferences();
    applyView(s.game);
    if (s.notices?.length) toast(s.notices.map((code) => t(`notice_${code}`)).join(' '));
    syncClockPause();
  } catch (err) {
    state.flash = errorText(err);
    render();
  }
  document.documentElement.dataset.ready = 'true';
  // For start-up measurements (e.g. the desktop E2E): the first board is on screen after this.
  performance.mark('wuzi-ready');
}

start();
