// The game clock's logic without a DOM (issue 10 §4). The shell keeps the time (GameView.clock,
// docs/architecture.md); the UI only draws it and counts on between replies: `liveClock` adds the
// time since the reply to the side to move while the clock runs. ui-tests/controller.test.mjs
// runs these under node.

import { t } from './i18n.js';

/** Time left below which a side's clock is marked (accent colour). */
export const LOW_MS = 30_000;

/** Below this, the time left shows tenths: the last seconds are the ones that count. */
const TENTHS_BELOW_MS = 10_000;

/**
 * The clock as of `now` (ms, the same clock as `at`, when the reply `clock` arrived): both sides'
 * time spent and, with a limit, left; the side to move's counts on while `clock.running`.
 */
export function liveClock(clock, toMove, at, now) {
  if (!clock) return null;
  const dt = clock.running ? Math.max(0, now - at) : 0;
  const on = (color) => (color === toMove ? dt : 0);
  const used = { black: clock.blackMs + on('black'), white: clock.whiteMs + on('white') };
  const left = clock.limit
    ? {
        black: Math.max(0, (clock.blackLeftMs ?? 0) - on('black')),
        white: Math.max(0, (clock.whiteLeftMs ?? 0) - on('white')),
      }
    : null;
  return { used, left, total: used.black + used.white, running: !!clock.running, toMove, flag: clock.flag ?? null };
}

/** `m:ss` (`h:mm:ss` past an hour); with `tenths`, `m:ss.t`. Never negative. */
export function formatClock(ms, tenths = false) {
  const v = Math.max(0, ms);
  // Time left is shown rounded up (a clock at 0:00 has run out), time spent rounded down.
  const total = tenths ? Math.floor(v / 100) : Math.floor(v / 1000);
  const s = tenths ? Math.floor(total / 10) : total;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  const base = h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
  return tenths ? `${base}.${total % 10}` : base;
}

/** Time left as the player reads it: rounded up to the second (tenths in the last ten seconds). */
export function formatLeft(ms) {
  if (ms < TENTHS_BELOW_MS) return formatClock(Math.ceil(ms / 100) * 100, true);
  return formatClock(Math.ceil(ms / 1000) * 1000);
}

/** Whether the side to move's time shown has run out: time to ask the shell (`check_clock`). */
export function flagDue(live) {
  return !!live && live.running && !!live.left && !live.flag && live.left[live.toMove] <= 0;
}

/**
 * What #clock shows during play: each side's time (left with a limit, else spent), the game's
 * total, which side is ticking and which is low or flagged.
 */
export function clockModel(live) {
  if (!live) return null;
  const side = (color) => {
    const ms = live.left ? live.left[color] : live.used[color];
    return {
      ms,
      text: live.left ? formatLeft(ms) : formatClock(ms),
      active: live.running && live.toMove === color,
      low: !!live.left && ms < LOW_MS,
      flag: live.flag === color,
    };
  };
  return { black: side('black'), white: side('white'), total: t('clockTotal', { time: formatClock(live.total) }) };
}

/**
 * What #clock shows in review at `ply`: each side's time spent on the moves up to it (moves the
 * clock did not see count nothing) and the time of the move that led there.
 */
export function reviewClockModel(clock, ply) {
  if (!clock) return null;
  const moves = (clock.moveMs ?? []).slice(0, ply);
  const used = { black: 0, white: 0 };
  // A Swap / Swap2 opening's stones are their placer's time, whatever their colour.
  moves.forEach((ms, k) => {
    used[clock.owners?.[k] ?? (k % 2 ? 'white' : 'black')] += ms ?? 0;
  });
  const side = (color) => ({ ms: used[color], text: formatClock(used[color]), active: false, low: false, flag: false });
  const last = ply > 0 ? clock.moveMs?.[ply - 1] : undefined;
  const total = last === undefined ? '' : t('clockMove', { ply, time: last === null ? '—' : formatSpent(last) });
  return { black: side('black'), white: side('white'), total };
}

/** One move's time: "12.3 s" under a minute, else `m:ss`. */
export function formatSpent(ms) {
  return ms < 60_000 ? t('seconds', { n: (Math.floor(ms / 100) / 10).toFixed(1) }) : formatClock(ms);
}

/** The game-over sheet's line: both sides' time and the game's. */
export function clockSummary(clock) {
  if (!clock || (!clock.totalMs && !clock.limit)) return '';
  return t('gameoverClock', {
    black: formatClock(clock.blackMs),
    white: formatClock(clock.whiteMs),
    total: formatClock(clock.totalMs),
  });
}
