// The built-in function library of FEEL by name, and `range(from)`, which reads range text with the parser.
import { fn } from './builtin.ts';
import { Compiler } from './compile.ts';
import { Env } from './env.ts';
import { CONTEXTS } from './functions/contexts.ts';
import { CONVERSION } from './functions/conversion.ts';
import { LISTS } from './functions/lists.ts';
import { NUMBERS } from './functions/numbers.ts';
import { RANGE_FUNCTIONS } from './functions/ranges.ts';
import { STRINGS } from './functions/strings.ts';
import { TEMPORAL } from './functions/temporal.ts';
import { parseExpression } from './parser.ts';
import { FeelRange, type FeelFunction } from './values.ts';

const library = new Map<string, FeelFunction>();
for (const f of [...CONVERSION, ...STRINGS, ...LISTS, ...NUMBERS, ...CONTEXTS, ...RANGE_FUNCTIONS, ...TEMPORAL]) library.set(f.name, f);

/** `range("[1..10]")`: the text of a range literal or of a simple unary test such as `< 10`. */
const rangeFunction = fn('range', [['from']], ([from], env) => {
  if (typeof from !== 'string') return env.warn('range(): expects a text');
  try {
    const node = parseExpression(from, []);
    if (node.t !== 'range' && node.t !== 'unaryCompare') return env.warn(`range(): "${from}" is not a range`);
    const endpoints = node.t === 'range' ? [node.start, node.end] : [node.value];
    if (endpoints.some((e) => e !== null && !['number', 'string', 'temporal', 'call', 'null'].includes(e.t))) return env.warn(`range(): "${from}" has endpoints that are not literals`);
    const value = new Compiler(library).compile(node)(Env.root({}));
    return value instanceof FeelRange ? value : env.warn(`range(): "${from}" is not a valid range`);
  } catch {
    return env.warn(`range(): "${from}" is not a range`);
  }
});
library.set('range', rangeFunction);

/** Every built-in function by its FEEL name. */
export const BUILTINS: ReadonlyMap<string, FeelFunction> = library;

/** Names of the built-in functions, for the parser (several hold spaces: `string length`, `day of week`). */
export const BUILTIN_NAMES: readonly string[] = [...library.keys()];
