// Where the flow canvas looks (studio/src/flow/view.ts): a flow that fits at normal size is fitted, a larger one
// opens at normal size from its start, and an added node is brought on screen with as little movement as possible.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstView, READABLE_ZOOM, viewOnNode } from '../../studio/src/flow/view.ts';

const canvas = { width: 600, height: 500 };
const card = (x: number, y: number) => ({ x, y, width: 190, height: 60 });

test('a flow that fits at normal size is fitted and centred, never enlarged', () => {
  const view = firstView({ x: 0, y: 0, width: 400, height: 100 }, card(0, 20), canvas);
  assert.equal(view.zoom, 1);
  assert.equal(view.x, 100);
  assert.equal(view.y, 200);
});

test('a flow too wide to read whole opens at normal size, its start at the left edge and centred vertically', () => {
  const start = card(300, 300);
  const view = firstView({ x: 300, y: 0, width: 3000, height: 700 }, start, canvas);
  assert.equal(view.zoom, 1);
  assert.equal(300 * view.zoom + view.x, 40, 'the start 40 px from the left');
  assert.equal(330 * view.zoom + view.y, 250, 'its middle at the canvas middle');
  assert.ok(view.zoom >= READABLE_ZOOM);
});

test('an added node already on screen does not move the view; one off screen is brought in just enough', () => {
  const bounds = { x: 0, y: 0, width: 3000, height: 700 };
  const current = { x: 0, y: 0, zoom: 1 };
  assert.deepEqual(viewOnNode(current, bounds, card(100, 100), canvas), current);
  const moved = viewOnNode(current, bounds, card(1000, 100), canvas);
  assert.equal(moved.zoom, 1);
  assert.equal(1190 + moved.x, 560, 'its right edge 40 px inside the canvas');
  assert.equal(moved.y, 0);
});

test('after an add, a view zoomed out below readable returns to normal size, centred on the new node', () => {
  const view = viewOnNode({ x: 0, y: 0, zoom: 0.2 }, { x: 0, y: 0, width: 3000, height: 700 }, card(1000, 100), canvas);
  assert.deepEqual(view, { x: 300 - 1095, y: 250 - 130, zoom: 1 });
});
