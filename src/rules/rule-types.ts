// The rule types of the DecisionRules document format (spec/rule-format.md §1.1): the `type` field of every rule.
export const RULE_TYPES = [
  'decision-table',
  'decision-tree',
  'complex-rule',
  'lookup-table',
  'composition',
  'workflow',
  'integration-flow',
  'decision-graph',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];
