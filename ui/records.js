// The settings sheet's game record section: copying the game (moves or SGF) and loading one.
// What happened is said inside the sheet (issue 26), and a clipboard that refuses the text is
// said too: the record is then left selected in the box to copy by hand.

import * as api from './api.js';
import { t } from './i18n.js';
import { showSheetMessage } from './sheet-message.js';

const MESSAGE = 'record-message';

/**
 * Copies the game as `format` ('moves' or 'sgf') to the clipboard and into the record box.
 * @param {(err: { code: string }) => void} showError words a refusal of the shell
 */
export async function copyRecord(format, showError) {
  let text;
  try {
    text = await api.exportRecord(format);
  } catch (err) {
    showError(err);
    return;
  }
  const box = document.getElementById('record-text');
  box.value = text;
  try {
    // Missing outside a secure context; refused without a user gesture or permission.
    await navigator.clipboard.writeText(text);
    showSheetMessage(MESSAGE, t('copied'), 'ok');
  } catch {
    box.select();
    showSheetMessage(MESSAGE, t('copyFailed'), 'error');
  }
}

/** Loads the record pasted into the box: it becomes the game on screen (app: see main.js). */
function importRecord(app) {
  const text = document.getElementById('record-text').value.trim();
  if (!text) return;
  app.game.run(async () => {
    await app.game.stopThinking();
    const view = await api.importRecord(text);
    app.sheets.close('settings-sheet');
    app.ui.toast(t('loaded'));
    return view;
  });
}

/** Wires the record section's buttons: Copy moves, Copy SGF, Load. */
export function bindRecords(app) {
  document.getElementById('copy-moves').addEventListener('click', () => copyRecord('moves', app.ui.showError));
  document.getElementById('copy-sgf').addEventListener('click', () => copyRecord('sgf', app.ui.showError));
  document.getElementById('import-record').addEventListener('click', () => importRecord(app));
}
