// The settings sheet: every change is saved at once; game options (opponent, colour, level, rule,
// size, opening, time) wait for the next new game, unless the sheet closes on an empty or finished
// board it was opened on (see onClose). Also the how-to-play sheet. The serial of the latest save
// and what the sheet was opened on are the controller state's.

import * as api from './api.js';
import * as ctl from './controller.js';
import { fillSettings, readSettings, fillStats, fillHelp } from './sheets.js';
import { clearSheetMessages } from './sheet-message.js';

const $ = (id) => document.getElementById(id);

/** Whether the time limit chosen in the settings is not the current game's (it applies to the next). */
function clockDiffers(s, v) {
  if (s.clockMinutes === undefined) return false;
  const base = Number(s.clockMinutes) ? Number(s.clockMinutes) * 60_000 : null;
  const increment = base ? Number(s.clockIncrement ?? 0) * 1000 : 0;
  const limit = v.clock?.limit ?? null;
  return (limit?.baseMs ?? null) !== base || (limit?.incrementMs ?? 0) !== increment;
}

export function createSettings(app) {
  const { state } = app;

  /** The options of a new game, from the settings (or the game on screen before they came). */
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

  function save(next) {
    state.settings = next;
    app.game.applyPreferences();
    fillForm();
    app.game.render();
    const serial = ++state.settingsSerial;
    api.setSettings(next).then(
      (saved) => {
        if (serial !== state.settingsSerial || !saved) return;
        state.settings = saved;
        app.game.applyPreferences();
        fillForm();
        app.game.render();
      },
      (err) => app.ui.showError(err),
    );
  }

  function fillForm() {
    const v = state.view;
    fillSettings(state.settings, { waitsForNewGame: optionsDiffer() && ctl.hasStones(v) && !v.result });
  }

  function open() {
    state.settingsOpenedOn = { gameId: state.view?.gameId, key: ctl.gameSettingsKey(state.settings) };
    clearSheetMessages($('settings-sheet'));
    fillForm();
    fillStats(state.stats);
    app.sheets.open('settings-sheet');
  }

  /** A sheet closed (any sheet: `id`). */
  function onClose(id) {
    if (id === 'setup-sheet') state.setupPending = null;
    // The editor or a review opened from the sheet shows the game it was opened on.
    if (id !== 'settings-sheet' || state.editor || ctl.inReview(state)) {
      state.settingsOpenedOn = null;
      return;
    }
    const opened = state.settingsOpenedOn;
    state.settingsOpenedOn = null;
    const v = state.view;
    // Game options changed in the sheet change the game itself; on an empty or finished board that
    // happens at once. Only then: a game loaded meanwhile (another gameId) is never thrown away,
    // whatever its rule, size, opening or clock, and neither is one whose options were set before.
    const changed = !!opened && opened.gameId === v?.gameId && opened.key !== ctl.gameSettingsKey(state.settings);
    if (v && changed && optionsDiffer() && (!ctl.hasStones(v) || v.result)) app.play.newGame();
  }

  function openHelp() {
    fillHelp(state.view?.rule ?? state.settings?.rule ?? 'freestyle', state.view?.swap?.rule);
    app.sheets.open('help-sheet');
  }

  function bind() {
    $('settings').addEventListener('click', open);
    $('apply-new-game').addEventListener('click', () => {
      app.sheets.close('settings-sheet');
      app.play.newGame();
    });
    $('open-help').addEventListener('click', openHelp);
    $('help').addEventListener('click', openHelp);
    const form = $('settings-form');
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('change', (e) => {
      if (e.target.id === 'record-text') return;
      save(readSettings(state.settings));
    });
  }

  return { gameOptions, onClose, bind };
}
