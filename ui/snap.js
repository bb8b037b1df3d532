// Tap → intersection, by the four-corner rule.
//
// A tap falls into one grid cell (the square between four lines). Only that cell's four corners
// are candidates, so a tap can never jump to a far point; the nearest corner wins when it is
// closer than `tolerance × pitch`, otherwise the tap is ambiguous (near a cell's centre or
// half-way along a line) and is ignored rather than guessed. The cell index is clamped to the
// board, which is what lets a tap slightly outside the outer lines still reach the edge points.
//
// Pure: no DOM. The caller measures `originX`/`originY` (the centre of the top-left point) and
// `pitch` from the rendered board at every tap, so CSS scaling, rotation and zoom cannot skew it.

/**
 * @param {number} x tap position, same coordinate space as originX
 * @param {number} y tap position, same coordinate space as originY
 * @param {{originX: number, originY: number, pitch: number, size: number, tolerance?: number}} geometry
 * @returns {{col: number, row: number} | null} 0-based; row 0 is the top line
 */
export function snap(x, y, { originX, originY, pitch, size, tolerance = 0.4 }) {
  if (![x, y, originX, originY, pitch, tolerance].every(Number.isFinite)) return null;
  if (!Number.isInteger(size) || size < 1 || !(pitch > 0) || !(tolerance > 0)) return null;

  const fx = (x - originX) / pitch;
  const fy = (y - originY) / pitch;
  // A one-point board has no cells; its single corner is the only candidate.
  const lastCell = Math.max(size - 2, 0);
  const cx = clamp(Math.floor(fx), 0, lastCell);
  const cy = clamp(Math.floor(fy), 0, lastCell);

  let best = null;
  let bestDist = Infinity;
  for (const col of [cx, cx + 1]) {
    for (const row of [cy, cy + 1]) {
      if (col >= size || row >= size) continue;
      const dist = Math.hypot(fx - col, fy - row);
      if (dist < bestDist) {
        bestDist = dist;
        best = { col, row };
      }
    }
  }
  return bestDist < tolerance ? best : null;
}

function clamp(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
