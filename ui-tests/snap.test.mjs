// The four-corner rule (ui/snap.js), under node's own test runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snap } from '../ui/snap.js';

const g = (over = {}) => ({ originX: 0, originY: 0, pitch: 10, size: 15, ...over });
// The point (col, row) seen from a tap offset by (dx, dy) pitches.
const tapNear = (geo, col, row, dx, dy) => [geo.originX + (col + dx) * geo.pitch, geo.originY + (row + dy) * geo.pitch];

test('each of a cell’s four corners wins when the tap is near it', () => {
  const geo = g();
  // Cell (4, 6): corners (4,6) (5,6) (4,7) (5,7). Taps 0.25 pitch in from each corner.
  assert.deepEqual(snap(...tapNear(geo, 4, 6, 0.25, 0.25), geo), { col: 4, row: 6 });
  assert.deepEqual(snap(...tapNear(geo, 5, 6, -0.25, 0.25), geo), { col: 5, row: 6 });
  assert.deepEqual(snap(...tapNear(geo, 4, 7, 0.25, -0.25), geo), { col: 4, row: 7 });
  assert.deepEqual(snap(...tapNear(geo, 5, 7, -0.25, -0.25), geo), { col: 5, row: 7 });
});

test('a tap exactly on a point snaps to it', () => {
  const geo = g();
  for (const [c, r] of [[0, 0], [7, 7], [14, 14], [3, 11]]) assert.deepEqual(snap(...tapNear(geo, c, r, 0, 0), geo), { col: c, row: r });
});

test('the middle of a cell is a dead zone', () => {
  const geo = g();
  assert.equal(snap(...tapNear(geo, 4, 6, 0.5, 0.5), geo), null);
  assert.equal(snap(...tapNear(geo, 4, 6, 0.35, 0.35), geo), null); // 0.495 pitch from every corner
  assert.equal(snap(...tapNear(geo, 4, 6, 0.5, 0.0), geo), null); // half-way along a line
  assert.equal(snap(...tapNear(geo, 4, 6, 0.0, 0.5), geo), null);
});

test('the threshold is strict: just inside snaps, exactly at it does not', () => {
  const geo = g({ pitch: 8 }); // 0.4 × 8 = 3.2 px, exact in binary floating point after scaling
  assert.deepEqual(snap(3.19, 0, { ...geo, originX: 0 }), { col: 0, row: 0 });
  assert.equal(snap(3.2, 0, geo), null);
  // On a diagonal: 0.4 = hypot(0.24, 0.32) exactly, scaled by 25.
  const geo25 = g({ pitch: 25 });
  assert.equal(snap(6, 8, geo25), null); // distance 10 = 0.4 × 25
  assert.deepEqual(snap(5.9, 8, geo25), { col: 0, row: 0 });
});

test('a custom tolerance moves the threshold', () => {
  const geo = g();
  assert.deepEqual(snap(3, 0, geo), { col: 0, row: 0 });
  assert.equal(snap(3, 0, { ...geo, tolerance: 0.3 }), null);
  assert.deepEqual(snap(4.5, 0, { ...geo, tolerance: 0.49 }), { col: 0, row: 0 });
});

test('taps just outside the outer lines snap to the edge points', () => {
  const geo = g({ size: 15 });
  const last = 14;
  assert.deepEqual(snap(...tapNear(geo, 0, 5, -0.3, 0.1), geo), { col: 0, row: 5 }); // left
  assert.deepEqual(snap(...tapNear(geo, last, 5, 0.3, -0.1), geo), { col: last, row: 5 }); // right
  assert.deepEqual(snap(...tapNear(geo, 8, 0, 0.1, -0.38), geo), { col: 8, row: 0 }); // top, 0.393 out
  assert.deepEqual(snap(...tapNear(geo, 8, last, -0.1, 0.35), geo), { col: 8, row: last }); // bottom
  assert.deepEqual(snap(...tapNear(geo, 0, 0, -0.25, -0.25), geo), { col: 0, row: 0 }); // corner, 0.354 out
  assert.deepEqual(snap(...tapNear(geo, last, last, 0.2, 0.3), geo), { col: last, row: last });
});

test('taps 0.4 pitch or more outside the board do not snap', () => {
  const geo = g({ size: 15 });
  assert.equal(snap(...tapNear(geo, 0, 5, -0.4, 0), geo), null);
  assert.equal(snap(...tapNear(geo, 0, 5, -0.45, 0), geo), null);
  assert.equal(snap(...tapNear(geo, 14, 5, 0.41, 0), geo), null);
  assert.equal(snap(...tapNear(geo, 8, 0, 0, -2), geo), null);
  // Where a column or row -1 would be: nothing there, whatever is near it.
  assert.equal(snap(...tapNear(geo, 0, 7, -0.8, 0), geo), null);
  assert.equal(snap(...tapNear(geo, 7, 0, 0.1, -1), geo), null);
  assert.equal(snap(...tapNear(geo, 14, 7, 1, 0), geo), null);
  assert.equal(snap(...tapNear(geo, 0, 0, -0.3, -0.3), geo), null); // 0.424 out diagonally
  assert.equal(snap(-1000, -1000, geo), null);
  assert.equal(snap(1e6, 50, geo), null);
});

test('a board that is not at the origin', () => {
  const geo = g({ originX: 137.5, originY: 412.25, pitch: 23.4 });
  assert.deepEqual(snap(...tapNear(geo, 7, 7, 0.1, -0.2), geo), { col: 7, row: 7 });
  assert.deepEqual(snap(...tapNear(geo, 2, 13, -0.3, 0.05), geo), { col: 2, row: 13 });
  assert.equal(snap(...tapNear(geo, 2, 13, 0.5, 0.5), geo), null);
  // The same tap without the offset is elsewhere entirely.
  assert.equal(snap(7 * 23.4, 7 * 23.4, geo), null);
});

test('fractional pitches: every point of every size is reached from all four sides', () => {
  for (const size of [13, 15, 19]) {
    for (const pitch of [17.3, 23.47, 31.999, 48.125]) {
      const geo = { originX: 11.7, originY: 93.3, pitch, size };
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          for (const [dx, dy] of [[0.3, 0.2], [-0.3, 0.2], [0.2, -0.3], [-0.2, -0.3], [0, 0]]) {
            const got = snap(...tapNear(geo, col, row, dx, dy), geo);
            assert.deepEqual(got, { col, row }, `size ${size} pitch ${pitch} (${col},${row}) +(${dx},${dy})`);
          }
          assert.equal(snap(...tapNear(geo, col, row, 0.5, 0.5), geo), null);
        }
      }
    }
  }
});

test('a scaled board (CSS zoom, device pixels) snaps the same in its own coordinates', () => {
  for (const scale of [0.5, 1.25, 2, 3]) {
    const base = { originX: 20, originY: 40, pitch: 24, size: 15 };
    const scaled = { originX: base.originX * scale, originY: base.originY * scale, pitch: base.pitch * scale, size: 15 };
    for (const [x, y] of [[30, 50], [92.5, 161], [200, 200], [356, 377], [44, 40 + 24 * 7.5]]) {
      assert.deepEqual(snap(x * scale, y * scale, scaled), snap(x, y, base), `scale ${scale} at ${x},${y}`);
    }
  }
});

test('sizes 13, 15 and 19: the far corner and just beyond it', () => {
  for (const size of [13, 15, 19]) {
    const geo = g({ size, pitch: 20 });
    const far = size - 1;
    assert.deepEqual(snap(...tapNear(geo, far, far, 0.1, 0.1), geo), { col: far, row: far });
    assert.deepEqual(snap(...tapNear(geo, far, 0, 0.3, -0.2), geo), { col: far, row: 0 });
    assert.equal(snap(...tapNear(geo, far, far, 0.5, 0), geo), null);
    assert.equal(snap(...tapNear(geo, size, size, 0, 0), geo), null); // where a point would be on a bigger board
  }
});

test('bad geometry never throws and never snaps', () => {
  assert.equal(snap(NaN, 5, g()), null);
  assert.equal(snap(5, Infinity, g()), null);
  assert.equal(snap(5, 5, g({ pitch: 0 })), null);
  assert.equal(snap(5, 5, g({ pitch: -10 })), null);
  assert.equal(snap(5, 5, g({ size: 0 })), null);
  assert.equal(snap(5, 5, g({ size: 2.5 })), null);
  assert.equal(snap(0, 0, g({ originX: NaN })), null);
  assert.deepEqual(snap(1, 1, g({ size: 1 })), { col: 0, row: 0 });
  assert.equal(snap(12, 0, g({ size: 1 })), null);
});

test('agrees with a brute-force "nearest point within 0.4 pitch" over 20 000 random taps', () => {
  // Within 0.4 < 0.5 pitch of a tap, only the corners of its (clamped) cell can lie, so the
  // four-corner rule must pick exactly the board's nearest point whenever that is close enough.
  let seed = 0x9e3779b9;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  for (let i = 0; i < 20000; i++) {
    const size = [13, 15, 19][i % 3];
    const geo = { originX: random() * 500 - 250, originY: random() * 500 - 250, pitch: 5 + random() * 60, size };
    // Taps over the board and up to one pitch beyond it on every side.
    const x = geo.originX + (random() * (size + 1) - 1) * geo.pitch;
    const y = geo.originY + (random() * (size + 1) - 1) * geo.pitch;
    let best = null;
    let bestDist = Infinity;
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const d = Math.hypot(x - (geo.originX + col * geo.pitch), y - (geo.originY + row * geo.pitch)) / geo.pitch;
        if (d < bestDist) [best, bestDist] = [{ col, row }, d];
      }
    }
    const expected = bestDist < 0.4 ? best : null;
    // Skip taps within rounding distance of the threshold, where the two computations may differ.
    if (Math.abs(bestDist - 0.4) < 1e-9) continue;
    assert.deepEqual(snap(x, y, geo), expected, `tap (${x}, ${y}) on ${JSON.stringify(geo)}`);
  }
});
