// The registry of rule types (spec/rule-format.md §1.1): one descriptor per type (src/rules/types/), and every
// list of types derived from them, so a type is added in one place. The engine maps the solvable ones to their
// compilers (src/engine/rule-types.ts), the Studio every one it edits to its editor (studio/src/kinds/registry.ts).
import type { Strategy } from './strategies.ts';
import { decisionTableType } from './types/decision-table.ts';
import { decisionTreeType } from './types/decision-tree.ts';
import { complexRuleType } from './types/complex-rule.ts';
import { lookupTableType } from './types/lookup-table.ts';
import { compositionType } from './types/composition.ts';
import { integrationFlowType, workflowType } from './types/workflow.ts';
import { decisionGraphType } from './types/decision-graph.ts';
import { dmnType } from './types/dmn.ts';

export type { RuleTypeDescriptor, ReferenceKind } from './types/descriptor.ts';
export type { DocumentModel } from './model/document.ts';
export type { DecisionTableModel } from './model/decision-table.ts';

/** Every rule type, in the order people are offered them. */
export const RULE_TYPE_DESCRIPTORS = [
  decisionTableType,
  decisionTreeType,
  complexRuleType,
  lookupTableType,
  compositionType,
  workflowType,
  integrationFlowType,
  decisionGraphType,
  dmnType,
] as const;

type Descriptors = (typeof RULE_TYPE_DESCRIPTORS)[number];

/** The `type` field of every rule. */
export type RuleType = Descriptors['type'];
/** The types a solve can run: the engine has a compiler for each of these and only these. */
export type SolvableRuleType = Extract<Descriptors, { readonly solvable: true }>['type'];
/** A rule read into typed structures (readRule, validate.ts): one model per type, told apart by `type`. */
export type RuleModel = ReturnType<Descriptors['read']>;
export type RuleModelOf<T extends RuleType> = Extract<RuleModel, { readonly type: T }>;

/** Non-empty, as schema enums (zod, MCP) want it. */
export const RULE_TYPES = RULE_TYPE_DESCRIPTORS.map((d) => d.type) as readonly RuleType[] as readonly [RuleType, ...RuleType[]];
export const SOLVABLE_RULE_TYPES = RULE_TYPE_DESCRIPTORS.filter((d) => d.solvable).map((d) => d.type) as readonly SolvableRuleType[];
export const FLOW_RULE_TYPES: readonly RuleType[] = RULE_TYPE_DESCRIPTORS.filter((d) => d.flow).map((d) => d.type);

const BY_TYPE: ReadonlyMap<string, Descriptors> = new Map(RULE_TYPE_DESCRIPTORS.map((d) => [d.type, d]));

export function isRuleType(type: unknown): type is RuleType {
  return typeof type === 'string' && BY_TYPE.has(type);
}

/** The descriptor of `type`, or undefined when no rule type has that name. */
export function ruleTypeDescriptorOf(type: unknown): Descriptors | undefined {
  return typeof type === 'string' ? BY_TYPE.get(type) : undefined;
}

export function isSolvableType(type: unknown): type is SolvableRuleType {
  return ruleTypeDescriptorOf(type)?.solvable === true;
}

export function isFlowType(type: unknown): boolean {
  return ruleTypeDescriptorOf(type)?.flow === true;
}

/** The strategies a rule of `type` applies; an unknown type only STANDARD. */
export function strategiesOf(type: unknown): readonly Strategy[] {
  return ruleTypeDescriptorOf(type)?.strategies ?? ['STANDARD'];
}
