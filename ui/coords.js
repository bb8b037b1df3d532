// RIF coordinates: columns a… left to right, rows 1… bottom to top ("h8" is the centre of 15×15).
// The board keeps points as (col, row) with row 0 at the top, like the engine's Point.

const LETTERS = 'abcdefghijklmnopqrst';

/** @returns {string} e.g. "h8" */
export function toRif(col, row, size) {
  return LETTERS[col] + String(size - row);
}

/** @returns {{col: number, row: number} | null} */
export function fromRif(text, size) {
  const m = /^([a-t])(\d{1,2})$/.exec(String(text).trim().toLowerCase());
  if (!m) return null;
  const col = LETTERS.indexOf(m[1]);
  const rank = Number(m[2]);
  if (col >= size || rank < 1 || rank > size) return null;
  return { col, row: size - rank };
}

export function columnLetter(col) {
  return LETTERS[col];
}
