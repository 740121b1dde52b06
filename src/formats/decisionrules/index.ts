// DecisionRules JSON (spec/rule-format.md §9): the export containers Verdict has always read, as a format module
// with the JDM module's shape: read -> rules, problems and what cannot be expressed; write -> the file. The
// container reading itself stays in src/rules/containers.ts (the document's own layer); this module adds the
// format's view: a decision graph has no DecisionRules form except a table graph converted exactly.
import { readContainer, validateContainer } from '../../rules/containers.ts';
import type { RuleContainer } from '../../rules/containers.ts';
import { ValidationError } from '../../rules/problems.ts';
import type { Problem } from '../../rules/problems.ts';
import { graphToTable } from '../jdm/convert.ts';
import { CannotConvertError } from '../jdm/table-spec.ts';
import type { Unsupported } from '../jdm/table-spec.ts';

export { fromVerdictTable, renderVerdictExpr, toVerdictTable, verdictStrategy } from './table.ts';

export interface ReadDecisionRulesResult {
  /** Undefined when the file is not an export at all (then `problems` says why). */
  container: RuleContainer | undefined;
  problems: Problem[];
  /** Always empty: every DecisionRules rule is a Verdict rule. */
  unsupported: Unsupported[];
}

export function readDecisionRules(json: unknown): ReadDecisionRulesResult {
  try {
    const container = readContainer(json);
    return { container, problems: validateContainer(container), unsupported: [] };
  } catch (err) {
    if (err instanceof ValidationError) return { container: undefined, problems: err.problems, unsupported: [] };
    throw err;
  }
}

/**
 * One rule as a DecisionRules file. A decision graph that is exactly input -> table -> output becomes that table
 * (solve it FIRST_MATCH for hit policy first, STANDARD for collect); any other graph throws CannotConvertError.
 */
export function writeDecisionRules(document: Record<string, unknown>): { document: Record<string, unknown>; strategy?: 'FIRST_MATCH' | 'STANDARD' } {
  if (document.type !== 'decision-graph') return { document: { ...document } };
  const converted = graphToTable(document);
  return { document: converted.document, strategy: converted.hitPolicy === 'first' ? 'FIRST_MATCH' : 'STANDARD' };
}

export { CannotConvertError };
