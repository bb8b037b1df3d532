// The UI's logic without a DOM: the state the wiring keeps, the board model it draws, the status
// line and the words for refusals. Every function takes the state (and whether the pointer is
// coarse, i.e. a touch screen) as arguments, so ui-tests/controller.test.mjs runs it under node.

import { t, verdict as verdictText } from './i18n.js';
import { fromRif } from './coords.js';

/** A fresh UI state: nothing shown yet, nothing in flight. */
export function createState() {
  return {
    view: null,
    settings: null,
    stats: null,
    epoch: 0,
    thinking: false,
    hinting: false,
    busy: false,
    optimistic: null, // { index, color }
    pending: -1, // confirm mode: chosen point awaiting a second tap
    press: -1, // point under a pressed pointer
    pressType: '',
    hover: -1, // point under a mouse that is not pressed
    cursor: -1, // keyboard cursor
    hint: null, // { index, point, verdict }
    flash: '',
    resultShown: '',
    computerRetries: 0,
  };
}

/** The board index of a RIF point, or -1. */
export function indexOf(point, size) {
  const p = fromRif(point, size);
  return p ? p.row * size + p.col : -1;
}

export function boardModel(state, coarse = false) {
  const v = state.view;
  const n = v.size;
  const stones = new Array(n * n).fill('');
  const order = new Array(n * n).fill(0);
  let last = -1;
  v.moves.forEach((move, k) => {
    const i = indexOf(move, n);
    if (i < 0) return;
    stones[i] = k % 2 ? 'white' : 'black';
    order[i] = k + 1;
    last = i;
  });
  const forbidden = new Map();
  if (state.optimistic) {
    stones[state.optimistic.index] = state.optimistic.color;
    order[state.optimistic.index] = v.moves.length + 1;
    last = state.optimistic.index;
  } else if (!v.result && v.toMove === 'black') {
    for (const f of v.forbidden ?? []) {
      const i = indexOf(f.point, n);
      if (i >= 0) forbidden.set(i, f.reason);
    }
  }
  const chosen = [state.press, state.pending, state.hover, state.cursor].find((i) => i >= 0) ?? -1;
  const canPlay = humanCanPlay(state);
  return {
    size: n,
    stones,
    order,
    numbers: !!state.settings?.moveNumbers,
    last,
    forbidden,
    win: (v.result?.line ?? []).map((p) => indexOf(p, n)).filter((i) => i >= 0),
    ghost: canPlay && chosen >= 0 && !forbidden.has(chosen) ? { index: chosen, color: v.toMove } : null,
    cross: canPlay && state.press >= 0 && state.pressType !== 'mouse' ? state.press : -1,
    hint: state.hint?.index ?? -1,
  };
}

export function humanCanPlay(state) {
  const v = state.view;
  return !!v && !v.result && !v.computerToMove && !state.thinking && !state.busy;
}

export function confirmMode(state, coarse = false) {
  const c = state.settings?.confirmMove ?? 'auto';
  return c === 'on' || (c === 'auto' && coarse);
}

export function colourName(color) {
  return t(color);
}

export function resultText(result) {
  if (!result.winner) return t(result.reason === 'no-legal-move' ? 'drawNoMove' : 'draw');
  return t('wins', {
    color: colourName(result.winner),
    reason: t(result.reason === 'overline' ? 'reasonOverline' : 'reasonFive'),
  });
}

export function statusText(state, coarse = false) {
  const v = state.view;
  if (state.flash) return state.flash;
  if (!v) return '';
  if (v.result) return resultText(v.result);
  if (state.thinking || (state.busy && state.optimistic && v.mode === 'computer')) return t('thinking');
  if (state.hinting) return t('hinting');
  if (state.hint) {
    const verdict = verdictText(state.hint.verdict);
    return state.hint.point ? t('hintText', { point: state.hint.point.toUpperCase(), verdict }) : t('hintNone', { verdict });
  }
  if (v.computerToMove) return t('computersMove');
  if (state.pending >= 0 && confirmMode(state, coarse)) return t('tapAgain');
  if (v.mode === 'computer') return t('yourMove');
  return t('toMove', { color: colourName(v.toMove) });
}

export function other(color) {
  return color === 'black' ? 'white' : 'black';
}

export function errorText(err) {
  if (err.code === 'forbidden') {
    const known = ['double-three', 'double-four', 'overline'].includes(err.reason);
    return known ? t('forbiddenMove', { reason: t(err.reason) }) : t('err_forbidden');
  }
  const key = `err_${err.code}`;
  const text = t(key);
  return text === key ? err.message : text;
}

/** Why the point at `index` cannot take a stone, or '' if it can. */
export function refusal(state, index) {
  const m = boardModel(state);
  if (m.stones[index]) return t('err_occupied');
  if (m.forbidden.has(index)) return t('forbiddenMove', { reason: t(m.forbidden.get(index)) });
  return '';
}
