// Validates a rule document and reports every problem at once, each with its JSON path and reason
// (`decisionTable.rows[3].cells[1].scalarCondition.operator: unknown operator "betwen"`).
// The envelope is common to all types; each type's body is checked by its descriptor (src/rules/types/).
import type { Problem } from './problems.ts';
import { ruleTypeDescriptorOf } from './rule-types.ts';
import { Problems, describe, isObject } from './check.ts';
import { checkEnvelope } from './envelope.ts';
import { NON_FINITE_MESSAGE, nonFiniteNumbers } from './non-finite.ts';


/** Every problem of `document`; an empty list means the document is valid. Unknown fields are ignored. */
export function validateRuleDocument(document: unknown): Problem[] {
  if (!isObject(document)) return [{ path: '', message: `a rule document must be a JSON object (got ${describe(document)})` }];
  const out = new Problems();
  checkEnvelope(document, out);
  ruleTypeDescriptorOf(document.type)?.check(document, out);
  // Stored as JSON text, Infinity would silently become null; refuse it wherever a field check has not already.
  const reported = new Set(out.list.map((p) => p.path));
  for (const path of nonFiniteNumbers(document, '')) if (!reported.has(path)) out.add(path, NON_FINITE_MESSAGE);
  return out.finish();
}
