// Every rule type the Studio edits. Which types exist, their labels, strategies and whether they are flows or
// solvable come from their descriptors (src/rules/rule-types.ts); this names the editor of each. The order here
// is the order `New rule` offers them in.
import { RULE_TYPE_DESCRIPTORS } from '../../../src/rules/rule-types.ts';
import type { RuleType } from '../../../src/rules/rule-types.ts';
import type { RuleEditor, RuleKind } from './types.ts';
import { tableKind } from '../designer/kind.ts';
import { compositionKind, workflowKind } from '../flow/kind.ts';
import { decisionGraphKind } from '../graph/kind.ts';
import { dmnKind } from '../dmn/kind.ts';
import { lookupKind } from '../lookup/kind.ts';
import { scriptKind } from '../script/kind.ts';
import { treeKind } from '../tree/kind.ts';

/** Every rule type, named here so a new one is a decision: its editor, or null when the Studio does not edit it. */
const EDITORS = {
  'decision-table': tableKind,
  'decision-tree': treeKind,
  'lookup-table': lookupKind,
  'complex-rule': scriptKind,
  workflow: workflowKind,
  composition: compositionKind,
  'decision-graph': decisionGraphKind,
  dmn: dmnKind,
  // Stored and exported, never solved: DecisionRules runs them as background jobs.
  'integration-flow': null,
} satisfies Record<RuleType, RuleEditor | null>;

function kindOfType(type: RuleType, editor: RuleEditor): RuleKind {
  const descriptor = RULE_TYPE_DESCRIPTORS.find((d) => d.type === type)!;
  // One strategy is no choice: the bench then sends none.
  const strategies = editor.strategies ?? (descriptor.strategies.length > 1 ? descriptor.strategies : undefined);
  return { ...editor, type, label: descriptor.label, flow: descriptor.flow, solvable: descriptor.solvable, strategies };
}

export const RULE_KINDS: readonly RuleKind[] = (Object.entries(EDITORS) as [RuleType, RuleEditor | null][]).flatMap(([type, editor]) =>
  editor ? [kindOfType(type, editor)] : [],
);

/** The kind for a rule document's `type`, or undefined when the Studio cannot edit that type. */
export function kindOf(type: string): RuleKind | undefined {
  return RULE_KINDS.find((k) => k.type === type);
}
