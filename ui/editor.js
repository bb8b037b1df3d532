// The position editor (issue 10 §5) without a DOM: the stones being set up, the tool in hand,
// the side to move, rule and size; what a tap does; what goes to the shell. The referee in the
// shell (`check_setup` / `start_setup`) decides whether a position may start a game; this module
// only words its answer. ui-tests/controller.test.mjs runs it under node.

import { t } from './i18n.js';
import { fromRif, toRif } from './coords.js';

/** Board sizes the editor offers (the settings' sizes); another size in use is offered too. */
export const EDITOR_SIZES = [13, 15, 19];

/** The editor's tools: a stone of either colour, or the eraser. */
export const TOOLS = ['black', 'white', 'erase'];

/** An empty board of `size` under `rule`, black to move, black in hand. */
export function createEditor(rule, size) {
  return { rule, size, stones: new Array(size * size).fill(''), tool: 'black', toMove: 'black', refused: null };
}

/**
 * The editor opened on a position: `view` (a GameView, or the position shown in review) with
 * its set-up stones and moves; the side to move is the position's (black after a finished game
 * black won is white's turn, as the alternation says).
 */
export function fromView(view) {
  const ed = createEditor(view.rule, view.size);
  const put = (point, color) => {
    const p = fromRif(point, view.size);
    if (p) ed.stones[p.row * view.size + p.col] = color;
  };
  for (const color of ['black', 'white']) for (const point of view.setup?.[color] ?? []) put(point, color);
  const first = view.setup?.toMove ?? 'black';
  view.moves.forEach((point, k) => put(point, k % 2 ? other(first) : first));
  ed.toMove = view.moves.length % 2 ? other(first) : first;
  return ed;
}

function other(color) {
  return color === 'black' ? 'white' : 'black';
}

/**
 * What a tap at `index` does with the tool in hand: a stone on an empty point or over the other
 * colour, the same colour again takes it off (so a mistaken tap is undone by a second one); the
 * eraser empties the point. Returns a new editor; a refusal shown before is cleared.
 */
export function tap(ed, index) {
  if (index < 0 || index >= ed.stones.length) return ed;
  const stones = [...ed.stones];
  stones[index] = ed.tool === 'erase' || stones[index] === ed.tool ? '' : ed.tool;
  return { ...ed, stones, refused: null };
}

/** The board emptied; rule, size, tool and side to move stay. */
export function clear(ed) {
  return { ...ed, stones: new Array(ed.size * ed.size).fill(''), refused: null };
}

/**
 * The position moved to a board of `size`, centre on centre (15 → 19 puts h8 on k10), as a
 * player copying a diagram would. Stones that fall off a smaller board are dropped and counted.
 */
export function resize(ed, size) {
  if (size === ed.size) return { editor: ed, dropped: 0 };
  const shift = Math.trunc((size - ed.size) / 2);
  const stones = new Array(size * size).fill('');
  let dropped = 0;
  ed.stones.forEach((stone, i) => {
    if (!stone) return;
    const col = (i % ed.size) + shift;
    const row = Math.floor(i / ed.size) + shift;
    if (col < 0 || row < 0 || col >= size || row >= size) dropped++;
    else stones[row * size + col] = stone;
  });
  return { editor: { ...ed, size, stones, refused: null }, dropped };
}

/** The stones of each colour. */
export function counts(ed) {
  let black = 0;
  let white = 0;
  for (const s of ed.stones) {
    if (s === 'black') black++;
    else if (s === 'white') white++;
  }
  return { black, white };
}

/** The position as `check_setup` / `start_setup` take it. */
export function request(ed) {
  const out = { rule: ed.rule, size: ed.size, black: [], white: [], toMove: ed.toMove };
  ed.stones.forEach((stone, i) => {
    if (stone) out[stone].push(toRif(i % ed.size, Math.floor(i / ed.size), ed.size));
  });
  return out;
}

/** The board drawn while editing: the stones, no numbers; a refused line marked like a win. */
export function boardModel(ed, { press = -1, pressType = '', hover = -1, cursor = -1 } = {}) {
  const n = ed.size;
  const chosen = [press, hover, cursor].find((i) => i >= 0) ?? -1;
  const stoneTool = ed.tool !== 'erase';
  const refusedAt = (ed.refused?.points ?? []).map((p) => {
    const q = fromRif(p, n);
    return q ? q.row * n + q.col : -1;
  });
  return {
    size: n,
    stones: ed.stones,
    order: new Array(n * n).fill(0),
    numbers: false,
    last: -1,
    forbidden: new Map(),
    win: refusedAt.filter((i) => i >= 0),
    ghost: stoneTool && chosen >= 0 && ed.stones[chosen] !== ed.tool ? { index: chosen, color: ed.tool } : null,
    cross: press >= 0 && pressType !== 'mouse' ? press : -1,
    hint: -1,
    pv: [],
    candidates: [],
    better: null,
  };
}

/** The status line while editing: what a tap does now. */
export function statusText(ed) {
  // The full reason is under the palette (#edit-message): the status line is one line.
  if (ed.refused) return t('err_badSetup');
  return t(ed.tool === 'erase' ? 'editTapErase' : 'editTapPlace', { color: t(`${ed.tool}Lower`) });
}

/** The small print under it: the stones of each side (the rule and size are the editor's own menus). */
export function metaText(ed) {
  const c = counts(ed);
  return t('editMeta', { black: c.black, white: c.white });
}

/** The referee's refusal (`badSetup` from the shell) in the player's language. */
export function refusalText(err) {
  const points = (err.points ?? []).map((p) => p.toUpperCase());
  const line = points.length ? `${points[0]}–${points.at(-1)}` : '';
  const color = err.color ? t(err.color) : '';
  switch (err.reason) {
    case 'five':
      return t(points.length > 5 ? 'setupLongRow' : 'setupFive', { color, line, n: points.length });
    case 'overline':
      return t('setupOverline', { line, n: points.length });
    case 'duplicate':
      return t('setupDuplicate', { point: points[0] ?? '' });
    case 'offBoard':
      return t('setupOffBoard', { color: err.color ? t(`${err.color}Lower`) : '' });
    default:
      // A reason this UI has no words for: its own generic words, never the shell's English text.
      return t('err_badSetup');
  }
}
