// The publishing gate as rule writes see it (docs/decisions/rule-tests-publishing-gate.md): before a write leaves a
// version published with content its tests have not passed, the gate runs them and refuses (409, failing tests
// listed) unless forced. Implemented by the rule tests service; management writes only call it.
import type { RuleHead } from '../../store/ports.ts';
import type { Actor } from '../keys.ts';
import type { RuleDocument } from './documents.ts';

export interface PublishTarget {
  head: RuleHead;
  /** The document about to be stored (an update); undefined: the stored version (a status change). */
  document?: RuleDocument;
  /** Who publishes: a failing run is recorded in the event log as theirs (absent: the command line). */
  actor?: Actor;
}

export interface PublishGate {
  /** Resolves when the version may be published; throws a 409 ManagementError naming the failing tests otherwise. */
  beforePublish(space: string, target: PublishTarget, force: boolean): Promise<void>;
}

