// Sheets (settings, game over, how to play) as modal <dialog>s, and the phone's back button.
//
// Every open sheet owns one history entry, so Android's back button (which walks the webview's
// history) closes the top sheet first. Under the sheets sits a "guard" entry above the "root" one:
// a back press that reaches the root is reported to `onBackAtRoot`, which may warn the player
// and call `rearm()`; a second press then leaves the app because nothing is left to go back to.

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
