// A stone on wood, synthesised: a short band-passed noise burst (the contact) over a quickly
// damped low tone (the board). No audio files, so nothing to license and nothing to load.

let ctx = null;
let noise = null;

function context() {
  if (ctx) return ctx;
  const Ctx = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Ctx) return null;
  ctx = new Ctx();
  const length = Math.ceil(ctx.sampleRate * 0.05);
  noise = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = Math.random() * 2 - 1;
  return ctx;
}

/** Browsers only let audio start from a user gesture: call this from one (pointerdown, keydown). */
export function unlock() {
  const c = context();
  if (c && c.state === 'suspended') c.resume().catch(() => {});
}

/** @param {'black'|'white'} color white stones (shell) ring a little higher than black (slate) */
export function click(color = 'black') {
  // Only unlock() (inside a gesture) creates the context; a context made elsewhere would start
  // suspended and could play a stale click much later.
  const c = ctx;
  if (!c) return;
  // The first stone after unlock() may find the context still resuming.
  if (c.state === 'suspended') c.resume().then(() => strike(c, color), () => {});
  else if (c.state === 'running') strike(c, color);
}

function strike(c, color) {
  const t = c.currentTime + 0.005;

  const burst = c.createBufferSource();
  burst.buffer = noise;
  const band = c.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.value = color === 'white' ? 2600 : 2100;
  band.Q.value = 1.1;
  const burstGain = c.createGain();
  burstGain.gain.setValueAtTime(0.55, t);
  burstGain.gain.exponentialRampToValueAtTime(0.001, t + 0.035);
  burst.connect(band).connect(burstGain).connect(c.destination);
  burst.start(t);
  burst.stop(t + 0.05);

  const body = c.createOscillator();
  body.type = 'triangle';
  body.frequency.setValueAtTime(color === 'white' ? 720 : 640, t);
  body.frequency.exponentialRampToValueAtTime(360, t + 0.07);
  const bodyGain = c.createGain();
  bodyGain.gain.setValueAtTime(0.22, t);
  bodyGain.gain.exponentialRampToValueAtTime(0.001, t + 0.09);
  body.connect(bodyGain).connect(c.destination);
  body.start(t);
  body.stop(t + 0.1);
}
