// Pointer and keyboard input for the board. Pointer Events cover touch, pen and mouse with one
// code path; every pointer position is snapped with geometry measured from the rendered board
// at that moment (see snap.js). Only the first pointer counts, so a resting palm or a second
// finger cannot place stones.
//
// The handlers receive point indices (row × size + col), or -1 for "no point" (a dead-zone tap).

import { snap } from './snap.js';

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * @param {HTMLElement} el the board element
 * @param {ReturnType<import('./render.js').createBoard>} board
 * @param {{
 *   onGesture?: () => void,
 *   onPress?: (index: number, pointerType: string) => void,
 *   onDrag?: (index: number) => void,
 *   onRelease?: (index: number, pointerType: string) => void,
 *   onCancel?: () => void,
 *   onHover?: (index: number) => void,
 *   onCursor?: (index: number) => void,
 *   onEscape?: () => void,
 *   onActivate?: (index: number) => void,
 *   onUndo?: () => void,
 *   onRedo?: () => void,
 * }} handlers
 * @returns {() => void} unbind
 */
export function bindInput(el, board, handlers) {
  const h = handlers;
  let active = null;
  let lastIndex = -1;

  function locate(e) {
    const g = board.geometry();
    const p = snap(e.clientX, e.clientY, g);
    return p ? p.row * g.size + p.col : -1;
  }

  function down(e) {
    if (active !== null || !e.isPrimary) return;
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    h.onGesture?.();
    active = e.pointerId;
    // Keep receiving moves and the release even if the finger slides off the board.
    try {
      el.setPointerCapture(e.pointerId);
    } catch {
      // An already-released pointer cannot be captured; its pointerup is still ours.
    }
    lastIndex = locate(e);
    h.onPress?.(lastIndex, e.pointerType);
  }

  function move(e) {
    if (active === null && e.pointerType === 'mouse') {
      // A mouse can point without pressing: preview where a click would go.
      const index = locate(e);
      if (index !== lastIndex) {
        lastIndex = index;
        h.onHover?.(index);
      }
      return;
    }
    if (e.pointerId !== active) return;
    const index = locate(e);
    if (index === lastIndex) return;
    lastIndex = index;
    h.onDrag?.(index);
  }

  function up(e) {
    if (e.pointerId !== active) return;
    active = null;
    h.onRelease?.(locate(e), e.pointerType);
  }

  function cancel(e) {
    if (e.pointerId !== active) return;
    active = null;
    h.onCancel?.();
  }

  function leave(e) {
    if (active !== null || e.pointerType !== 'mouse') return;
    lastIndex = -1;
    h.onHover?.(-1);
  }

  function boardKey(e) {
    const size = board.size;
    const i = board.focusIndex;
    let col = i % size;
    let row = Math.floor(i / size);
    if (e.key in ARROWS && !e.altKey && !e.ctrlKey && !e.metaKey) {
      const [dx, dy] = ARROWS[e.key];
      col = Math.min(size - 1, Math.max(0, col + dx));
      row = Math.min(size - 1, Math.max(0, row + dy));
    } else if (e.key === 'Home') {
      col = 0;
      if (e.ctrlKey) row = 0;
    } else if (e.key === 'End') {
      col = size - 1;
      if (e.ctrlKey) row = size - 1;
    } else if (e.key === 'Escape') {
      h.onEscape?.();
      return;
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (!e.repeat) {
        h.onGesture?.();
        h.onActivate?.(i);
      }
      return;
    } else {
      return;
    }
    e.preventDefault();
    board.setFocusIndex(row * size + col, { focus: true });
    h.onCursor?.(row * size + col);
  }

  function focusIn(e) {
    const cell = e.target.closest?.('[role="gridcell"]');
    if (!cell) return;
    const index = Number(cell.dataset.index);
    board.setFocusIndex(index);
    // A click also focuses a cell; only keyboard focus shows the cursor stone.
    if (cell.matches(':focus-visible')) h.onCursor?.(index);
  }

  function focusOut(e) {
    if (!el.contains(e.relatedTarget)) h.onCursor?.(-1);
  }

  function globalKey(e) {
    const target = e.target;
    if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const mod = e.ctrlKey || e.metaKey;
    if (!mod || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key === 'z' && !e.shiftKey) {
      e.preventDefault();
      h.onUndo?.();
    } else if (key === 'y' || (key === 'z' && e.shiftKey)) {
      e.preventDefault();
      h.onRedo?.();
    }
  }

  // A long press would otherwise open the context menu or start a text selection.
  const noMenu = (e) => e.preventDefault();

  const bindings = [
    [el, 'pointerdown', down],
    [el, 'pointermove', move],
    [el, 'pointerup', up],
    [el, 'pointercancel', cancel],
    [el, 'lostpointercapture', cancel],
    [el, 'pointerleave', leave],
    [el, 'contextmenu', noMenu],
    [el, 'keydown', boardKey],
    [el, 'focusin', focusIn],
    [el, 'focusout', focusOut],
    [document, 'keydown', globalKey],
  ];
  for (const [target, type, fn] of bindings) target.addEventListener(type, fn);
  return () => {
    for (const [target, type, fn] of bindings) target.removeEventListener(type, fn);
  };
}
