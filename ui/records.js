// The settings sheet's game record section: copying the game (moves or SGF). What happened is
// said inside the sheet (issue 26), and a clipboard that refuses the text is said too: the
// record is then left selected in the box to copy by hand.

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
