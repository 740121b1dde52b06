// The function library as editors see it: every callable name with its arity and a one-line signature, read
// from the registry the compiler uses (functions/index.ts), so completion never offers a function the engine
// lacks. Pure and DOM-free: the Studio's expression editor imports it.
import { functionCatalogEntries } from './functions/index.ts';

export interface FunctionInfo {
  name: string;
  /** Other names of the same function (internal AST names, deprecated names). */
  aliases: readonly string[];
  /** The library group: math, logical, text, date, data, array or integration. */
  group: string;
  min: number;
  /** Infinity for functions taking any number of arguments. */
  max: number;
  /** e.g. `ROUND(number, [places])`, `SUM(number…)`. */
  signature: string;
}

/** Names the parser builds for operators; never typed, so not offered. */
const OPERATOR_NAMES = new Set(['PLUS_CHAR', 'MINUS_CHAR', 'TIMES_CHAR', 'DIVIDED_CHAR', 'MODULO_CHAR', 'EVAL']);

/** `NAME(params)` from the definition's parameter names, else from its arity (`arg1, [arg2]`, `value…`). */
export function signatureOf(name: string, min: number, max: number, params?: string): string {
  if (params !== undefined) return `${name}(${params})`;
  if (max === Infinity) {
    const fixed = Array.from({ length: Math.max(0, min - 1) }, (_, i) => `arg${i + 1}`);
    return `${name}(${[...fixed, 'value…'].join(', ')})`;
  }
  const names = Array.from({ length: max }, (_, i) => (i < min ? `arg${i + 1}` : `[arg${i + 1}]`));
  if (max === 1 && min === 1) names[0] = 'value';
  return `${name}(${names.join(', ')})`;
}

let cached: FunctionInfo[] | undefined;

/** Every function a user may type, sorted by name; aliases are listed as their own entries pointing to the same arity. */
export function functionCatalog(): readonly FunctionInfo[] {
  if (cached) return cached;
  const out: FunctionInfo[] = [];
  for (const { def, group } of functionCatalogEntries()) {
    for (const name of [def.name, ...(def.aliases ?? [])]) {
      if (OPERATOR_NAMES.has(name)) continue;
      const aliases = [def.name, ...(def.aliases ?? [])].filter((n) => n !== name && !OPERATOR_NAMES.has(n));
      out.push({ name, aliases, group, min: def.min, max: def.max, signature: signatureOf(name, def.min, def.max, def.params) });
    }
  }
  out.push({ name: 'TEXT', aliases: [], group: 'text', min: 1, max: 1, signature: 'TEXT(raw text)' });
  cached = out.sort((a, b) => a.name.localeCompare(b.name));
  return cached;
}
