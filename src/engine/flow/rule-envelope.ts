// The envelope fields a compiled script or flow carries (spec/rule-format.md §1.1, §1.4), read tolerantly:
// the document has already been validated by rules/validate.ts.
import type { CompiledRule } from '../types.ts';

export type RuleIdentity = Pick<CompiledRule, 'ruleId' | 'ruleAlias' | 'version' | 'name'>;

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function ruleIdentity(doc: Record<string, unknown>): RuleIdentity {
  return {
    ruleId: nonEmpty(doc.ruleId) ?? nonEmpty(doc.baseId) ?? nonEmpty(doc.compositionId),
    ruleAlias: nonEmpty(doc.ruleAlias),
    version: typeof doc.version === 'number' && Number.isInteger(doc.version) ? doc.version : undefined,
    name: typeof doc.name === 'string' ? doc.name : '',
  };
}

/** `userVariables` as `{name: value}`; entries without a name are ignored, values keep their JSON type. */
export function ruleVariablesOf(userVariables: unknown): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  if (!Array.isArray(userVariables)) return variables;
  for (const entry of userVariables as unknown[]) {
    if (entry === null || typeof entry !== 'object') continue;
    const { name, value } = entry as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || name === '') continue;
    Object.defineProperty(variables, name, { value: value ?? null, enumerable: true, writable: true, configurable: true });
  }
  return variables;
}
