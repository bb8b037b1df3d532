// A message inside a sheet (issue 26): an error, or the outcome of what the player just did in
// the sheet, shown where the player is looking rather than in the status line the sheet covers.
// It stays until the player dismisses it (✕), another message replaces it, or the sheet is
// opened again. The text is always the UI's own (translated) words.
//
// Markup: an element `.sheet-message` inside a `dialog.sheet`, holding `.sheet-message-text` and
// a `.sheet-message-close` button; `data-kind` is `error` or `ok`.

/** The message box of the open sheet on top, if it has one. */
function openBox() {
  const open = [...document.querySelectorAll('dialog.sheet[open]')];
  return open.length ? open[open.length - 1].querySelector('.sheet-message') : null;
}

function fill(box, text, kind) {
  // An error interrupts a screen reader; a confirmation waits its turn.
  box.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  box.dataset.kind = kind;
  box.querySelector('.sheet-message-text').textContent = text;
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

/** Shows `text` in the message box `id`. */
export function showSheetMessage(id, text, kind = 'error') {
  const box = document.getElementById(id);
  if (box) fill(box, text, kind);
}

/** Shows `text` in the open sheet's message box; false when no open sheet has one. */
export function showInOpenSheet(text, kind = 'error') {
  const box = openBox();
  if (!box) return false;
  fill(box, text, kind);
  return true;
}

/** Hides the message boxes inside `sheet` (an element). */
export function clearSheetMessages(sheet) {
  for (const box of sheet.querySelectorAll('.sheet-message')) {
    box.hidden = true;
    box.querySelector('.sheet-message-text').textContent = '';
  }
}

/** Wires every message box's dismiss button. */
export function bindSheetMessages() {
  for (const box of document.querySelectorAll('.sheet-message')) {
    box.querySelector('.sheet-message-close').addEventListener('click', () => {
      box.hidden = true;
      box.querySelector('.sheet-message-text').textContent = '';
    });
  }
}
