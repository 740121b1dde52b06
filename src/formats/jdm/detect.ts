// Which format a parsed JSON file is in: a JDM decision graph has top-level `nodes` and `edges` and no rule `type`
// (a DecisionRules decision flow keeps nodes too, always with its `type`). A file with both fields but a broken one
// is still read as JDM, so its problems are JDM's ("nodes: must be an array"); everything else is read as
// DecisionRules, whose reader says precisely when it is not an export.
export type RuleFileFormat = 'jdm' | 'decisionrules';

export function detectFormat(json: unknown): RuleFileFormat {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'decisionrules';
  const value = json as Record<string, unknown>;
  return value.type === undefined && value.nodes !== undefined && value.edges !== undefined ? 'jdm' : 'decisionrules';
}
