// Placeholder: the rule-document validator (engine-foundation issue) replaces this.
import type { Problem } from '../engine/errors.ts';

export function validateRuleDocument(document: unknown): Problem[] {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return [{ path: '', message: 'a rule document must be a JSON object' }];
  }
  return [];
}
