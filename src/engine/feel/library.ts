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
import type { FeelNode } from './ast.ts';
import { feelCompare } from './compare.ts';
import { FeelRange, type FeelFunction } from './values.ts';

const library = new Map<string, FeelFunction>();
for (const f of [...CONVERSION, ...STRINGS, ...LISTS, ...NUMBERS, ...CONTEXTS, ...RANGE_FUNCTIONS, ...TEMPORAL]) library.set(f.name, f);
const BUILTIN_NAMES_LIST = [...library.keys(), 'range'];

const LITERAL_CONSTRUCTORS = new Set(['date', 'time', 'date and time', 'duration']);

/** An endpoint `range()` accepts: a literal, or a temporal constructor called with a string literal. */
function literalEndpoint(node: FeelNode | null): boolean {
  if (node === null) return true;
  if (node.t === 'number' || node.t === 'string' || node.t === 'temporal' || node.t === 'null') return true;
  if (node.t === 'negate') return node.operand.t === 'number';
  return node.t === 'call' && node.fn.t === 'name' && LITERAL_CONSTRUCTORS.has(node.fn.name) && node.args.length === 1 && node.args[0]!.t === 'string';
}

/** `range("[1..10]")`: the text of a range literal whose endpoints are literals, ascending. */
const rangeFunction = fn('range', [['from']], ([from], env) => {
  if (typeof from !== 'string') return env.warn('range(): expects a text');
  let node: FeelNode;
  try {
    node = parseExpression(from, [], BUILTIN_NAMES_LIST);
  } catch {
    return env.warn(`range(): "${from}" is not a range`);
  }
  if (node.t !== 'range' || !literalEndpoint(node.start) || !literalEndpoint(node.end)) return env.warn(`range(): "${from}" is not a range of literals`);
  const value = new Compiler(library).compile(node)(Env.root({}));
  if (!(value instanceof FeelRange) || (value.start === null && value.end === null)) return env.warn(`range(): "${from}" is not a valid range`);
  if (value.start !== undefined && value.end !== undefined && value.start !== null && value.end !== null && (feelCompare(value.start, value.end) ?? 1) > 0) {
    return env.warn(`range(): "${from}" ends before it starts`);
  }
  return value;
});
library.set('range', rangeFunction);

/** Every built-in function by its FEEL name. */
export const BUILTINS: ReadonlyMap<string, FeelFunction> = library;

/** Names of the built-in functions, for the parser (several hold spaces: `string length`, `day of week`). */
export const BUILTIN_NAMES: readonly string[] = [...library.keys()];
