// Rule variables as a script or flow sees them (spec/rule-format.md §1.4), read tolerantly: the document has
// already been validated by rules/validate.ts. (Their identity comes from ../rule-identity.ts.)

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
