// Validates a rule document and reports every problem at once, each with its JSON path and reason
// (`decisionTable.rows[3].cells[1].scalarCondition.operator: unknown operator "betwen"`).
// The envelope is common to all types; each type's body has its own module, chosen from BODY_CHECKS.
import type { Problem } from './problems.ts';
import type { RuleType } from './rule-types.ts';
import { Problems, describe, isObject, text } from './check.ts';
import type { JsonObject } from './check.ts';
import { checkEnvelope } from './envelope.ts';
import { NON_FINITE_MESSAGE, nonFiniteNumbers } from './non-finite.ts';
import { checkDecisionTable } from './decision-table.ts';
import { checkDecisionTree } from './decision-tree.ts';
import { checkLookupTable } from './lookup-table.ts';
import { checkComposition } from './composition.ts';
import { checkWorkflow } from './workflow.ts';
import { checkDecisionGraph } from './decision-graph.ts';

type BodyCheck = (doc: JsonObject, out: Problems) => void;

const checkScript: BodyCheck = (doc, out) => {
  if (doc.script === undefined || doc.script === null) out.add('script', 'is required for a scripting rule (JavaScript source as a string)');
  else text()(doc.script, 'script', out);
};

const BODY_CHECKS: Record<RuleType, BodyCheck> = {
  'decision-table': checkDecisionTable,
  'decision-tree': checkDecisionTree,
  'lookup-table': checkLookupTable,
  'complex-rule': checkScript,
  composition: checkComposition,
  workflow: checkWorkflow,
  'integration-flow': checkWorkflow,
  'decision-graph': checkDecisionGraph,
};

/** Every problem of `document`; an empty list means the document is valid. Unknown fields are ignored. */
export function validateRuleDocument(document: unknown): Problem[] {
  if (!isObject(document)) return [{ path: '', message: `a rule document must be a JSON object (got ${describe(document)})` }];
  const out = new Problems();
  checkEnvelope(document, out);
  const type = document.type;
  if (typeof type === 'string' && Object.hasOwn(BODY_CHECKS, type)) BODY_CHECKS[type as RuleType](document, out);
  // Stored as JSON text, Infinity would silently become null; refuse it wherever a field check has not already.
  const reported = new Set(out.list.map((p) => p.path));
  for (const path of nonFiniteNumbers(document, '')) if (!reported.has(path)) out.add(path, NON_FINITE_MESSAGE);
  return out.finish();
}
