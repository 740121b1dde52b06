// What the management use cases share: the store, the clock, the compiler used to check documents, and the
// compiled-rule cache (dependency walks reuse compiled rules instead of compiling again), and the solver.
import type { Problem } from '../../engine/errors.ts';
import type { Store } from '../../store/ports.ts';
import type { Actor } from '../keys.ts';
import type { Role } from '../roles.ts';
import type { Clock } from '../clock.ts';
import type { RuleCache } from '../rule-cache.ts';
import type { SolveService } from '../solve.ts';
import type { RuleCompiler } from './documents.ts';
import type { PublishGate } from './publish-gate.ts';

export interface ManagementContext {
  store: Store;
  clock: Clock;
  compile: RuleCompiler;
  cache: RuleCache;
  /** Solves documents that are not stored (the draft test bench). */
  solver: Pick<SolveService, 'solveDocument'>;
  /** Runs a version's tests before a write publishes it (the rule tests service); absent: nothing is gated. */
  publishGate?: PublishGate;
}

/** What a write to a rule version may carry besides its content. */
export interface WriteOptions {
  /** The If-Match precondition as the client sent it (undefined: none); see etag.ts. */
  ifMatch?: string;
  /** Who writes, for the rule history: the management key's name, "cli", or null (a key without a name). */
  by?: string | null;
  /** Who writes, for the activity log and the approvals' "last editor" (absent: the command line). */
  actor?: Actor;
  /**
   * The writer's role: a write that would leave a version published needs `rules:publish` (a route that only
   * needs `rules:edit` can carry a body that publishes). Absent: not restricted (the command line, on the server).
   */
  role?: Role;
  /** `?force=true`: publish even when tests fail (the publishing gate; the run is recorded as forced). */
  force?: boolean;
}

/** A rule version's document with its entity tag (etag.ts). */
export interface VersionedDocument {
  document: Record<string, unknown>;
  etag: string;
  /** What the write stored but flags (cells outside their column's valid values); absent on reads. */
  warnings?: Problem[];
}
