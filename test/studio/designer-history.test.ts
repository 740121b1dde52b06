// Selection and keyboard movement, and the undo/redo stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellSelection, clampSelection, moveTo, navigate, rangeOf, selectAll } from '../../studio/src/designer/model/selection.ts';
import { canRedo, canUndo, COALESCE_MS, HISTORY_LIMIT, record, redo, startHistory, undo } from '../../studio/src/designer/model/history.ts';

const size = { rows: 100, cols: 5 };

test('arrows move, stop at the edges, and extend with shift', () => {
  let sel = cellSelection(0, 0);
  sel = navigate(sel, 'ArrowDown', {}, size, 10)!;
  sel = navigate(sel, 'ArrowRight', {}, size, 10)!;
  assert.deepEqual(sel.focus, { row: 1, col: 1 });
  assert.deepEqual(navigate(cellSelection(0, 0), 'ArrowUp', {}, size, 10)!.focus, { row: 0, col: 0 });
  assert.deepEqual(navigate(cellSelection(0, 4), 'ArrowRight', {}, size, 10)!.focus, { row: 0, col: 4 });
  const extended = navigate(navigate(sel, 'ArrowDown', { shift: true }, size, 10)!, 'ArrowRight', { shift: true }, size, 10)!;
  assert.deepEqual(rangeOf(extended), { top: 1, left: 1, bottom: 2, right: 2 });
  assert.deepEqual(rangeOf(navigate(extended, 'ArrowLeft', {}, size, 10)!), { top: 2, left: 1, bottom: 2, right: 1 }, 'a plain arrow collapses');
});

test('Home/End, Ctrl+Home/End, Ctrl+arrows and PageUp/PageDown', () => {
  const sel = cellSelection(50, 2);
  assert.deepEqual(navigate(sel, 'Home', {}, size, 10)!.focus, { row: 50, col: 0 });
  assert.deepEqual(navigate(sel, 'End', {}, size, 10)!.focus, { row: 50, col: 4 });
  assert.deepEqual(navigate(sel, 'Home', { primary: true }, size, 10)!.focus, { row: 0, col: 0 });
  assert.deepEqual(navigate(sel, 'End', { primary: true }, size, 10)!.focus, { row: 99, col: 4 });
  assert.deepEqual(navigate(sel, 'ArrowDown', { primary: true }, size, 10)!.focus, { row: 99, col: 2 });
  assert.deepEqual(navigate(sel, 'PageDown', {}, size, 20)!.focus, { row: 70, col: 2 });
  assert.deepEqual(navigate(sel, 'PageUp', {}, size, 80)!.focus, { row: 0, col: 2 });
  assert.deepEqual(rangeOf(navigate(sel, 'PageDown', { shift: true }, size, 20)!), { top: 50, left: 2, bottom: 70, right: 2 });
  assert.equal(navigate(sel, 'x', {}, size, 10), undefined);
});

test('Tab wraps to the next row, Shift+Tab to the previous', () => {
  assert.deepEqual(navigate(cellSelection(3, 4), 'Tab', {}, size, 10)!.focus, { row: 4, col: 0 });
  assert.deepEqual(navigate(cellSelection(3, 0), 'Tab', { shift: true }, size, 10)!.focus, { row: 2, col: 4 });
  assert.deepEqual(navigate(cellSelection(99, 4), 'Tab', {}, size, 10)!.focus, { row: 99, col: 4 });
  assert.deepEqual(rangeOf(navigate(cellSelection(3, 1), 'Tab', { shift: true }, size, 10)!), { top: 3, left: 0, bottom: 3, right: 0 }, 'Shift+Tab never extends');
});

test('shift+click extends from the anchor; clamping after deletes; select all', () => {
  const sel = moveTo(cellSelection(2, 1), { row: 10, col: 3 }, true, size);
  assert.deepEqual(rangeOf(sel), { top: 2, left: 1, bottom: 10, right: 3 });
  assert.deepEqual(clampSelection(sel, { rows: 5, cols: 2 }), { anchor: { row: 2, col: 1 }, focus: { row: 4, col: 1 } });
  assert.deepEqual(rangeOf(selectAll(size)), { top: 0, left: 0, bottom: 99, right: 4 });
  assert.equal(navigate(sel, 'ArrowDown', {}, { rows: 0, cols: 5 }, 10), undefined);
});

test('undo and redo step through recorded documents; a new edit drops the redo branch', () => {
  let h = startHistory('a');
  h = record(h, 'b', { now: 0 });
  h = record(h, 'c', { now: 5000 });
  assert.equal(h.present, 'c');
  h = undo(h);
  assert.equal(h.present, 'b');
  assert.ok(canRedo(h));
  h = redo(h);
  assert.equal(h.present, 'c');
  h = undo(undo(h));
  assert.equal(h.present, 'a');
  assert.ok(!canUndo(h));
  assert.equal(undo(h), h, 'undo at the start changes nothing');
  h = redo(h);
  h = record(h, 'x', { now: 9000 });
  assert.ok(!canRedo(h));
  assert.deepEqual([...h.past, h.present], ['a', 'b', 'x']);
});

test('typing with one coalescing key is one undo step; a pause or another key starts a new one', () => {
  let h = startHistory('');
  h = record(h, 'h', { coalesceKey: 'cell:1:1', now: 0 });
  h = record(h, 'he', { coalesceKey: 'cell:1:1', now: 200 });
  h = record(h, 'hel', { coalesceKey: 'cell:1:1', now: 400 });
  assert.deepEqual([...h.past, h.present], ['', 'hel']);
  h = record(h, 'hel!', { coalesceKey: 'cell:1:1', now: 400 + COALESCE_MS + 1 });
  h = record(h, 'other', { coalesceKey: 'cell:2:1', now: 400 + COALESCE_MS + 2 });
  assert.deepEqual([...h.past, h.present], ['', 'hel', 'hel!', 'other']);
  h = undo(h);
  h = record(h, 'again', { coalesceKey: 'cell:2:1', now: 400 + COALESCE_MS + 3 });
  assert.deepEqual([...h.past, h.present], ['', 'hel', 'hel!', 'again'], 'no coalescing right after an undo');
});

test('recording the same document is not a step, and the stack is bounded', () => {
  let h = startHistory(0);
  assert.equal(record(h, 0), h);
  for (let i = 1; i <= HISTORY_LIMIT + 50; i++) h = record(h, i, { now: i * 10_000 });
  assert.equal(h.past.length, HISTORY_LIMIT);
  assert.equal(h.past[0], 50);
});
