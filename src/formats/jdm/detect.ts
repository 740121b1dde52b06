// Which format a parsed JSON file is in: a JDM decision graph has top-level `nodes` and `edges` arrays and no
// rule `type`; everything else is read as DecisionRules (whose reader says precisely when it is not an export).
export type RuleFileFormat = 'jdm' | 'decisionrules';

export function detectFormat(json: unknown): RuleFileFormat {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'decisionrules';
  const value = json as Record<string, unknown>;
  return Array.isArray(value.nodes) && Array.isArray(value.edges) && value.type === undefined ? 'jdm' : 'decisionrules';
}
