// Evaluation steps answer with a value, or with a promise only when something they touch waits
// (src/engine/maybe-promise.ts). Tests of steps that must not wait read their answer through this.
import assert from 'node:assert/strict';
import type { MaybePromise } from '../../src/engine/maybe-promise.ts';

/** The answer of a step that must not wait; fails the test when it answered with a promise. */
export function settledNow<T>(answer: MaybePromise<T>): T {
  assert.ok(!(answer instanceof Promise), 'expected an answer without waiting, got a promise');
  return answer as T;
}
