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

const GROUPS: readonly (readonly [string, readonly FunctionDef[]])[] = [
  ['math', mathFunctions],
  ['logical', logicalFunctions],
  ['text', textFunctions],
  ['date', dateFunctions],
  ['data', dataFunctions],
  ['array', arrayFunctions],
  ['integration', integrationFunctions],
];

for (const def of GROUPS.flatMap(([, defs]) => defs)) {
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

/** Every definition with its library group, in registration order (for the editor's function catalog). */
export function functionCatalogEntries(): { def: FunctionDef; group: string }[] {
  return GROUPS.flatMap(([group, defs]) => defs.map((def) => ({ def, group })));
}
