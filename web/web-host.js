// The browser's host, on the page: `window.__TAURI__.core` (`invoke` and `Channel`, the two
// things `ui/api.js` uses) backed by the app core in a Web Worker (`worker.js`), so the UI
// cannot tell it from the Tauri app. The game, settings and statistics live in `localStorage`
// (one key per document, `wuzi:game.json` …): read once before the worker starts, and written
// in order as the core writes them. Without `localStorage` the core plays unsaved and says so.
(() => {
  const PREFIX = 'wuzi:';
  let storage = null;
  const docs = {};
  try {
    storage = window.localStorage;
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key.startsWith(PREFIX)) docs[key.slice(PREFIX.length)] = storage.getItem(key);
    }
  } catch {
    storage = null;
  }

  const worker = new Worker(new URL('worker.js', document.baseURI), { type: 'module' });
  worker.postMessage({ type: 'start', docs: storage ? docs : null });

  let next = 1;
  const pending = new Map();
  const channels = new Map();

  worker.onmessage = ({ data }) => {
    if (data.type === 'store') {
      try {
        if (data.text === null) storage?.removeItem(PREFIX + data.name);
        else storage?.setItem(PREFIX + data.name, data.text);
      } catch (e) {
        // A full storage: the core's next write of the document tries again.
        console.error(`saving ${data.name} failed: ${e}`);
      }
    } else if (data.type === 'channel') {
      channels.get(data.channel)?.onmessage?.(data.message);
    } else if (data.type === 'reply') {
      const call = pending.get(data.id);
      pending.delete(data.id);
      if ('ok' in data) call?.resolve(data.ok);
      else call?.reject(data.err);
    }
  };
  worker.onerror = (e) => {
    console.error(`the game engine stopped: ${e.message}`);
    for (const call of pending.values()) call.reject({ code: 'internal', message: String(e.message) });
    pending.clear();
  };

  class Channel {
    constructor() {
      this.id = next;
      next += 1;
      this.onmessage = () => {};
      channels.set(this.id, this);
    }

    toJSON() {
      return `__CHANNEL__:${this.id}`;
    }
  }

  function invoke(cmd, args = {}) {
    return new Promise((resolve, reject) => {
      const id = next;
      next += 1;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, cmd, args: JSON.stringify(args ?? {}) });
    });
  }

  window.__TAURI__ = { core: { invoke, Channel } };

  // Offline and installable: the service worker keeps the site (sw.js, written by scripts/web.sh).
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('sw.js').catch((e) => console.warn(`no offline copy: ${e}`));
  }
})();
