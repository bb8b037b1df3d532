// Board drawing. The board is DOM, not canvas: one `role="gridcell"` per intersection carries
// the state as data attributes (stone, last move, forbidden, winning, ghost, hint) and CSS draws
// it, so tests and assistive technology read exactly what the player sees. Lines, star points
// and coordinates are one SVG in "pitch" units (the point (col, row) sits at (col + 1, row + 1)
// in a viewBox of size + 1), so the drawing is crisp at any size and never needs a redraw.
//
// `update` diffs against what it last wrote and touches only the cells that changed.

import { toRif, columnLetter } from './coords.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Star points (hoshi) for a board size, as [col, row]. */
export function starPoints(size) {
  if (size < 9) return size % 2 ? [[(size - 1) / 2, (size - 1) / 2]] : [];
  const e = size >= 13 ? 3 : 2;
  const far = size - 1 - e;
  const mid = (size - 1) / 2;
  const points = [[e, e], [far, e], [e, far], [far, far]];
  if (size % 2) points.push([mid, mid]);
  if (size >= 19 && size % 2) points.push([mid, e], [mid, far], [e, mid], [far, mid]);
  return points;
}

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * @param {HTMLElement} root the `#board` element
 * @param {{ label: (point: string, stone: string, forbidden: boolean) => string }} options
 */
/**
 * Where a candidate's label may go around its ring, in order of preference: which point of the
 * label is anchored (ax, ay: 0 to 1 of its width and height) where (dx, dy: pitches from the
 * point). Below and above just under the ring, then clear of the rings beside it, then shifted
 * sideways (for a wide label at the edge of the board).
 */
const LABEL_SIDES = (() => {
  const out = [
    { side: 'below', ax: 0.5, ay: 0, dx: 0, dy: 0.32 },
    { side: 'above', ax: 0.5, ay: 1, dx: 0, dy: -0.32 },
    { side: 'right', ax: 0, ay: 0.5, dx: 0.44, dy: 0 },
    { side: 'left', ax: 1, ay: 0.5, dx: -0.44, dy: 0 },
  ];
  for (const [name, ay, dy] of [['below-clear', 0, 0.44], ['above-clear', 1, -0.44]]) out.push({ side: name, ax: 0.5, ay, dx: 0, dy });
  for (const [name, ay, dy] of [['below', 0, 0.32], ['above', 1, -0.32], ['below-clear', 0, 0.44], ['above-clear', 1, -0.44]]) {
    out.push({ side: `${name}-start`, ax: 0, ay, dx: -0.42, dy }, { side: `${name}-end`, ax: 1, ay, dx: 0.42, dy });
  }
  return out;
})();

export function createBoard(root, { label }) {
  let size = 0;
  let cells = [];
  let written = [];
  let focusIndex = -1;
  let overlay = null;
  let winLine = null;
  let crossH = null;
  let crossV = null;
  let lastWin = '';
  let lastCross = -2;
  let marks = null;
  let lastMarks = '';

  const resize = new ResizeObserver(() => {
    if (!size) return;
    const pitch = root.clientWidth / (size + 1);
    // Coordinates stay only while they are legible; the board itself always keeps its size.
    root.toggleAttribute('data-compact', pitch < 17);
    placeLabels();
  });
  resize.observe(root);

  function build(n) {
    size = n;
    root.replaceChildren();
    root.dataset.size = String(n);
    root.style.setProperty('--n', String(n));
    const view = `0 0 ${n + 1} ${n + 1}`;

    const lines = svg('svg', { class: 'lines', viewBox: view, 'aria-hidden': 'true', focusable: 'false' });
    let d = '';
    for (let i = 1; i < n - 1; i++) d += `M1 ${i + 1}H${n}M${i + 1} 1V${n}`;
    lines.append(svg('path', { class: 'grid', d, 'vector-effect': 'non-scaling-stroke' }));
    lines.append(svg('rect', { class: 'frame', x: 1, y: 1, width: n - 1, height: n - 1, 'vector-effect': 'non-scaling-stroke' }));
    for (const [c, r] of starPoints(n)) lines.append(svg('circle', { class: 'star', cx: c + 1, cy: r + 1, r: 0.1 }));
    // Coordinates are HTML, not SVG text: some webviews clamp tiny SVG font sizes to a minimum.
    const coords = document.createElement('div');
    coords.className = 'coords';
    coords.setAttribute('aria-hidden', 'true');
    const at = (units) => `${(units / (n + 1)) * 100}%`;
    for (let i = 0; i < n; i++) {
      const letter = document.createElement('span');
      letter.textContent = columnLetter(i).toUpperCase();
      letter.style.left = at(i + 1);
      letter.style.top = at(n + 0.72);
      const rank = document.createElement('span');
      rank.textContent = String(n - i);
      rank.style.left = at(0.24);
      rank.style.top = at(i + 1);
      coords.append(letter, rank);
    }

    const points = document.createElement('div');
    points.className = 'points';
    points.setAttribute('role', 'rowgroup');
    cells = [];
    for (let row = 0; row < n; row++) {
      const rowEl = document.createElement('div');
      rowEl.className = 'row';
      rowEl.setAttribute('role', 'row');
      for (let col = 0; col < n; col++) {
        const cell = document.createElement('div');
        cell.className = 'cell';
        cell.setAttribute('role', 'gridcell');
        cell.tabIndex = -1;
        cell.dataset.point = toRif(col, row, n);
        cell.dataset.stone = '';
        cell.dataset.index = String(row * n + col);
        rowEl.append(cell);
        cells.push(cell);
      }
      points.append(rowEl);
    }

    overlay = svg('svg', { class: 'overlay', viewBox: view, 'aria-hidden': 'true', focusable: 'false' });
    crossH = svg('line', { class: 'cross', x1: 1, x2: n, y1: 0, y2: 0, 'vector-effect': 'non-scaling-stroke' });
    crossV = svg('line', { class: 'cross', y1: 1, y2: n, x1: 0, x2: 0, 'vector-effect': 'non-scaling-stroke' });
    winLine = svg('line', { class: 'winline' });
    overlay.append(crossH, crossV, winLine);

    // Analysis marks (principal variation, candidates): HTML above the cells, never hit by taps.
    marks = document.createElement('div');
    marks.className = 'marks';
    marks.setAttribute('aria-hidden', 'true');

    root.append(lines, coords, points, marks, overlay);
    written = cells.map(() => ({}));
    lastWin = '';
    lastMarks = '';
    lastCross = -2;
    focusIndex = -1;
    setFocusIndex(Math.floor((n * n) / 2));
    root.toggleAttribute('data-compact', root.clientWidth / (n + 1) < 17);
  }

  function write(i, name, value) {
    const memo = written[i];
    if (memo[name] === value) return;
    memo[name] = value;
    const cell = cells[i];
    if (value === null) cell.removeAttribute(name);
    else cell.setAttribute(name, value);
  }

  /**
   * @param {object} m
   * @param {number} m.size
   * @param {string[]} m.stones per index: 'black' | 'white' | ''
   * @param {number[]} m.order per index: move number (1-based) or 0
   * @param {boolean} m.numbers show move numbers
   * @param {number} m.last index of the last move or -1
   * @param {Map<number,string>} m.forbidden index → reason (only while black is to move)
   * @param {number[]} m.win indices of the winning line
   * @param {{index: number, color: string} | null} m.ghost
   * @param {number} m.cross index the crosshair follows while a finger is down, or -1
   * @param {number} m.hint index or -1
   * @param {{index: number, n: number, color: string}[]} [m.pv] the best line as numbered ghost stones
   * @param {{index: number, rank: number, label: string}[]} [m.candidates] candidate moves with their labels
   * @param {{index: number, label: string} | null} [m.better] review: the move the engine preferred
   */
  function update(m) {
    if (m.size !== size) build(m.size);
    const win = new Set(m.win);
    root.toggleAttribute('data-numbers', m.numbers);
    for (let i = 0; i < cells.length; i++) {
      const stone = m.stones[i] || '';
      const forbidden = !stone && m.forbidden.has(i) ? m.forbidden.get(i) : null;
      write(i, 'data-stone', stone);
      write(i, 'data-last', i === m.last ? 'true' : null);
      write(i, 'data-num', stone && m.order[i] ? String(m.order[i]) : null);
      write(i, 'data-forbidden', forbidden);
      write(i, 'data-win', win.has(i) ? 'true' : null);
      write(i, 'data-ghost', m.ghost && m.ghost.index === i && !stone ? m.ghost.color : null);
      write(i, 'data-hint', i === m.hint && !stone ? 'true' : null);
      write(i, 'aria-label', label(cells[i].dataset.point, stone, forbidden !== null));
    }
    drawWinLine(m.win);
    drawCross(m.cross);
    drawMarks(m.pv ?? [], m.candidates ?? [], m.better ?? null, m.stones);
  }

  function drawMarks(pv, candidates, better, stones) {
    const key = JSON.stringify([pv, candidates, better]);
    if (key === lastMarks) return;
    lastMarks = key;
    const at = (units) => `${(units / (size + 1)) * 100}%`;
    const place = (el, index) => {
      el.style.left = at((index % size) + 1);
      el.style.top = at(Math.floor(index / size) + 1);
      el.dataset.point = cells[index].dataset.point;
    };
    const out = [];
    for (const c of candidates) {
      if (stones[c.index]) continue;
      const el = document.createElement('span');
      el.className = 'mark cand';
      el.dataset.rank = String(c.rank);
      place(el, c.index);
      const label = document.createElement('b');
      label.textContent = c.label;
      el.append(label);
      out.push(el);
    }
    for (const p of pv) {
      if (stones[p.index]) continue;
      const el = document.createElement('span');
      el.className = 'mark pv';
      el.dataset.color = p.color;
      el.dataset.n = String(p.n);
      el.textContent = String(p.n);
      place(el, p.index);
      out.push(el);
    }
    if (better && !stones[better.index]) {
      const el = document.createElement('span');
      el.className = 'mark better';
      place(el, better.index);
      out.push(el);
    }
    marks.replaceChildren(...out);
    placeLabels();
  }

  /**
   * Puts each candidate's label (best first) on the first place around its ring (LABEL_SIDES)
   * where it covers no other candidate's ring, no label placed before it and nothing off the
   * board, and if it can, no ghost stone of the best line; where no place is free, where it
   * covers least. Measured, not computed: the label's width depends on its text and font.
   */
  function placeLabels() {
    if (!marks) return;
    const area = marks.getBoundingClientRect();
    // Not laid out (hidden): place them when it is.
    if (!area.width) {
      lastMarks = '';
      return;
    }
    const cands = [...marks.querySelectorAll('.mark.cand')].sort((a, b) => a.dataset.rank - b.dataset.rank);
    const rings = cands.map((c) => c.getBoundingClientRect());
    // The best line's ghost stones, but for those under a ring (the first is the best move's).
    const ringed = new Set(cands.map((c) => c.dataset.point));
    const ghosts = [...marks.querySelectorAll('.mark.pv')].filter((g) => !ringed.has(g.dataset.point)).map((g) => g.getBoundingClientRect());
    const placed = [];
    const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    const outside = (r) => Math.max(0, area.left - r.left) + Math.max(0, r.right - area.right) + Math.max(0, area.top - r.top) + Math.max(0, r.bottom - area.bottom);
    cands.forEach((cand, k) => {
      const label = cand.querySelector('b');
      if (!label) return;
      let best = null;
      const put = (p) => {
        label.dataset.side = p.side;
        for (const key of ['ax', 'ay', 'dx', 'dy']) label.style.setProperty(`--${key}`, String(p[key]));
      };
      for (const p of LABEL_SIDES) {
        put(p);
        const r = label.getBoundingClientRect();
        const hard = rings.reduce((s, ring, j) => s + (j === k ? 0 : overlap(r, ring)), 0) + placed.reduce((s, q) => s + overlap(r, q), 0) + outside(r) * r.height;
        const soft = ghosts.filter((g) => overlap(r, g) > 0).length;
        const cost = hard * 1e6 + soft;
        if (!best || cost < best.cost) best = { p, rect: r, cost };
        if (cost === 0) break;
      }
      put(best.p);
      placed.push(best.rect);
    });
  }

  function drawWinLine(indices) {
    const key = indices.join(',');
    if (key === lastWin) return;
    lastWin = key;
    if (indices.length < 2) {
      winLine.removeAttribute('data-on');
      return;
    }
    const pts = indices.map((i) => [i % size, Math.floor(i / size)]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const [a, b] = [pts[0], pts[pts.length - 1]];
    winLine.setAttribute('x1', String(a[0] + 1));
    winLine.setAttribute('y1', String(a[1] + 1));
    winLine.setAttribute('x2', String(b[0] + 1));
    winLine.setAttribute('y2', String(b[1] + 1));
    winLine.setAttribute('data-on', '');
  }

  function drawCross(index) {
    if (index === lastCross) return;
    lastCross = index;
    if (index < 0) {
      overlay.removeAttribute('data-cross');
      return;
    }
    const c = (index % size) + 1;
    const r = Math.floor(index / size) + 1;
    crossH.setAttribute('y1', String(r));
    crossH.setAttribute('y2', String(r));
    crossV.setAttribute('x1', String(c));
    crossV.setAttribute('x2', String(c));
    overlay.setAttribute('data-cross', '');
  }

  /** Roving tabindex: exactly one cell is in the tab order. */
  function setFocusIndex(index, { focus = false } = {}) {
    if (index < 0 || index >= cells.length) return;
    if (focusIndex !== index) {
      if (cells[focusIndex]) cells[focusIndex].tabIndex = -1;
      focusIndex = index;
      cells[index].tabIndex = 0;
    }
    if (focus) cells[index].focus({ preventScroll: true });
  }

  /** Centre of the top-left point and the distance between lines, as rendered right now. */
  function geometry() {
    const first = cells[0].getBoundingClientRect();
    const last = cells[cells.length - 1].getBoundingClientRect();
    const originX = first.left + first.width / 2;
    const originY = first.top + first.height / 2;
    const pitch = size > 1 ? (last.left + last.width / 2 - originX) / (size - 1) : first.width;
    return { originX, originY, pitch, size };
  }

  /** Force every label to be rewritten (after a language change). */
  function relabel() {
    for (const memo of written) delete memo['aria-label'];
  }

  return {
    update,
    geometry,
    setFocusIndex,
    relabel,
    get focusIndex() {
      return focusIndex;
    },
    get size() {
      return size;
    },
    cell: (i) => cells[i],
    destroy() {
      resize.disconnect();
      root.replaceChildren();
    },
  };
}
