// Sheets (settings, game over, how to play) as modal <dialog>s: opening and closing them, the
// phone's back button, and filling them in.
//
// Every open sheet owns one history entry, so Android's back button (which walks the webview's
// history) closes the top sheet first. Under the sheets sits a "guard" entry above the "root" one:
// a back press that reaches the root is reported to `onBackAtRoot`, which may warn the player
// and call `rearm()`; a second press then leaves the app because nothing is left to go back to.

import { t } from './i18n.js';
import { sideName } from './controller.js';

const $ = (id) => document.getElementById(id);

/**
 * @param {{ onBackAtRoot: () => void, onClose?: (id: string) => void }} options
 */
export function createSheets({ onBackAtRoot, onClose }) {
  const stack = [];
  let ignorePops = 0;

  history.replaceState({ wuzi: 'root' }, '');
  history.pushState({ wuzi: 'guard' }, '');

  for (const dialog of document.querySelectorAll('dialog.sheet')) {
    dialog.addEventListener('close', () => closed(dialog));
    // A tap on the dimmed backdrop (which belongs to the dialog element itself) closes the sheet.
    dialog.addEventListener('click', (e) => {
      if (e.target === dialog) dialog.close();
    });
    for (const button of dialog.querySelectorAll('[data-close]')) {
      button.addEventListener('click', () => dialog.close());
    }
  }

  function closed(dialog) {
    const i = stack.indexOf(dialog);
    if (i >= 0) {
      // Closed from inside the page (button, Escape, backdrop): drop the sheet's history entry.
      stack.splice(i, 1);
      ignorePops++;
      history.back();
    }
    onClose?.(dialog.id);
  }

  function onPop(e) {
    if (ignorePops > 0) {
      ignorePops--;
      return;
    }
    const top = stack.pop();
    if (top) {
      top.close();
      if (e.state?.wuzi === 'root') rearm();
      return;
    }
    if (e.state?.wuzi !== 'guard' && e.state?.wuzi !== 'sheet') onBackAtRoot();
  }
  window.addEventListener('popstate', onPop);

  function rearm() {
    if (history.state?.wuzi === 'root' || history.state === null) history.pushState({ wuzi: 'guard' }, '');
  }

  function get(id) {
    const dialog = document.getElementById(id);
    if (!(dialog instanceof HTMLDialogElement)) throw new Error(`no sheet #${id}`);
    return dialog;
  }

  return {
    open(id) {
      const dialog = get(id);
      if (dialog.open) return;
      dialog.showModal();
      stack.push(dialog);
      history.pushState({ wuzi: 'sheet' }, '');
    },
    close(id) {
      const dialog = get(id);
      if (dialog.open) dialog.close();
    },
    isOpen: (id) => get(id).open,
    anyOpen: () => stack.length > 0,
    rearm,
    destroy() {
      window.removeEventListener('popstate', onPop);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Contents

const CHOICES = ['mode', 'humanColor', 'level', 'rule', 'openingRule', 'size', 'confirmMove', 'language', 'theme', 'clockMinutes', 'clockIncrement'];
const SWITCHES = ['moveNumbers', 'sound', 'vibration'];

/**
 * Shows `settings` in the settings form.
 * @param {object} settings the contract's Settings
 * @param {{ waitsForNewGame: boolean }} options whether changed game options wait for a new game
 */
export function fillSettings(settings, { waitsForNewGame }) {
  if (!settings) return;
  const form = $('settings-form');
  for (const name of CHOICES) {
    for (const input of form.elements.namedItem(name) ?? []) input.checked = input.value === String(settings[name]);
  }
  for (const name of SWITCHES) form.elements.namedItem(name).checked = !!settings[name];
  $('field-renju-opening').hidden = settings.rule !== 'renju';
  fillRenjuOpenings(settings.renjuOpening ?? 'free');
  // Swap and Swap2 are for freestyle and standard; renju starts from its own openings.
  $('field-opening-rule').hidden = settings.rule === 'renju';
  $('field-colour').disabled = settings.mode !== 'computer';
  $('field-level').disabled = settings.mode !== 'computer';
  $('applies-next').hidden = !waitsForNewGame;
}

/**
 * Lists how a renju game can begin: free, random, then the 26 openings by name in the UI's
 * language and their code. The list itself is the engine's (set by `setRenjuOpenings`).
 */
let renjuOpenings = [];

export function setRenjuOpenings(list) {
  renjuOpenings = Array.isArray(list) ? list : [];
}

function fillRenjuOpenings(chosen) {
  const select = $('renju-opening');
  const option = (value, text) => {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    return o;
  };
  const options = [option('free', t('openingFree')), option('random', t('openingRandom'))];
  for (const o of renjuOpenings) options.push(option(o.code, openingName(o)));
  select.replaceChildren(...options);
  select.value = options.some((o) => o.value === chosen) ? chosen : 'free';
}

/** "Kagetsu 花月 (4D)" in English, "花月 Kagetsu (4D)" in Chinese. */
export function openingName(o) {
  return t('openingName', { name: o.name, chinese: o.chinese, code: o.code });
}

/** The settings form's values over `base` (which keeps any field the form does not show). */
export function readSettings(base) {
  const form = $('settings-form');
  const value = (name) => form.elements.namedItem(name).value;
  const checked = (name) => form.elements.namedItem(name).checked;
  return {
    ...base,
    mode: value('mode'),
    humanColor: value('humanColor'),
    level: Number(value('level')),
    rule: value('rule'),
    size: Number(value('size')),
    renjuOpening: value('renjuOpening'),
    openingRule: value('openingRule') || (base?.openingRule ?? 'none'),
    confirmMove: value('confirmMove'),
    moveNumbers: checked('moveNumbers'),
    sound: checked('sound'),
    vibration: checked('vibration'),
    language: value('language'),
    theme: value('theme'),
    clockMinutes: Number(value('clockMinutes')) || 0,
    clockIncrement: Number(value('clockIncrement')) || 0,
  };
}

/** Wins / losses / draws per level, listing only levels with finished games. */
export function fillStats(stats) {
  const box = $('stats');
  const levels = (stats?.levels ?? []).filter((l) => l.wins + l.losses + l.draws > 0);
  if (!levels.length) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = t('statsNone');
    box.replaceChildren(p);
    return;
  }
  const table = document.createElement('table');
  table.className = 'stats';
  const head = table.createTHead().insertRow();
  for (const key of ['statsLevel', 'statsWins', 'statsLosses', 'statsDraws', 'statsAnalysed']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  for (const l of [...levels].sort((a, b) => a.level - b.level)) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = t(`level${l.level}`);
    row.append(th);
    // Analysed: of these games, those played on with analysis on.
    for (const n of [l.wins, l.losses, l.draws, l.analysed ?? 0]) row.insertCell().textContent = String(n);
  }
  box.replaceChildren(table);
}

/** How to play, for one rule. */
export function fillHelp(rule, openingRule = null) {
  const paragraphs = ['helpIntro', `help_${rule}`, 'helpDraw', 'helpTerms', 'helpInput'];
  if (rule !== 'renju') paragraphs.splice(3, 1);
  // The game's Swap / Swap2 opening, right after the rule it balances.
  if (openingRule === 'swap' || openingRule === 'swap2') paragraphs.splice(2, 0, `help_${openingRule}`);
  $('help-title').textContent = `${t('howToPlay')} · ${t(`rule_${rule}`)}`;
  $('help-body').replaceChildren(
    ...paragraphs.map((key) => {
      const p = document.createElement('p');
      p.textContent = t(key);
      return p;
    }),
  );
}

/** The result of a finished game, from the player's side when playing the computer. */
export function fillGameOver(view, stats) {
  const r = view.result;
  let title;
  if (!r.winner) title = t('drawTitle');
  else if (view.mode === 'computer') title = t(r.winner === view.humanColor ? 'youWin' : 'youLose');
  else if (sideName(view, r.winner) !== t(r.winner)) title = t('roleWins', { role: sideName(view, r.winner) });
  else title = t(r.winner === 'black' ? 'blackWins' : 'whiteWins');
  $('gameover-title').textContent = title;
  const loser = r.winner === 'black' ? 'white' : 'black';
  $('gameover-reason').textContent = t(
    { draw: 'byDraw', 'no-legal-move': 'byNoMove', overline: 'byOverline', time: 'byTime' }[r.reason] ?? 'byFive',
    { color: sideName(view, loser) },
  );
  $('gameover-stone').dataset.color = r.winner ?? 'draw';
  const line = view.mode === 'computer' ? stats?.levels?.find((l) => l.level === view.level) : null;
  $('gameover-stats').textContent = line ? t('levelRecord', { ...line, level: t(`level${line.level}`) }) : '';
  $('gameover-stats').hidden = !line;
  $('gameover-undo').disabled = !view.canUndo;
}
