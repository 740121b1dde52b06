// The deadline check: the one place a solve compares the clock with `ctx.deadline`. Reading the clock for a limit
// (not for a result) is the one clock access the engine allows besides ctx.now.
//
// Every step that runs user logic calls it before it starts: a table row that runs its cells, a tree IF block, a
// flow node. Steps made only of constants (a table's fast rows) do not: they cannot take long, and the hot loop
// stays free of clock reads. A step that waits is checked again by the next step after it resumes.
import { TimeoutError } from './errors.ts';
import type { EvaluationContext } from './types.ts';

export function checkDeadline(ctx: EvaluationContext): void {
  if (ctx.deadline !== Number.POSITIVE_INFINITY && Date.now() > ctx.deadline) throw new TimeoutError(ctx.timeoutMs);
}
