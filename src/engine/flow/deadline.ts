// Flows check the solve's deadline between nodes. Reading the clock for a limit (not for a result) is the one
// clock access the engine allows besides ctx.now.
import { TimeoutError } from '../errors.ts';
import type { EvaluationContext } from '../types.ts';

export function checkDeadline(ctx: EvaluationContext): void {
  if (Number.isFinite(ctx.deadline) && Date.now() > ctx.deadline) throw new TimeoutError(ctx.timeoutMs);
}
