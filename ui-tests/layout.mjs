// The window sizes of issue 26 §7 and what is checked at them, shared by the layout test
// (browser-layout.test.mjs) and the screenshot script (screenshots.mjs).
import { PHONE, DESKTOP } from './harness.mjs';

export const SIZES = [
  { width: 360, height: 600, touch: true },
  { width: 390, height: 844, touch: true },
  { width: 480, height: 800, touch: false },
  { width: 1280, height: 1000, touch: false },
];
export const deviceOf = (size) => ({
  ...(size.touch ? PHONE : DESKTOP),
  deviceScaleFactor: size.touch ? 2 : 1,
  viewport: { width: size.width, height: size.height },
});

/**
 * Runs in the page: what is cut or wrapped on screen now, as one line each (empty when the
 * layout is whole). Text inside the board (coordinates, move numbers, candidate labels) is the
 * board's drawing, not laid-out text, and is left out.
 */
export function layoutProblems() {
  const out = [];
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only, dialog:not([open]), #board');
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''} "${el.textContent.trim().replace(/\s+/g, ' ').slice(0, 60)}"`;
  const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const rectsOf = (nodes) => nodes.flatMap((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return [...range.getClientRects()].filter((r) => r.width > 0);
  });
  const allText = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) if (walker.currentNode.textContent.trim() && shown(walker.currentNode.parentElement)) nodes.push(walker.currentNode);
    return nodes;
  };
  // Line boxes: text rects whose tops differ by more than half a line are on different lines.
  const lines = (rects) => {
    const tops = [];
    for (const r of [...rects].sort((a, b) => a.top - b.top)) if (!tops.length || r.top - tops[tops.length - 1] > r.height / 2) tops.push(r.top);
    return tops.length;
  };
  const scrolls = (s, axis) => /auto|scroll/.test(axis === 'x' ? s.overflowX : s.overflowY);

  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || !shown(el)) continue;
    const text = ownText(el);
    if (!text.length) continue;
    // The box that lays the text out: the element, or its nearest ancestor that is not inline.
    let box = el;
    while (box.parentElement && /^(inline|contents)$/.test(getComputedStyle(box).display)) box = box.parentElement;
    const style = getComputedStyle(box);
    if (box.scrollWidth > box.clientWidth) out.push(`cut sideways (${box.scrollWidth} > ${box.clientWidth} px): ${name(box)}`);
    else if (style.textOverflow === 'ellipsis' && style.overflowX !== 'visible') {
      // scrollWidth is rounded: an ellipsis can hide a fraction of a pixel's overflow.
      const right = box.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
      if (rectsOf(text).some((r) => r.right > right + 0.5)) out.push(`ellipsised: ${name(box)}`);
    }
    if (style.overflowY !== 'visible' && !scrolls(style, 'y') && box.scrollHeight > box.clientHeight) out.push(`cut below (${box.scrollHeight} > ${box.clientHeight} px): ${name(box)}`);
    if (style.webkitLineClamp !== 'none' && style.webkitLineClamp && box.scrollHeight > box.clientHeight) out.push(`line-clamped: ${name(box)}`);
    // Text spilling out of its box is cut by any ancestor that clips (a scroller only sideways).
    const rects = rectsOf(text);
    for (let a = box.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      const clipX = s.overflowX !== 'visible';
      const clipY = s.overflowY !== 'visible' && !scrolls(s, 'y');
      if (!clipX && !clipY) continue;
      const r = a.getBoundingClientRect();
      const outX = clipX && rects.some((t) => t.left < r.left - 0.5 || t.right > r.right + 0.5);
      const outY = clipY && rects.some((t) => t.top < r.top - 0.5 || t.bottom > r.bottom + 0.5);
      if (outX || outY) {
        out.push(`clipped by ${name(a)}: ${name(el)}`);
        break;
      }
    }
  }

  // Buttons and the settings' segmented choices: a label on one line.
  for (const button of document.querySelectorAll('button, .seg label > span, .chip')) {
    if (!shown(button)) continue;
    const n = lines(rectsOf(allText(button)));
    if (n > 1) out.push(`label on ${n} lines: ${name(button)}`);
  }
  // Rows of buttons that are rows by design stay on one line.
  const rows = ['.swap-row', '.review-bar', '.editor-palette', '.actions', '.setup-choices'];
  if (matchMedia('(orientation: portrait)').matches) rows.push('.toolbar', '.editor-row');
  for (const row of document.querySelectorAll(rows.join(', '))) {
    if (!shown(row)) continue;
    const s = getComputedStyle(row);
    if (s.display === 'grid' ? s.gridTemplateColumns.split(' ').length < 2 : s.flexDirection.startsWith('column')) continue; // a column
    const items = [...row.children].filter((c) => shown(c) && c.matches('button, select'));
    if (lines(items.map((c) => c.getBoundingClientRect())) > 1) out.push(`buttons on more than one line: ${name(row)}`);
  }
  // A <select> shows its whole choice (the drop-down arrow takes about 20 px in Chromium).
  const ctx = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('select')) {
    if (!shown(select) || select.selectedIndex < 0) continue;
    const s = getComputedStyle(select);
    ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const text = select.options[select.selectedIndex].text;
    const need = ctx.measureText(text).width;
    const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;
    if (need > room) out.push(`select clips "${text}" (${need.toFixed(0)} > ${room.toFixed(0)} px): ${name(select)}`);
  }
  // The screen's parts never overlap (issue 26 §4: the editor's status bar over the header).
  const parts = ['.brand', '.statusbar', '#board', '#panel', '.toolbar', '#editor'].map((sel) => document.querySelector(sel)).filter((el) => el?.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  for (const [i, a] of parts.entries()) {
    for (const b of parts.slice(i + 1)) {
      const r = a.getBoundingClientRect();
      const q = b.getBoundingClientRect();
      const x = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const y = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (x > 0.5 && y > 0.5) out.push(`${name(a).split(' ')[0]} and ${name(b).split(' ')[0]} overlap (${x.toFixed(0)}×${y.toFixed(0)} px)`);
    }
  }
  return out;
}

/** Where the board and the Analysis button are: neither may move when a panel opens or closes. */
export const fixedBoxes = (page) => page.evaluate(() => Object.fromEntries(['#board', '#analysis'].map((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return [sel, { x: r.x, y: r.y, width: r.width, height: r.height }];
})));
