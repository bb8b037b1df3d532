// The app's IPC, one function per command of the contract in docs/architecture.md.
// This is the only module that touches `window.__TAURI__`; everything else sees plain promises
// that resolve to the contract's JSON and reject with `{ code, message }`.

/** Every code the shell's `Error` has (src-tauri/src/error.rs); i18n.js words each as `err_<code>`. */
export const CODES = new Set([
  'offBoard', 'occupied', 'forbidden', 'gameOver', 'notYourTurn', 'stale', 'cancelled',
  'badRecord', 'badArgument', 'io', 'busy', 'choiceDue', 'noChoiceDue', 'internal', 'badSetup', 'needsSgf',
]);

function call(command, args) {
  const invoke = globalThis.__TAURI__?.core?.invoke;
  if (typeof invoke !== 'function') {
    return Promise.reject({ code: 'io', message: 'The game engine is not available.' });
  }
  let pending;
  try {
    pending = Promise.resolve(invoke(command, args));
  } catch (err) {
    pending = Promise.reject(err);
  }
  return pending.catch((err) => {
    throw toAppError(err);
  });
}

/**
 * Whatever the shell rejected with becomes `{ code, message }`. A code this UI does not know, or a
 * rejection without one, becomes `unknown` (worded "Something went wrong"); `message` is only for
 * the log, never shown.
 */
export function toAppError(err) {
  if (err && typeof err === 'object' && typeof err.code === 'string') {
    const out = { code: CODES.has(err.code) ? err.code : 'unknown', message: String(err.message ?? err.code) };
    // A refused point comes with the point and, under renju, the reason as data.
    if (typeof err.point === 'string') out.point = err.point;
    if (typeof err.reason === 'string') out.reason = err.reason;
    // A refused set-up position names whose stones and which (issue 10 §5).
    if (typeof err.color === 'string') out.color = err.color;
    if (Array.isArray(err.points)) out.points = err.points.filter((p) => typeof p === 'string');
    return out;
  }
  return { code: 'unknown', message: typeof err === 'string' ? err : String(err?.message ?? err) };
}

export const getState = () => call('get_state');
export const newGame = (options) => call('new_game', { options });
export const play = (point, gameId, moveNumber) => call('play', { point, gameId, moveNumber });
export const computerMove = (gameId, moveNumber) => call('computer_move', { gameId, moveNumber });
/** The player's choice in a Swap / Swap2 opening: 'black', 'white' or 'placeTwo'. */
export const chooseOpening = (choice, gameId, moveNumber) => call('choose_opening', { choice, gameId, moveNumber });
export const cancelSearch = () => call('cancel_search');
export const undo = () => call('undo');
export const redo = () => call('redo');
export const hint = (gameId, moveNumber) => call('hint', { gameId, moveNumber });
export const exportRecord = (format) => call('export_record', { format });
export const importRecord = (text) => call('import_record', { text });
export const getSettings = () => call('get_settings');
export const setSettings = (settings) => call('set_settings', { settings });
export const getStats = () => call('get_stats');
export const saveNow = () => call('save_now');
/**
 * Starts the background analysis of the position after the first `moveNumber` moves of game
 * `gameId`; resolves to the analysis' generation. Each finished round comes to `onUpdate`
 * (an `AnalysisUpdate`) through a Tauri Channel, until the position changes or stopAnalysis().
 */
export function startAnalysis(gameId, moveNumber, onUpdate) {
  const Channel = globalThis.__TAURI__?.core?.Channel;
  if (typeof Channel !== 'function') {
    return Promise.reject({ code: 'io', message: 'The game engine is not available.' });
  }
  const channel = new Channel();
  channel.onmessage = onUpdate;
  return call('start_analysis', { gameId, moveNumber, onUpdate: channel });
}
export const stopAnalysis = () => call('stop_analysis');
/**
 * Reviews every move of game `gameId` (as it stands, `moveNumber` moves) in the background;
 * `onProgress` gets `{ gameId, done, total }` after each position; resolves to the GameView
 * with its `review`, or rejects `cancelled`.
 */
export function startReview(gameId, moveNumber, onProgress) {
  const Channel = globalThis.__TAURI__?.core?.Channel;
  if (typeof Channel !== 'function') {
    return Promise.reject({ code: 'io', message: 'The game engine is not available.' });
  }
  const channel = new Channel();
  channel.onmessage = onProgress;
  return call('start_review', { gameId, moveNumber, onProgress: channel });
}
export const cancelReview = () => call('cancel_review');
/** Pauses the game clock (`true`: in the background or a sheet is open) or lets it run; resolves to the GameView. */
export const setClockPaused = (paused) => call('set_clock_paused', { paused });
/** The GameView as it stands on the clock; the flag of the side to move falls here if its time is spent. */
export const checkClock = () => call('check_clock');
/**
 * The position editor (issue 10 §5). `setup` is `{ rule, size, black: ["h8"…], white, toMove }`:
 * checkSetup resolves to null or rejects `badSetup` with `{ reason, color, points }`;
 * startSetup(setup, { mode, humanColor, level }) starts it as a new game (GameView).
 */
export const checkSetup = (setup) => call('check_setup', { setup });
export const startSetup = (setup, players) => call('start_setup', { setup, players });
/** A short vibration on phones; the shell does nothing on the desktop. */
export const hapticTick = () => call('haptic_tick');
