// The function library: every group registered under its name and its aliases (both directions, §4.7).
import type { FunctionDef } from './types.ts';
import { mathFunctions } from './math.ts';
import { logicalFunctions } from './logical.ts';
import { textFunctions } from './text.ts';
import { dateFunctions } from './date.ts';
import { dataFunctions } from './data.ts';
import { arrayFunctions } from './array.ts';
import { integrationFunctions } from './integration.ts';

export type { FunctionDef, EagerFunction, SpecialFunction } from './types.ts';

const registry = new Map<string, FunctionDef>();

for (const def of [
  ...mathFunctions,
  ...logicalFunctions,
  ...textFunctions,
  ...dateFunctions,
  ...dataFunctions,
  ...arrayFunctions,
  ...integrationFunctions,
]) {
  for (const name of [def.name, ...(def.aliases ?? [])]) {
    if (registry.has(name)) throw new Error(`function ${name} is registered twice`);
    registry.set(name, def);
  }
}

/** The definition for an upper-case function name or alias. TEXT is a parser form and is not listed. */
export function findFunction(name: string): FunctionDef | undefined {
  return registry.get(name);
}

/** Every callable name (for documentation and tests). */
export function functionNames(): string[] {
  return [...registry.keys(), 'TEXT'].sort();
}
