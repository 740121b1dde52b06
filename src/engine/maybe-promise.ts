// A value now, or a promise of it later: what every evaluation step returns (docs/decisions/engine-one-evaluator.md).
//
// Each step of the engine (an expression node, a cell, a table row, a tree block) is written once. It returns its
// value directly while nothing below it waits, and a promise only when something does (an HTTP_* call, a SOLVE of a
// rule that waits, a script). Callers test for a promise and only then chain, so rules that never wait never
// allocate a promise; where a step is known at compile time never to wait, the caller skips even the test.
//
// Performance rule: the continuation that runs after a promise lives in a separate function (see the `resume*`
// helpers next to each step), never as an arrow inside the step. An arrow that captures a step's locals makes
// V8 allocate a context for them on every call, and inside a loop on every iteration, even when no promise
// appears: exactly the cost the synchronous path must not pay.

export type MaybePromise<T> = T | Promise<T>;

/** True for the promises evaluation steps return. Values the engine handles are JSON-like, never promises. */
export function isPromise(value: unknown): value is Promise<unknown> {
  return value instanceof Promise;
}

/** `next(value)` now, or once `value` settles. */
export function andThen<T, R>(value: MaybePromise<T>, next: (settled: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
