// What the management use cases share: the store, the clock, the compiler used to check documents, and the
// compiled-rule cache (dependency walks reuse compiled rules instead of compiling again).
import type { Store } from '../../store/ports.ts';
import type { Clock } from '../clock.ts';
import type { RuleCache } from '../rule-cache.ts';
import type { RuleCompiler } from './documents.ts';
import type { PublishGate } from './publish-gate.ts';

export interface ManagementContext {
  store: Store;
  clock: Clock;
  compile: RuleCompiler;
  cache: RuleCache;
  /** Runs a version's tests before a write publishes it (the rule tests service); absent: nothing is gated. */
  publishGate?: PublishGate;
}
