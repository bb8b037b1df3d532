// Small PNGs for docs/screenshots/: an RGBA image reduced to a palette of at most 256 colours
// (median cut, no dithering, so text edges stay clean) and written as an indexed PNG. The board's
// wood grain makes a full-colour PNG of a desktop window most of a megabyte; indexed, a tenth.
import { deflateSync } from 'node:zlib';

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A palette of at most `n` colours for an image's colours (`counts`: 0xRRGGBB → pixels), by median cut. */
function medianCut(counts, n) {
  const box = (colors) => {
    const lo = [255, 255, 255];
    const hi = [0, 0, 0];
    let weight = 0;
    for (const [c, w] of colors) {
      for (let ch = 0; ch < 3; ch++) {
        const v = (c >> (16 - 8 * ch)) & 0xff;
        if (v < lo[ch]) lo[ch] = v;
        if (v > hi[ch]) hi[ch] = v;
      }
      weight += w;
    }
    const ranges = hi.map((h, ch) => h - lo[ch]);
    const channel = ranges.indexOf(Math.max(...ranges));
    return { colors, weight, channel, score: ranges[channel] * Math.log2(1 + weight) };
  };
  const boxes = [box([...counts])];
  while (boxes.length < n) {
    const i = boxes.reduce((best, b, k) => (b.colors.length > 1 && b.score > (boxes[best]?.score ?? -1) ? k : best), -1);
    if (i < 0) break;
    const { colors, weight, channel } = boxes[i];
    const shift = 16 - 8 * channel;
    colors.sort((a, b) => ((a[0] >> shift) & 0xff) - ((b[0] >> shift) & 0xff));
    let half = 0;
    let cut = 1;
    for (; cut < colors.length; cut++) {
      half += colors[cut - 1][1];
      if (half * 2 >= weight) break;
    }
    cut = Math.min(Math.max(cut, 1), colors.length - 1);
    boxes.splice(i, 1, box(colors.slice(0, cut)), box(colors.slice(cut)));
  }
  return boxes.map(({ colors, weight }) => {
    const sum = [0, 0, 0];
    for (const [c, w] of colors) for (let ch = 0; ch < 3; ch++) sum[ch] += ((c >> (16 - 8 * ch)) & 0xff) * w;
    return sum.map((s) => Math.round(s / weight));
  });
}

/** An indexed PNG of the RGBA pixels (alpha ignored: screenshots are opaque). */
export function png8(width, height, rgba, colors = 256) {
  const counts = new Map();
  for (let i = 0; i < rgba.length; i += 4) {
    const c = (rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2];
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const palette = medianCut(counts, colors);
  const index = new Map();
  for (const c of counts.keys()) {
    const r = (c >> 16) & 0xff;
    const g = (c >> 8) & 0xff;
    const b = c & 0xff;
    let best = 0;
    let bestD = Infinity;
    for (const [k, [pr, pg, pb]] of palette.entries()) {
      const d = 2 * (r - pr) ** 2 + 4 * (g - pg) ** 2 + 3 * (b - pb) ** 2;
      if (d < bestD) [best, bestD] = [k, d];
    }
    index.set(c, best);
  }
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      raw[y * (width + 1) + 1 + x] = index.get((rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2]);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 3, 0, 0, 0], 8); // 8-bit indices, palette colour, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
