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
    // Analysis mode: the toggle, the latest analysis asked for and its latest round; `serial`
    // numbers the starts, so a round of an older start is dropped.
    analysis: { on: false, key: '', generation: 0, update: null, serial: 0 },
    // Review: the ply shown (null: the live game), and the game's review while or once made;
    // `serial` numbers the runs, `graphKey` what the graph shows, `swipeFrom` a swipe under way.
    review: { ply: null, running: false, progress: null, serial: 0, graphKey: '', swipeFrom: null },
    // Position editor (editor.js): the position being set up, a check in flight (numbered by
    // `editorSerial`), and the accepted position waiting for the player's choice of how to play it.
    editor: null,
    editorBusy: false,
    editorSerial: 0,
    setupPending: null,
    // Game clock (clock-ui.js): the latest clock from the shell (`sync`: the clock, the side whose
    // time runs, the position it is for and when it came), the pause last sent, the last flag check.
    clock: { sync: null, pausedSent: false, flagAskedAt: -Infinity },
    // Settings (settings-ui.js): the latest save asked for, and the game and game settings the
    // sheet was opened on (null while it is closed).
    settingsSerial: 0,
    settingsOpenedOn: null,
    // New game mid-game needs a second tap before this time (performance.now()).
    newGameArmedUntil: 0,
    // Timers of the status line's notice, the toast and the back button's second press.
    timers: { flash: 0, toast: 0, exit: 0 },
  };
}

/** Proven wins and losses score beyond this (the engine's MATE_BOUND). */
export const MATE = 30000;
const MATE_BOUND = MATE - 1000;

/** How many plies of the principal variation are drawn as numbered ghost stones. */
export const PV_SHOWN = 10;

/** The number of moves on the board as shown: an earlier ply in review, else the whole game. */
export function shownPly(state) {
  const v = state.view;
  if (!v) return 0;
  const ply = state.review.ply;
  return ply === null ? v.moves.length : Math.max(0, Math.min(ply, v.moves.length));
}

/** Whether an earlier position of the game is on screen (review), not the live one. */
export function inReview(state) {
  return !!state.view && state.review.ply !== null;
}

/** The view as drawn: in review, the game cut at the ply shown (no result or forbidden points before the end). */
export function shownView(state) {
  const v = state.view;
  if (!inReview(state)) return v;
  const ply = shownPly(state);
  if (ply === v.moves.length) return v;
  return { ...v, moves: v.moves.slice(0, ply), moveNumber: ply, toMove: moveColor(v, ply), result: null, forbidden: [] };
}

/** Who plays move `k + 1` (0-based `k`): moves alternate from the set-up position's side to move, black on an empty board. */
export function moveColor(view, k) {
  const first = view.setup?.toMove ?? 'black';
  return k % 2 ? other(first) : first;
}

/** Whether the game has stones on the board: moves, or a set-up position (issue 10 §5). */
export function hasStones(view) {
  return !!view && (view.moves.length > 0 || !!view.setup);
}

/** The settings that make a game (not the feel or the language), as a key to compare two states by. */
export function gameSettingsKey(settings) {
  if (!settings) return '';
  const names = ['mode', 'humanColor', 'level', 'rule', 'size', 'renjuOpening', 'openingRule', 'clockMinutes', 'clockIncrement'];
  return names.map((name) => String(settings[name] ?? '')).join('|');
}

/** Whether an analysis round belongs to what is on screen now. */
export function acceptAnalysis(state, update) {
  const a = state.analysis;
  const v = state.view;
  if (!a.on || !v || !update) return false;
  if (a.generation && update.generation !== a.generation) return false;
  return update.gameId === v.gameId && update.moveNumber === shownPly(state);
}

// ---------------------------------------------------------------------------------------------
// Game review (issue 10 §2): the review itself comes with the GameView (`view.review`).

/**
 * Whether the game can be reviewed: any game with moves, finished or not, loaded or played, against
 * the computer or not (the shell counts a game reviewed mid-play against the computer as analysed).
 */
export function canReview(view) {
  return !!view && view.moves.length > 0;
}

/** The ply shown after a step: 'first' | 'prev' | 'next' | 'last', or a number (slider, graph). */
export function reviewStep(state, step) {
  const n = state.view?.moves.length ?? 0;
  const at = shownPly(state);
  const to = step === 'first' ? 0 : step === 'prev' ? at - 1 : step === 'next' ? at + 1 : step === 'last' ? n : Number(step);
  return Math.max(0, Math.min(n, Number.isFinite(to) ? Math.round(to) : at));
}

/**
 * A swipe across the board in review: a mostly horizontal move of at least a fifth of the
 * board's width steps back (to the right, as pages turn) or forward (to the left); '' otherwise.
 */
export function swipeStep(dx, dy, width) {
  if (Math.abs(dx) < width / 5 || Math.abs(dx) < 2 * Math.abs(dy)) return '';
  return dx > 0 ? 'prev' : 'next';
}

/**
 * The review's progress in moves judged ("12 / 47"): the shell counts positions searched (moves
 * + 1), and a move is judged once the positions before and after it are.
 */
export function reviewProgress(progress) {
  if (!progress) return null;
  const moves = Math.max(0, progress.total - 1);
  return { done: Math.min(moves, Math.max(0, progress.done - 1)), total: moves };
}

/** The ply under a tap at `fraction` (0..1) of the graph's width. */
export function plyAt(fraction, n) {
  return Math.max(0, Math.min(n, Math.round(fraction * n)));
}

/** Classes worth a mark on the graph. */
const MARKED = new Set(['inaccuracy', 'mistake', 'blunder', 'missed-win']);

/**
 * The evaluation graph in a `width` × `height` box: black's chances as a filled area (black
 * below), one tick per marked move and the cursor at the ply shown.
 */
export function reviewGraph(state, width, height) {
  const r = state.view?.review;
  if (!r) return null;
  const n = r.moves.length;
  const x = (ply) => (n ? (ply / n) * width : 0);
  const y = (permille) => height - (permille / 1000) * height;
  const points = r.blackChances.map((c, ply) => `${x(ply).toFixed(2)},${y(c).toFixed(2)}`);
  return {
    area: `M0,${height} L${points.join(' L')} L${width},${height} Z`,
    ticks: r.moves.filter((m) => MARKED.has(m.class)).map((m) => ({ ply: m.ply, x: x(m.ply), cls: m.class })),
    cursor: x(shownPly(state)),
    n,
  };
}

/** The reviewed move that led to the position shown, and the engine's better move, as words and a board mark. */
export function reviewMoveInfo(state) {
  const v = state.view;
  const ply = shownPly(state);
  const total = v?.moves.length ?? 0;
  const where = ply === 0 ? t('reviewStartPos', { total }) : t('reviewPly', { ply, total });
  const m = v?.review?.moves[ply - 1];
  if (!m) return { text: where, better: null, cls: '' };
  const parts = [t('reviewMove', { ply, color: t(m.color), point: m.point.toUpperCase(), class: t(`class_${m.class}`) })];
  // A move that held out as long as any in a lost position has nothing better to show.
  const better = m.best && m.best !== m.point && m.class !== 'best' && m.class !== 'lost' ? m.best : null;
  if (better) parts.push(t('reviewBetter', { point: better.toUpperCase() }));
  return { text: parts.join(' · '), better: better ? { index: indexOf(better, v.size), label: '' } : null, cls: m.class };
}

/** A score from black's point of view as text: "+125", "−40", "+M9" (black wins in 9). */
export function formatScore(score) {
  const sign = score > 0 ? '+' : score < 0 ? '−' : '';
  const a = Math.abs(score);
  return a > MATE_BOUND ? `${sign}M${MATE - a}` : `${sign}${a}`;
}

/** Nodes per second in short: 950, 12k, 1.3M. */
export function formatNps(nps) {
  if (nps >= 1e6) return `${(nps / 1e6).toFixed(1)}M`;
  if (nps >= 1e4) return `${Math.round(nps / 1e3)}k`;
  return String(Math.round(nps));
}

/** A candidate's label, for the side to move: its expected score in %, or "M9" for a proven win ("−M9" lost). */
export function candidateLabel(line) {
  if (Math.abs(line.score) > MATE_BOUND) return `${line.score > 0 ? '' : '−'}M${MATE - Math.abs(line.score)}`;
  return `${Math.round(line.win * 100)}%`;
}

/** Whether a line's score is a proven loss for the side to move. */
const provenLoss = (line) => line.score < -MATE_BOUND;

/**
 * Whether the best line is the only move: it is not a proven loss, and every other line the
 * engine ranked is (or there is none: against a five threat only the block is a line).
 */
export function onlyMove(lines) {
  return lines.length > 0 && !provenLoss(lines[0]) && lines.slice(1).every(provenLoss);
}

/** The analysis drawn on the board: the best line as numbered ghost stones, the candidates ringed. */
export function analysisMarks(state) {
  const u = state.analysis.update;
  const none = { pv: [], candidates: [] };
  if (!u || !acceptAnalysis(state, u)) return none;
  const n = state.view.size;
  const best = u.lines[0];
  const pv = (best?.pv ?? []).slice(0, PV_SHOWN).map((point, k) => ({
    index: indexOf(point, n),
    n: k + 1,
    color: k % 2 ? other(u.toMove) : u.toMove,
  }));
  // The only move says so, unless it is a proven win ("M9" says more).
  const only = onlyMove(u.lines) && Math.abs(u.lines[0].score) <= MATE_BOUND;
  const candidates = u.lines.map((line, k) => ({ index: indexOf(line.point, n), rank: k + 1, label: k === 0 && only ? t('onlyMove') : candidateLabel(line) }));
  return { pv: pv.filter((m) => m.index >= 0), candidates: candidates.filter((m) => m.index >= 0) };
}

/**
 * The evaluation panel: black's score and winning chances, the verdict in words and the small
 * print, or a state without numbers (starting, paused, over) — or null when analysis is off.
 */
export function evalModel(state) {
  const a = state.analysis;
  const v = shownView(state);
  if (!a.on || !v) return null;
  if (v.result) {
    const score = v.result.winner === 'black' ? MATE : v.result.winner === 'white' ? -MATE : 0;
    return { score, win: v.result.winner === 'black' ? 1 : v.result.winner === 'white' ? 0 : 0.5, text: formatScore(score), verdict: resultText(v.result), info: t('analysisOver') };
  }
  const u = a.update;
  if (!u || !acceptAnalysis(state, u)) {
    const paused = !inReview(state) && (v.computerToMove || state.thinking);
    return { score: null, win: 0.5, text: '', verdict: '', info: t(paused ? 'analysisPaused' : 'analysisStarting') };
  }
  return {
    score: u.blackScore,
    win: u.blackWin,
    text: formatScore(u.blackScore),
    verdict: u.lines[0] ? verdictText(u.lines[0].verdict) : '',
    info: t(u.done ? 'analysisDone' : 'analysisInfo', { depth: u.depth, nps: formatNps(u.nps) }),
  };
}

/** The board index of a RIF point, or -1. */
export function indexOf(point, size) {
  const p = fromRif(point, size);
  return p ? p.row * size + p.col : -1;
}

export function boardModel(state, coarse = false) {
  const v = shownView(state);
  const n = v.size;
  const stones = new Array(n * n).fill('');
  const order = new Array(n * n).fill(0);
  let last = -1;
  for (const color of ['black', 'white']) {
    for (const point of v.setup?.[color] ?? []) {
      const i = indexOf(point, n);
      if (i >= 0) stones[i] = color;
    }
  }
  v.moves.forEach((move, k) => {
    const i = indexOf(move, n);
    if (i < 0) return;
    stones[i] = moveColor(v, k);
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
  const marks = analysisMarks(state);
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
    pv: marks.pv,
    candidates: marks.candidates,
    better: inReview(state) ? reviewMoveInfo(state).better : null,
  };
}

export function humanCanPlay(state) {
  const v = state.view;
  return !!v && !v.result && !v.computerToMove && !state.thinking && !state.busy && !inReview(state) && !openingChoiceDue(state);
}

export function confirmMode(state, coarse = false) {
  const c = state.settings?.confirmMove ?? 'auto';
  return c === 'on' || (c === 'auto' && coarse);
}

export function colourName(color) {
  return t(color);
}

/**
 * Who `color` is in the result of `view`: the colour, or, when a flag fell in a Swap / Swap2
 * opening phase (the colours not yet decided; the clock counts the opener as black), the role.
 */
export function sideName(view, color) {
  const inPhase = view?.swap && view.swap.stage !== 'done' && view.result?.reason === 'time';
  if (inPhase) return t(color === 'black' ? 'roleOpener' : 'roleChooser');
  return colourName(color);
}

export function resultText(result, view = null) {
  if (!result.winner) return t(result.reason === 'no-legal-move' ? 'drawNoMove' : 'draw');
  const reason = { overline: 'reasonOverline', time: 'reasonTime' }[result.reason] ?? 'reasonFive';
  return t('wins', { color: sideName(view ? { ...view, result } : null, result.winner), reason: t(reason) });
}

export function statusText(state, coarse = false) {
  const v = state.view;
  if (state.flash) return state.flash;
  if (!v) return '';
  if (inReview(state)) {
    const ply = shownPly(state);
    return ply === 0 ? t('reviewStartPos', { total: v.moves.length }) : t('reviewPly', { ply, total: v.moves.length });
  }
  if (v.result) return resultText(v.result, v);
  const opening = swapStatus(state, coarse);
  if (opening) return opening;
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
  // Only the UI's own words: the shell's message is English and for the log.
  const key = `err_${err.code}`;
  const text = t(key);
  return text === key ? t('err_unknown') : text;
}

/** Why the point at `index` cannot take a stone, or '' if it can. */
export function refusal(state, index) {
  const m = boardModel(state);
  if (m.stones[index]) return t('err_occupied');
  if (m.forbidden.has(index)) return t('forbiddenMove', { reason: t(m.forbidden.get(index)) });
  return '';
}

// ---------------------------------------------------------------------------------------------
// Swap and Swap2 (issue 10 §3): the opening phase comes with the GameView (`view.swap`); these
// say who does what while it lasts.

/** The opening phase of the game on screen while it decides who acts, else null. */
export function swapPhase(view) {
  const s = view?.swap;
  return s && s.stage !== 'done' && !view.result ? s : null;
}

/** A choice (not a stone) is due from the player at the device. */
export function openingChoiceDue(state) {
  const s = swapPhase(state.view);
  return !!s && s.youAct && s.choices.length > 0;
}

/** The rule's name: "Swap2". */
export function openingRuleName(rule) {
  return t(`openingRule_${rule}`);
}

/** The status line in the opening phase ('' outside it, or while a stone is in flight). */
export function swapStatus(state, coarse = false) {
  const v = state.view;
  const s = swapPhase(v);
  if (!s || inReview(state) || state.hinting || state.hint) return '';
  if (state.pending >= 0 && confirmMode(state, coarse)) return '';
  if (!s.youAct) return t(s.stage === 'placeThree' ? 'swapComputerOpens' : 'swapComputerChooses');
  const local = v.mode !== 'computer';
  const n = v.moves.length + (state.optimistic ? 1 : 0);
  if (s.stage === 'placeThree' || s.stage === 'placeTwo') {
    const three = s.stage === 'placeThree';
    const k = three ? n + 1 : n - 2;
    if (k > (three ? 3 : 2)) return '';
    if (local) return t(three ? 'swapOpenerPlace' : 'swapChooserPlace', { n: k });
    return t('swapPlace', { n: k, total: three ? 3 : 2 });
  }
  const text = t(s.stage === 'chooseColour' ? 'swapChoose5' : s.choices.includes('placeTwo') ? 'swapChoose3Two' : 'swapChoose3');
  if (!local) return text;
  return t(s.actor === 'opener' ? 'swapOpener' : 'swapChooser', { text: text.replace(/^[^:：]*[:：]\s*/, '') });
}

/**
 * The opening bar under the board while the phase lasts: a line saying who does what, or the
 * choice buttons when the player at the device is to choose; null outside the phase.
 */
export function swapBar(state) {
  const v = state.view;
  const s = swapPhase(v);
  if (!s || inReview(state)) return null;
  const rule = openingRuleName(s.rule);
  if (openingChoiceDue(state)) {
    const after5 = s.stage === 'chooseColour';
    const labels = {
      black: { text: t('swapBlack'), label: t('swapBlack') },
      white: after5 ? { text: t('swapWhite'), label: t('swapWhiteLabel') } : { text: t('swapWhiteKeep'), label: t('swapWhiteKeepLabel') },
      placeTwo: { text: t('swapTwo'), label: t('swapTwoLabel') },
    };
    return { info: '', choices: s.choices.map((c) => ({ choice: c, ...labels[c] })), disabled: state.busy || state.thinking };
  }
  let key;
  if (v.mode !== 'computer') key = s.stage === 'placeTwo' ? 'swapInfoLocal2' : 'swapInfoLocal3';
  else if (s.youAct) key = s.stage === 'placeTwo' ? 'swapInfoYouTwo' : 'swapInfoYouOpen';
  else if (s.stage === 'placeThree') key = 'swapInfoComputer';
  else if (s.stage === 'placeTwo') key = 'swapInfoComputerTwo';
  else key = 'swapInfoWaiting';
  return { info: t(key, { rule }), choices: [], disabled: true };
}

/** What the computer's opening action decided, as a notice for the player ('' if nothing to tell). */
export function swapNotice(prev, view) {
  const before = prev?.swap;
  const after = view?.swap;
  if (!before || !after || view.mode !== 'computer' || before.stage === after.stage || prev.gameId !== view.gameId) return '';
  if (before.youAct || !['chooseAfterThree', 'chooseColour'].includes(before.stage)) return '';
  if (after.stage === 'chooseColour') return t('swapComputerTwo');
  if (after.stage !== 'done') return '';
  const yours = view.humanColor;
  return t('swapComputerTook', { color: t(`${other(yours)}Lower`), yours: t(`${yours}Lower`) });
}
