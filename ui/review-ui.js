// Game review: step through the game (buttons, slider, graph, keys, swipe), every move classified
// with the engine's better move on the board. The review runs in the shell with progress on a
// channel; the finished one comes with the GameView (and is kept in the save). Its state is
// `state.review` (the ply shown, the run under way and its serial, the graph drawn, a swipe).

import * as api from './api.js';
import { t } from './i18n.js';
import * as ctl from './controller.js';

const $ = (id) => document.getElementById(id);
const GRAPH_W = 300;
const GRAPH_H = 56;
const SVG_NS = 'http://www.w3.org/2000/svg';
// Review on the desktop: ← → step, Home / End jump (not while typing, nor on the board, whose
// arrows move the focus cursor); on a touch screen a horizontal swipe across the board steps.
const REVIEW_KEYS = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };

export function createReview(app) {
  const { state } = app;
  const r = state.review;

  function render() {
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
    const p = ctl.reviewProgress(r.progress);
    const progress = $('review-progress');
    const text = p ? t('reviewProgress', { done: p.done, total: p.total }) : '';
    if (progress.textContent !== text) progress.textContent = text;
    progress.toggleAttribute('data-done', !!p && p.done === p.total && !r.running);
    $('review-cancel').hidden = !r.running;
    drawGraph();
  }

  function drawGraph() {
    const g = ctl.reviewGraph(state, GRAPH_W, GRAPH_H);
    const svg = $('review-graph');
    const key = g ? `${state.view.gameId}:${g.n}:${g.cursor}:${state.view.review.blackChances.join()}` : '';
    if (key === r.graphKey) return;
    r.graphKey = key;
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
    r.ply = ply;
    app.game.render();
  }

  function open() {
    const v = state.view;
    if (!ctl.canReview(v) || state.busy || state.thinking) return;
    app.sheets.close('gameover-sheet');
    app.sheets.close('settings-sheet');
    state.pending = -1;
    state.hint = null;
    r.ply = v.moves.length;
    app.game.render();
    if (!v.review && !r.running) run();
  }

  function run() {
    const v = state.view;
    const serial = ++r.serial;
    r.running = true;
    r.progress = { done: 0, total: v.moves.length + 1 };
    app.game.render();
    api
      .startReview(v.gameId, v.moveNumber, (p) => {
        if (serial !== r.serial || p.gameId !== state.view?.gameId) return;
        r.progress = p;
        app.game.renderPanel();
      })
      .then(
        (view) => {
          if (serial !== r.serial) return;
          r.running = false;
          app.game.applyView(view);
        },
        (err) => {
          if (serial !== r.serial) return;
          r.running = false;
          r.progress = null;
          app.game.render();
          if (err.code !== 'cancelled' && err.code !== 'stale') app.ui.showError(err);
        },
      );
  }

  function cancel() {
    if (!r.running) return;
    r.serial++;
    r.running = false;
    r.progress = null;
    api.cancelReview().catch(() => null);
    app.game.render();
  }

  function close() {
    cancel();
    r.ply = null;
    app.game.render();
  }

  function onKey(e) {
    if (!ctl.inReview(state) || e.altKey || e.ctrlKey || e.metaKey || !(e.key in REVIEW_KEYS)) return;
    const target = e.target;
    if (target instanceof HTMLElement && (target.closest('#board') || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (app.sheets.anyOpen()) return;
    e.preventDefault();
    showPly(ctl.reviewStep(state, REVIEW_KEYS[e.key]));
  }

  function onSwipeStart(e) {
    r.swipeFrom = ctl.inReview(state) && e.isPrimary ? { x: e.clientX, y: e.clientY } : null;
  }

  function onSwipeEnd(e) {
    const from = r.swipeFrom;
    r.swipeFrom = null;
    if (!from || !ctl.inReview(state)) return;
    const step = ctl.swipeStep(e.clientX - from.x, e.clientY - from.y, $('board').clientWidth);
    if (step) showPly(ctl.reviewStep(state, step));
  }

  function onGraphTap(e) {
    const box = $('review-graph').getBoundingClientRect();
    const n = state.view?.moves.length ?? 0;
    if (!box.width) return;
    showPly(ctl.plyAt((e.clientX - box.left) / box.width, n));
  }

  function bind() {
    $('review-open').addEventListener('click', open);
    $('review-record').addEventListener('click', open);
    for (const step of ['first', 'prev', 'next', 'last']) {
      $(`review-${step}`).addEventListener('click', () => showPly(ctl.reviewStep(state, step)));
    }
    $('review-slider').addEventListener('input', (e) => showPly(ctl.reviewStep(state, e.target.value)));
    $('review-graph').addEventListener('pointerup', onGraphTap);
    $('review-cancel').addEventListener('click', cancel);
    $('review-close').addEventListener('click', close);
    document.addEventListener('keydown', onKey);
    $('board').addEventListener('pointerdown', onSwipeStart);
    $('board').addEventListener('pointerup', onSwipeEnd);
    $('board').addEventListener('pointercancel', () => {
      r.swipeFrom = null;
    });
  }

  return { render, open, cancel, close, bind };
}
