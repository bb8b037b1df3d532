// The UI's DOM-free logic (ui/controller.js) under node's own test runner: the board model,
// the status line and refusals, from plain state objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ctl from '../ui/controller.js';
import * as clock from '../ui/clock.js';
import * as editor from '../ui/editor.js';
import { setLanguage } from '../ui/i18n.js';
import { CODES, toAppError } from '../ui/api.js';
import { readFileSync } from 'node:fs';

// setLanguage records the language on <html> and reads the system's languages; node has no
// document (and no navigator before Node 21).
globalThis.document = { documentElement: {} };
globalThis.navigator ??= { languages: ['en'] };

const view = (over = {}) => ({
  gameId: 1, moveNumber: 0, size: 15, rule: 'freestyle', mode: 'local', level: 3, humanColor: 'black',
  moves: [], toMove: 'black', result: null, forbidden: [], canUndo: false, canRedo: false, computerToMove: false,
  ...over,
});
const stateWith = (over = {}) => Object.assign(ctl.createState(), { settings: { confirmMove: 'auto' } }, over);

test('indexOf maps RIF points row-major from the top and refuses the rest', () => {
  assert.equal(ctl.indexOf('a15', 15), 0);
  assert.equal(ctl.indexOf('o1', 15), 15 * 15 - 1);
  assert.equal(ctl.indexOf('h8', 15), 7 * 15 + 7);
  assert.equal(ctl.indexOf('p1', 15), -1);
  assert.equal(ctl.indexOf('a16', 15), -1);
});

test('the board model places stones in order, marks the last and the win', () => {
  const s = stateWith({ view: view({ moves: ['h8', 'i9', 'h9'], toMove: 'white' }) });
  const m = ctl.boardModel(s);
  assert.equal(m.stones[ctl.indexOf('h8', 15)], 'black');
  assert.equal(m.stones[ctl.indexOf('i9', 15)], 'white');
  assert.equal(m.order[ctl.indexOf('h9', 15)], 3);
  assert.equal(m.last, ctl.indexOf('h9', 15));
  assert.equal(m.stones.filter(Boolean).length, 3);
  const won = stateWith({ view: view({ result: { winner: 'black', reason: 'five', line: ['a1', 'b1'] } }) });
  assert.deepEqual(ctl.boardModel(won).win, [ctl.indexOf('a1', 15), ctl.indexOf('b1', 15)]);
});

test('forbidden points show only while black is to move and nothing is in flight', () => {
  const forbidden = [{ point: 'f10', reason: 'double-three' }];
  const black = stateWith({ view: view({ rule: 'renju', forbidden }) });
  assert.equal(ctl.boardModel(black).forbidden.get(ctl.indexOf('f10', 15)), 'double-three');
  assert.equal(ctl.refusal(black, ctl.indexOf('f10', 15)), 'Forbidden: double-three');
  const white = stateWith({ view: view({ rule: 'renju', forbidden, toMove: 'white' }) });
  assert.equal(ctl.boardModel(white).forbidden.size, 0);
  const inFlight = stateWith({ view: view({ rule: 'renju', forbidden }), optimistic: { index: 0, color: 'black' } });
  assert.equal(ctl.boardModel(inFlight).forbidden.size, 0);
  assert.equal(ctl.boardModel(inFlight).stones[0], 'black');
});

test('a ghost stone follows the chosen point only when the human may play', () => {
  const s = stateWith({ view: view(), cursor: 5 });
  assert.deepEqual(ctl.boardModel(s).ghost, { index: 5, color: 'black' });
  s.thinking = true;
  assert.equal(ctl.boardModel(s).ghost, null);
  assert.equal(ctl.humanCanPlay(s), false);
});

test('the status line, in order of precedence', () => {
  const s = stateWith({ view: view() });
  assert.equal(ctl.statusText(s), 'Black to move');
  s.view = view({ mode: 'computer' });
  assert.equal(ctl.statusText(s), 'Your move');
  s.pending = 3;
  assert.equal(ctl.statusText(s, false), 'Your move', 'a mouse places at once');
  assert.equal(ctl.statusText(s, true), 'Tap again to place', 'touch confirms by default');
  s.hint = { index: 0, point: 'h8', verdict: { kind: 'better', color: 'white', plies: null, byFours: false } };
  assert.equal(ctl.statusText(s), 'Hint: H8 — white is better');
  s.thinking = true;
  assert.equal(ctl.statusText(s), 'Thinking…');
  s.view = view({ result: { winner: null, reason: 'no-legal-move', line: [] } });
  assert.equal(ctl.statusText(s), 'Draw — black has no legal move');
  s.flash = 'Busy — try again';
  assert.equal(ctl.statusText(s), 'Busy — try again');
});

test('refusals are worded from codes, never from the message', () => {
  assert.equal(ctl.errorText({ code: 'forbidden', reason: 'double-four', message: 'anything' }), 'Forbidden: double-four');
  assert.equal(ctl.errorText({ code: 'forbidden', message: 'h8 is forbidden for black (overline)' }), 'Forbidden move');
  assert.equal(ctl.errorText({ code: 'occupied', message: 'x' }), 'That point is taken');
  assert.equal(ctl.errorText({ code: 'somethingNew', message: 'raw text' }), 'Something went wrong');
  assert.equal(ctl.errorText({ code: 'internal', message: 'internal error' }), 'Something went wrong');
});

test('every code of the shell has the UI\'s own words in both languages; others a generic text', () => {
  // The codes Error::code() gives (core/src/error.rs), read from the source: a code added
  // there without words here fails this test.
  const rust = readFileSync(new URL('../core/src/error.rs', import.meta.url), 'utf8');
  const body = rust.slice(rust.indexOf('pub fn code(&self)'), rust.indexOf('pub fn from_setup'));
  const shell = [...body.matchAll(/=> "(\w+)"/g)].map((m) => m[1]);
  assert.ok(shell.length >= 16, `codes read from error.rs: ${shell}`);
  assert.deepEqual([...CODES].sort(), [...shell].sort(), 'api.js knows every code of the shell');
  try {
    for (const lang of ['en', 'zh-CN']) {
      setLanguage(lang);
      for (const code of shell) {
        const text = ctl.errorText({ code, message: 'RAW SHELL TEXT' });
        assert.ok(text && !text.includes('err_') && !text.includes('RAW'), `${lang} ${code}: ${text}`);
        if (lang === 'zh-CN') assert.match(text, /[\u4e00-\u9fff]/, `${code} in Chinese: ${text}`);
      }
      const generic = ctl.errorText(toAppError({ code: 'brandNew', message: 'RAW SHELL TEXT' }));
      assert.equal(generic, lang === 'en' ? 'Something went wrong' : '出错了');
      assert.equal(ctl.errorText(toAppError('a string from the webview')), generic);
    }
  } finally {
    setLanguage('en');
  }
  assert.deepEqual(toAppError({ code: 'brandNew', message: 'x' }), { code: 'unknown', message: 'x' });
  assert.equal(toAppError({ code: 'busy', message: 'x' }).code, 'busy');
});

test('only the settings that make a game are in its key', () => {
  const base = { mode: 'computer', humanColor: 'black', level: 3, rule: 'freestyle', size: 15, clockMinutes: 0, theme: 'light' };
  assert.equal(ctl.gameSettingsKey(base), ctl.gameSettingsKey({ ...base, theme: 'dark', language: 'zh-CN' }));
  for (const change of [{ rule: 'renju' }, { size: 19 }, { level: 4 }, { clockMinutes: 5 }, { openingRule: 'swap2' }, { renjuOpening: '4D' }]) {
    assert.notEqual(ctl.gameSettingsKey(base), ctl.gameSettingsKey({ ...base, ...change }), JSON.stringify(change));
  }
});

test('Chinese words the same data', () => {
  setLanguage('zh-CN');
  try {
    const s = stateWith({ view: view(), hint: { index: 0, point: 'h8', verdict: { kind: 'wins', color: 'black', plies: 9, byFours: true } } });
    assert.equal(ctl.statusText(s), '提示：H8 — 黑方连续冲四 9 手胜');
  } finally {
    setLanguage('en');
  }
});

// Analysis mode (issue 10 §1): which rounds are shown, how they are drawn and worded.
const update = (over = {}) => ({
  generation: 3, gameId: 1, moveNumber: 1, toMove: 'white', round: 1, done: false, depth: 7, nodes: 90000,
  nps: 600000, elapsedMs: 150, blackScore: 140, blackWin: 0.67,
  lines: [
    { point: 'i9', score: -140, blackScore: 140, win: 0.33, depth: 7, verdict: { kind: 'better', color: 'black', plies: null, byFours: false }, pv: ['i9', 'j10', 'g7'] },
    { point: 'g9', score: -200, blackScore: 200, win: 0.27, depth: 7, verdict: { kind: 'better', color: 'black', plies: null, byFours: false }, pv: ['g9'] },
    { point: 'h9', score: -29991, blackScore: 29991, win: 0, depth: 7, verdict: { kind: 'wins', color: 'black', plies: 9, byFours: true }, pv: ['h9'] },
  ],
  ...over,
});
const analysing = (over = {}) =>
  stateWith({ view: view({ moves: ['h8'], moveNumber: 1, toMove: 'white' }), analysis: { on: true, key: 'k', generation: 3, update: update() }, ...over });

test('an analysis round is shown only for the analysis asked for and the position on screen', () => {
  assert.equal(ctl.acceptAnalysis(analysing(), update()), true);
  assert.equal(ctl.acceptAnalysis(analysing(), update({ generation: 2 })), false, 'an older generation');
  assert.equal(ctl.acceptAnalysis(analysing(), update({ moveNumber: 0 })), false, 'another position');
  assert.equal(ctl.acceptAnalysis(analysing(), update({ gameId: 2 })), false, 'another game');
  const off = analysing();
  off.analysis.on = false;
  assert.equal(ctl.acceptAnalysis(off, update()), false, 'analysis is off');
  // Before start_analysis answers, the generation is not known yet: the position decides.
  const early = analysing();
  early.analysis.generation = 0;
  assert.equal(ctl.acceptAnalysis(early, update({ generation: 9 })), true);
  // In review the position shown is an earlier ply.
  const review = analysing();
  review.review.ply = 0;
  assert.equal(ctl.acceptAnalysis(review, update()), false);
  assert.equal(ctl.acceptAnalysis(review, update({ moveNumber: 0 })), true);
});

test('the only move says so; losing candidates keep their moves to the loss, longest first', () => {
  const labels = (lines) => {
    const s = analysing();
    s.analysis.update.lines = lines.map(([point, score]) => ({ point, score, blackScore: -score, win: 1 / (1 + Math.exp(-score / 200)), depth: 7, verdict: { kind: 'even', color: null, plies: null, byFours: false }, pv: [point] }));
    return ctl.boardModel(s).candidates.map((c) => c.label);
  };
  // A forced block comes alone (the engine ranks no other move against a five threat).
  assert.deepEqual(labels([['l10', 290]]), ['only move']);
  // Every other line the engine ranked loses.
  assert.deepEqual(labels([['l10', 290], ['g10', -29988], ['k11', -29994]]), ['only move', '−M12', '−M6']);
  assert.equal(ctl.onlyMove([{ score: 290 }, { score: -29988 }]), true);
  // Not when another line holds, nor when the best line itself loses or is a proven win.
  assert.deepEqual(labels([['l10', 290], ['g10', -100]]), ['81%', '38%']);
  assert.deepEqual(labels([['l10', -29998]]), ['−M2']);
  assert.deepEqual(labels([['l10', 29995], ['g10', -29998]]), ['M5', '−M2']);
  setLanguage('zh-CN');
  assert.deepEqual(labels([['l10', 290]]), ['唯一一手']);
  setLanguage('en');
});

test('the board shows the best line as numbered ghost stones and the candidates with their chances', () => {
  const m = ctl.boardModel(analysing());
  assert.deepEqual(m.pv, [
    { index: ctl.indexOf('i9', 15), n: 1, color: 'white' },
    { index: ctl.indexOf('j10', 15), n: 2, color: 'black' },
    { index: ctl.indexOf('g7', 15), n: 3, color: 'white' },
  ]);
  assert.deepEqual(m.candidates.map((c) => [c.rank, c.label]), [[1, '33%'], [2, '27%'], [3, '−M9']]);
  const stale = analysing();
  stale.analysis.update = update({ moveNumber: 0 });
  assert.deepEqual([ctl.boardModel(stale).pv, ctl.boardModel(stale).candidates], [[], []]);
  const long = analysing();
  long.analysis.update.lines[0].pv = Array.from({ length: 15 }, (_, k) => `a${k + 1}`);
  assert.equal(ctl.boardModel(long).pv.length, ctl.PV_SHOWN);
});

test('the evaluation panel words the verdict and the small print from the data', () => {
  setLanguage('en');
  const e = ctl.evalModel(analysing());
  assert.deepEqual(e, { score: 140, win: 0.67, text: '+140', verdict: 'black is better', info: 'depth 7 · 600k nodes/s' });
  const won = analysing();
  won.analysis.update = update({ blackScore: -29991, lines: [{ ...update().lines[0], verdict: { kind: 'wins', color: 'white', plies: 9, byFours: true } }] });
  assert.equal(ctl.evalModel(won).verdict, 'white wins by VCF in 9');
  assert.equal(ctl.evalModel(won).text, '−M9');
  const paused = analysing({ view: view({ moves: ['h8'], mode: 'computer', computerToMove: true, toMove: 'white' }) });
  paused.analysis.update = null;
  assert.equal(ctl.evalModel(paused).info, 'Paused while the computer thinks');
  assert.equal(ctl.evalModel(paused).score, null);
  const off = analysing();
  off.analysis.on = false;
  assert.equal(ctl.evalModel(off), null);
  setLanguage('zh-CN');
  assert.equal(ctl.evalModel(won).verdict, '白方连续冲四 9 手胜');
  setLanguage('en');
});

test('scores and speeds are written short', () => {
  assert.equal(ctl.formatScore(0), '0');
  assert.equal(ctl.formatScore(-75), '−75');
  assert.equal(ctl.formatScore(29993), '+M7');
  assert.equal(ctl.formatNps(950), '950');
  assert.equal(ctl.formatNps(123456), '123k');
  assert.equal(ctl.formatNps(2_345_678), '2.3M');
});

// Game review (issue 10 §2): stepping, the graph and the words for each move.
const reviewed = (over = {}) => {
  const moves = ['h8', 'a1', 'i8', 'a2', 'j8'];
  const classes = ['best', 'good', 'best', 'blunder', 'missed-win'];
  return stateWith({
    view: view({
      moves, moveNumber: 5, toMove: 'white',
      review: {
        msPerPosition: 300,
        moves: moves.map((point, i) => ({ ply: i + 1, point, color: i % 2 ? 'white' : 'black', class: classes[i], best: i === 3 ? 'k8' : point, scoreBefore: 0, scoreAfter: 0 })),
        blackChances: [500, 560, 540, 700, 980, 1000],
      },
    }),
    ...over,
  });
};

test('any game with moves can be reviewed, finished or not, against the computer or not', () => {
  assert.equal(ctl.canReview(view()), false, 'no moves');
  assert.equal(ctl.canReview(view({ moves: ['h8'] })), true, 'two players');
  assert.equal(ctl.canReview(view({ moves: ['h8'], mode: 'computer' })), true, 'a loaded game, unfinished');
  assert.equal(ctl.canReview(view({ moves: ['h8'], mode: 'computer', result: { winner: 'black', reason: 'five', line: [] } })), true);
});

test('review steps stay within the game and show the position cut at the ply', () => {
  const s = reviewed();
  assert.equal(ctl.inReview(s), false);
  assert.equal(ctl.shownPly(s), 5);
  s.review.ply = 5;
  assert.equal(ctl.reviewStep(s, 'next'), 5);
  assert.equal(ctl.reviewStep(s, 'prev'), 4);
  assert.equal(ctl.reviewStep(s, 'first'), 0);
  assert.equal(ctl.reviewStep(s, 'last'), 5);
  assert.equal(ctl.reviewStep(s, '3'), 3);
  assert.equal(ctl.reviewStep(s, '99'), 5);
  assert.equal(ctl.reviewStep(s, 'nonsense'), 5);
  s.review.ply = 0;
  assert.equal(ctl.reviewStep(s, 'prev'), 0);
  s.review.ply = 2;
  const shown = ctl.shownView(s);
  assert.deepEqual([shown.moves, shown.toMove, shown.result], [['h8', 'a1'], 'black', null]);
  assert.equal(ctl.boardModel(s).stones.filter(Boolean).length, 2);
  assert.equal(ctl.humanCanPlay(s), false, 'the board is for looking in review');
  assert.equal(ctl.statusText(s), 'Move 2 of 5');
  assert.equal(ctl.plyAt(0.5, 5), 3);
  assert.equal(ctl.plyAt(-1, 5), 0);
  assert.equal(ctl.plyAt(2, 5), 5);
});

test('each reviewed move is worded with its class and the better move marked', () => {
  setLanguage('en');
  const s = reviewed();
  s.review.ply = 4;
  assert.deepEqual(ctl.reviewMoveInfo(s), { text: '4. White A2 — blunder · better: K8', better: { index: ctl.indexOf('k8', 15), label: '' }, cls: 'blunder' });
  assert.equal(ctl.boardModel(s).better.index, ctl.indexOf('k8', 15));
  s.review.ply = 1;
  assert.equal(ctl.reviewMoveInfo(s).text, '1. Black H8 — best');
  assert.equal(ctl.reviewMoveInfo(s).better, null);
  s.review.ply = 0;
  assert.equal(ctl.reviewMoveInfo(s).text, 'Start of the game · 5 moves');
  s.review.ply = 5;
  assert.equal(ctl.reviewMoveInfo(s).text, '5. Black J8 — missed win');
  setLanguage('zh-CN');
  s.review.ply = 4;
  assert.equal(ctl.reviewMoveInfo(s).text, '4. 白方 A2 — 大错 · 更好：K8');
  setLanguage('en');
  // In a lost position a move that holds out as long as any is neither praised nor bettered.
  const lost = reviewed();
  Object.assign(lost.view.review.moves[3], { class: 'lost', best: 'k8' });
  lost.review.ply = 4;
  assert.deepEqual(ctl.reviewMoveInfo(lost), { text: '4. White A2 — lost position', better: null, cls: 'lost' });
  setLanguage('zh-CN');
  assert.equal(ctl.reviewMoveInfo(lost).text, '4. 白方 A2 — 败局已定');
  setLanguage('en');
  // Before the review is finished there is no class to tell.
  const plain = reviewed();
  plain.view.review = null;
  plain.review.ply = 2;
  assert.deepEqual(ctl.reviewMoveInfo(plain), { text: 'Move 2 of 5', better: null, cls: '' });
});

test('the evaluation graph: black’s chances as an area, ticks on the bad moves, the cursor on the ply', () => {
  const s = reviewed();
  s.review.ply = 2;
  const g = ctl.reviewGraph(s, 100, 50);
  assert.equal(g.n, 5);
  assert.equal(g.area, 'M0,50 L0.00,25.00 L20.00,22.00 L40.00,23.00 L60.00,15.00 L80.00,1.00 L100.00,0.00 L100,50 Z');
  assert.deepEqual(g.ticks, [{ ply: 4, x: 80, cls: 'blunder' }, { ply: 5, x: 100, cls: 'missed-win' }]);
  assert.equal(g.cursor, 40);
  const none = reviewed();
  none.view.review = null;
  assert.equal(ctl.reviewGraph(none, 100, 50), null);
});

test('a swipe steps through the review only when long and mostly sideways', () => {
  assert.equal(ctl.swipeStep(120, 10, 390), 'prev');
  assert.equal(ctl.swipeStep(-120, -30, 390), 'next');
  assert.equal(ctl.swipeStep(60, 0, 390), '', 'too short: a tap that slid');
  assert.equal(ctl.swipeStep(120, 90, 390), '', 'too steep');
});

test('review progress counts the moves judged, not the positions searched', () => {
  assert.equal(ctl.reviewProgress(null), null);
  assert.deepEqual(ctl.reviewProgress({ gameId: 1, done: 0, total: 48 }), { done: 0, total: 47 });
  assert.deepEqual(ctl.reviewProgress({ gameId: 1, done: 1, total: 48 }), { done: 0, total: 47 });
  assert.deepEqual(ctl.reviewProgress({ gameId: 1, done: 13, total: 48 }), { done: 12, total: 47 });
  assert.deepEqual(ctl.reviewProgress({ gameId: 1, done: 48, total: 48 }), { done: 47, total: 47 });
});

test('Swap2: the status and the opening bar say who does what, and a due choice blocks stones', () => {
  setLanguage('en');
  const swap = (over) => ({ rule: 'swap2', stage: 'placeThree', actor: 'opener', you: 'chooser', youAct: false, choices: [], black: null, stones: 0, ...over });
  // The computer opens: it is thinking.
  let s = stateWith({ thinking: true, view: view({ mode: 'computer', humanColor: 'white', computerToMove: true, swap: swap() }) });
  assert.equal(ctl.statusText(s), 'Computer proposes an opening…');
  assert.equal(ctl.swapBar(s).info, 'Swap2 · the computer opens, you choose');
  // Three stones later the player chooses.
  const choose = swap({ stage: 'chooseAfterThree', actor: 'chooser', youAct: true, choices: ['black', 'white', 'placeTwo'] });
  s = stateWith({ view: view({ mode: 'computer', humanColor: 'white', moves: ['h8', 'h9', 'i9'], moveNumber: 3, toMove: 'white', swap: choose }) });
  assert.equal(ctl.statusText(s), 'Choose: take black, keep white and play the 4th stone, or place two more');
  assert.deepEqual(ctl.swapBar(s).choices.map((c) => [c.choice, c.text]), [['black', 'Take black'], ['white', 'Keep white'], ['placeTwo', 'Place two']]);
  assert.equal(ctl.openingChoiceDue(s), true);
  assert.equal(ctl.humanCanPlay(s), false, 'no stone while a choice is due');
  // Two players: roles in the status, stone counts within the stage.
  s = stateWith({ view: view({ moves: ['h8', 'h9', 'i9', 'g7'], moveNumber: 4, toMove: 'black', swap: swap({ stage: 'placeTwo', actor: 'chooser', you: null, youAct: true }) }) });
  assert.equal(ctl.statusText(s), 'Chooser: place stone 2 of 2');
  assert.equal(ctl.humanCanPlay(s), true);
  // Done: the phase says nothing more.
  s = stateWith({ view: view({ moves: ['h8', 'h9', 'i9'], moveNumber: 3, toMove: 'white', swap: swap({ stage: 'done', actor: null, black: 'opener', stones: 3 }) }) });
  assert.equal(ctl.swapBar(s), null);
  assert.equal(ctl.statusText(s), 'White to move');
  // What the computer decided, told once.
  const prev = view({ mode: 'computer', humanColor: 'black', swap: swap({ stage: 'chooseAfterThree', actor: 'chooser', you: 'opener' }) });
  const next = view({ mode: 'computer', humanColor: 'black', swap: swap({ stage: 'done', actor: null, you: 'opener', black: 'opener', stones: 3 }) });
  assert.equal(ctl.swapNotice(prev, next), 'The computer takes white: you play black');
  assert.equal(ctl.swapNotice(next, next), '');
  // A flag that fell in the phase names the roles, the colours being undecided.
  const flagged = view({ moves: ['h8', 'h9', 'i9'], moveNumber: 3, toMove: 'white', swap: choose, result: { winner: 'black', reason: 'time', line: [] } });
  assert.equal(ctl.statusText(stateWith({ view: flagged })), 'Opener wins — on time');
  assert.equal(ctl.statusText(stateWith({ view: { ...flagged, swap: swap({ stage: 'done', actor: null, black: 'opener', stones: 3 }) } })), 'Black wins — on time');
});

// ---------------------------------------------------------------------------------------------
// The game clock (ui/clock.js): the shell's values, counted on and worded.

const clockView = (over = {}) => ({
  running: true, blackMs: 61_000, whiteMs: 5_000, blackLeftMs: null, whiteLeftMs: null, totalMs: 66_000,
  limit: null, moveMs: [1000, 4000], flag: null, ...over,
});

test('the clock counts on for the side to move only, and only while it runs', () => {
  const live = clock.liveClock(clockView(), 'white', 1000, 3500);
  assert.deepEqual(live.used, { black: 61_000, white: 7_500 });
  assert.equal(live.total, 68_500);
  const stopped = clock.liveClock(clockView({ running: false }), 'white', 1000, 3500);
  assert.deepEqual(stopped.used, { black: 61_000, white: 5_000 });
  const limited = clock.liveClock(
    clockView({ blackLeftMs: 900, whiteLeftMs: 100_000, limit: { baseMs: 300_000, incrementMs: 0 } }),
    'black', 0, 1500,
  );
  assert.deepEqual(limited.left, { black: 0, white: 100_000 });
  assert.equal(clock.flagDue(limited), true);
  assert.equal(clock.flagDue({ ...limited, flag: 'black' }), false);
  assert.equal(clock.flagDue(clock.liveClock(clockView(), 'black', 0, 1e9)), false, 'no limit, no flag');
});

test('clock times read as m:ss, h:mm:ss, and the last ten seconds left in tenths', () => {
  assert.equal(clock.formatClock(0), '0:00');
  assert.equal(clock.formatClock(59_999), '0:59');
  assert.equal(clock.formatClock(61_000), '1:01');
  assert.equal(clock.formatClock(3_725_000), '1:02:05');
  assert.equal(clock.formatClock(-5), '0:00');
  // Time left rounds up: a clock showing 0:00 has run out.
  assert.equal(clock.formatLeft(299_001), '5:00');
  assert.equal(clock.formatLeft(10_000), '0:10');
  assert.equal(clock.formatLeft(9_950), '0:10.0');
  assert.equal(clock.formatLeft(1_201), '0:01.3');
  assert.equal(clock.formatLeft(0), '0:00.0');
  assert.equal(clock.formatSpent(12_345), '12.3 s');
  assert.equal(clock.formatSpent(75_000), '1:15');
});

test('the clock model marks the side to move, low time and a fallen flag', () => {
  const limit = { baseMs: 300_000, incrementMs: 0 };
  const m = clock.clockModel(clock.liveClock(clockView({ blackLeftMs: 20_000, whiteLeftMs: 200_000, limit }), 'black', 0, 0));
  assert.deepEqual([m.black.text, m.black.active, m.black.low], ['0:20', true, true]);
  assert.deepEqual([m.white.text, m.white.active, m.white.low], ['3:20', false, false]);
  assert.equal(m.total, 'Game 1:06');
  const flagged = clock.clockModel(clock.liveClock(clockView({ running: false, flag: 'white', whiteLeftMs: 0, blackLeftMs: 5, limit }), 'white', 0, 0));
  assert.equal(flagged.white.flag, true);
  assert.equal(flagged.white.active, false);
});

test('review shows each side’s time up to the move shown and that move’s time', () => {
  const c = clockView({ moveMs: [null, 2_000, 12_300, null, 500] });
  const at3 = clock.reviewClockModel(c, 3);
  assert.deepEqual([at3.black.ms, at3.white.ms, at3.total], [12_300, 2_000, 'Move 3: 12.3 s']);
  assert.equal(clock.reviewClockModel(c, 4).total, 'Move 4: —');
  assert.equal(clock.reviewClockModel(c, 0).total, '');
  // Swap: the opener placed stones 1–3 (its time, whatever their colour) and the chooser took
  // black, so the opener is white: stone 4 is its too, stone 5 the chooser's.
  const swapped = clockView({ moveMs: [0, 2_000, 3_000, 4_000, 500], owners: ['white', 'white', 'white'] });
  const at5 = clock.reviewClockModel(swapped, 5);
  assert.deepEqual([at5.black.ms, at5.white.ms], [500, 9_000]);
  assert.equal(clock.clockSummary(c), 'Black 1:01 · White 0:05 · Game 1:06');
  assert.equal(clock.clockSummary(clockView({ totalMs: 0, moveMs: [] })), '', 'a game the clock never saw');
});

// ---------------------------------------------------------------------------------------------
// The position editor (ui/editor.js, issue 10 §5)

test('editor: a tap places the tool’s stone, the same colour again removes it, the eraser empties', async () => {
  const ed0 = editor.createEditor('renju', 15);
  const h8 = ctl.indexOf('h8', 15);
  let ed = editor.tap(ed0, h8);
  assert.equal(ed.stones[h8], 'black');
  assert.equal(ed0.stones[h8], '', 'a new editor, the old one untouched');
  ed = editor.tap(ed, h8);
  assert.equal(ed.stones[h8], '');
  ed = editor.tap({ ...editor.tap(ed, h8), tool: 'white' }, h8);
  assert.equal(ed.stones[h8], 'white', 'the other colour replaces');
  ed = editor.tap({ ...ed, tool: 'erase', refused: { reason: 'five' } }, h8);
  assert.equal(ed.stones[h8], '');
  assert.equal(ed.refused, null, 'an edit clears the refusal shown');
  assert.equal(editor.tap(ed, -1), ed);
  assert.equal(editor.tap(ed, 15 * 15), ed);
});

test('editor: opened on a game, with its set-up stones, moves and side to move', async () => {
  const v = view({ setup: { black: ['h8'], white: ['i9', 'g7'], toMove: 'white' }, moves: ['j10', 'k11', 'l12'] });
  const ed = editor.fromView(v);
  const at = (p) => ed.stones[ctl.indexOf(p, 15)];
  assert.deepEqual(['h8', 'i9', 'g7', 'j10', 'k11', 'l12'].map(at), ['black', 'white', 'white', 'white', 'black', 'white']);
  assert.equal(ed.toMove, 'black', 'white, black, white: black is next');
  assert.deepEqual(editor.request(ed), { rule: 'freestyle', size: 15, black: ['k11', 'h8'], white: ['l12', 'j10', 'i9', 'g7'], toMove: 'black' });
  assert.deepEqual(editor.counts(ed), { black: 2, white: 4 });
  const cleared = editor.clear(ed);
  assert.deepEqual(editor.counts(cleared), { black: 0, white: 0 });
  assert.equal(cleared.toMove, 'black');
});

test('editor: a new size keeps the position centred and drops what falls off', async () => {
  let ed = editor.createEditor('freestyle', 15);
  for (const p of ['h8', 'a1', 'o15']) ed = editor.tap(ed, ctl.indexOf(p, 15));
  const big = editor.resize(ed, 19);
  assert.equal(big.dropped, 0);
  const at19 = (p) => big.editor.stones[ctl.indexOf(p, 19)];
  assert.deepEqual(['j10', 'c3', 'q17'].map(at19), ['black', 'black', 'black'], 'two points in from every side');
  const small = editor.resize(ed, 13);
  assert.equal(small.dropped, 2, 'the corners fall off');
  assert.equal(small.editor.stones[ctl.indexOf('g7', 13)], 'black', 'the centre stays the centre');
  assert.equal(editor.resize(ed, 15).editor, ed);
});

test('editor: the referee’s refusals are worded, the line marked on the board', async () => {
  setLanguage('en');
  const five = { code: 'badSetup', reason: 'five', color: 'black', points: ['d8', 'e8', 'f8', 'g8', 'h8'] };
  assert.equal(editor.refusalText(five), 'Black already has five in a row (D8–H8): a position to play cannot be won already');
  assert.match(editor.refusalText({ ...five, color: 'white', points: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'] }), /^White already has 6 in a row \(A1–A6\)/);
  assert.match(editor.refusalText({ reason: 'overline', color: 'black', points: ['c8', 'd8', 'e8', 'f8', 'g8', 'h8'] }), /overline is never allowed in renju/);
  assert.equal(editor.refusalText({ reason: 'duplicate', points: ['h8'] }), 'H8 holds two stones');
  assert.equal(editor.refusalText({ reason: 'offBoard', color: 'white', points: ['z9'] }), 'A white stone is off the board');
  assert.equal(editor.refusalText({ reason: 'what', message: 'raw engine text' }), 'The position was refused');
  const ed = { ...editor.createEditor('freestyle', 15), refused: five };
  const m = editor.boardModel(ed);
  assert.deepEqual(m.win, ['d8', 'e8', 'f8', 'g8', 'h8'].map((p) => ctl.indexOf(p, 15)));
  assert.equal(editor.statusText(ed), 'The position was refused');
  setLanguage('zh-CN');
  assert.equal(editor.refusalText(five), '黑方已连成五子（D8–H8）：要下的局面不能已分胜负');
  setLanguage('en');
});

test('a set-up position is drawn under the moves, which alternate from its side to move', async () => {
  const s = stateWith({ view: view({ setup: { black: ['h8', 'i8'], white: ['h9'], toMove: 'white' }, moves: ['j10', 'g8'], toMove: 'white' }) });
  const m = ctl.boardModel(s);
  const at = (p) => m.stones[ctl.indexOf(p, 15)];
  assert.deepEqual(['h8', 'i8', 'h9', 'j10', 'g8'].map(at), ['black', 'black', 'white', 'white', 'black']);
  assert.equal(m.order[ctl.indexOf('h8', 15)], 0, 'set-up stones carry no number');
  assert.equal(m.order[ctl.indexOf('j10', 15)], 1);
  assert.equal(ctl.moveColor(s.view, 0), 'white');
  assert.equal(ctl.hasStones(s.view), true);
  assert.equal(ctl.hasStones(view()), false);
  s.review.ply = 1;
  assert.equal(ctl.shownView(s).toMove, 'black', 'in review, after white’s move 1');
});
