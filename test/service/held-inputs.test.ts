// The inputs an instance keeps as objects for its own worker (src/service/jobs/held-inputs.ts): bounded, handed over
// once, and forgotten when the job's later chunks are taken or the job ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HeldInputs } from '../../src/service/jobs/held-inputs.ts';

test('a chunk is handed over once; chunks before it, taken elsewhere, are forgotten with it', () => {
  const held = new HeldInputs(10);
  held.hold('s', 'job', 0, [{ a: 0 }]);
  held.hold('s', 'job', 1, [{ a: 1 }, { a: 2 }]);
  held.hold('s', 'job', 2, [{ a: 3 }]);
  assert.equal(held.size, 4);
  assert.deepEqual(held.take('job', 1), [{ a: 1 }, { a: 2 }]);
  assert.equal(held.take('job', 1), undefined, 'handed over once');
  assert.equal(held.has('job', 0), false, 'chunk 0 was leased by another instance');
  assert.equal(held.size, 1);
  assert.deepEqual(held.jobs(), [{ space: 's', jobId: 'job' }]);
  held.drop('job');
  assert.equal(held.size, 0);
  assert.deepEqual(held.jobs(), []);
});

test('chunks past the limit are not held (their inputs are read back from the store)', () => {
  const held = new HeldInputs(3);
  held.hold('s', 'a', 0, [1, 2]);
  held.hold('s', 'b', 0, [3, 4]);
  assert.equal(held.has('a', 0), true);
  assert.equal(held.has('b', 0), false);
  assert.equal(held.size, 2);
  assert.equal(held.take('b', 0), undefined);
  held.take('a', 0);
  held.hold('s', 'b', 1, [5, 6, 7]);
  assert.equal(held.has('b', 1), true, 'room again once handed over');
});
