// JSON has no Infinity, but JSON.parse reads a number too large for a double (`1e400`, or 309+ digits) as
// Infinity, which would then be solved or stored (as null) without a word. Inputs and rule documents with such a
// number are refused, naming where it is (docs/decisions/input-bounds.md).
import { at } from './check.ts';

/** The phrase every channel uses after the path. */
export const NON_FINITE_MESSAGE = 'is a number too large to represent (it reads as Infinity); send a smaller number, or a string';

/** A digit followed by an exponent marker (in a string too: then the walk finds nothing, at a small cost). */
const EXPONENT = /\d[eE]/;
/** The fewest digits of an integer part that can exceed Number.MAX_VALUE (about 1.8e308). */
const OVERFLOW_DIGITS = 309;
const LONG_DIGIT_RUN = /\d{309}/;

/**
 * Whether JSON text can hold a number that overflows: only one with an exponent or 309+ digits in a row can. A cheap
 * scan of the raw text, so the ordinary body (no exponent, short numbers) never pays for the walk below.
 */
export function mayHoldNonFinite(text: string): boolean {
  // Two tests, the cheap one first: one alternation costs twice as much, and texts under 309 characters cannot
  // hold a 309-digit run (measured: about 45 ns on a 93-byte body, next to about 550 ns for its JSON.parse).
  return EXPONENT.test(text) || (text.length >= OVERFLOW_DIGITS && LONG_DIGIT_RUN.test(text));
}

/**
 * Paths of the non-finite numbers in a parsed JSON value, in document order. Iterative with an explicit stack: the
 * value may be nested deeper than the call stack allows.
 */
export function* nonFiniteNumbers(value: unknown, root: string): Generator<string> {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) yield path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], at(path, i)]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], at(path, entries[i]![0])]);
    }
  }
}

/** The first non-finite number's path, when the text may hold one; undefined otherwise. */
export function firstNonFinite(text: string, value: unknown, root: string): string | undefined {
  if (!mayHoldNonFinite(text)) return undefined;
  for (const path of nonFiniteNumbers(value, root)) return path;
  return undefined;
}
