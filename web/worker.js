// The app core in a Web Worker: the page's `web-host.js` posts the commands of `ui/api.js`, one
// at a time, and this worker answers each with the core's reply or rejection (wasm, built by
// scripts/web.sh). The core calls back through two globals: `wuziForward` passes a document
// on to the page's storage, `wuziSend` a message on one of the page's channels. Between two
// messages the analysis under way runs its next round, so a move or `stop_analysis` gets in
// between rounds.
import init, { Core } from './wuzi_web.js';

self.wuziForward = (name, text) => self.postMessage({ type: 'store', name, text: text ?? null });
self.wuziSend = (channel, message) => self.postMessage({ type: 'channel', channel, message: JSON.parse(message) });

let core = null;
const waiting = [];
let stepping = false;

function step() {
  stepping = false;
  if (core && core.step()) schedule();
}

function schedule() {
  if (!stepping) {
    stepping = true;
    setTimeout(step, 0);
  }
}

function answer({ id, cmd, args }) {
  let reply;
  try {
    reply = JSON.parse(core.call(cmd, args));
  } catch (e) {
    // A panic traps the instance: nothing more can be answered from it.
    reply = { err: { code: 'internal', message: String(e) } };
  }
  self.postMessage({ type: 'reply', id, ...reply });
  schedule();
}

self.onmessage = async ({ data }) => {
  if (data.type === 'start') {
    await init({ module_or_path: new URL('wuzi_web_bg.wasm', import.meta.url) });
    core = new Core(JSON.stringify(data.docs));
    for (const call of waiting.splice(0)) answer(call);
    return;
  }
  if (core) answer(data);
  else waiting.push(data);
};
