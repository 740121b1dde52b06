// Every rule type the Studio edits. The order is the order `New rule` offers them in.
import type { RuleKind } from './types.ts';
import { tableKind } from '../designer/kind.ts';
import { compositionKind, workflowKind } from '../flow/kind.ts';
import { decisionGraphKind } from '../graph/kind.ts';
import { lookupKind } from '../lookup/kind.ts';
import { scriptKind } from '../script/kind.ts';
import { treeKind } from '../tree/kind.ts';

export const RULE_KINDS: readonly RuleKind[] = [
  tableKind,
  treeKind,
  lookupKind,
  scriptKind,
  workflowKind,
  compositionKind,
  decisionGraphKind,
];

/** The kind for a rule document's `type`, or undefined when the Studio cannot edit that type. */
export function kindOf(type: string): RuleKind | undefined {
  return RULE_KINDS.find((k) => k.type === type);
}
