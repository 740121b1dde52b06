// JSON has no Infinity, but JSON.parse reads a number too large for a double (`1e400`, or 309+ digits) as
// Infinity, which would then be solved or stored (as null) without a word. Inputs and rule documents with such a
// number are refused, naming where it is (docs/decisions/input-bounds.md).
import { at } from './check.ts';

/** The phrase every channel uses after the path. */
export const NON_FINITE_MESSAGE = 'is a number too large to represent (it reads as Infinity); send a smaller number, or a string';

/**
 * A digit followed by an exponent marker (in a string too: then the walk finds nothing, at a small cost). Without
 * one, only a run of OVERFLOW_DIGITS digits can overflow, which a shorter text cannot hold.
 */
const EXPONENT = /\d[eE]/;
/** The fewest digits of an integer part that can exceed Number.MAX_VALUE (about 1.8e308). */
const OVERFLOW_DIGITS = 309;

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

/**
 * Whether a parsed JSON value holds a non-finite number: the walk of nonFiniteNumbers without building a path per
 * node (on a 10,000-input bulk body, about 1 ms against 10 ms), so paths are built only when there is one to name.
 */
export function holdsNonFinite(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return true;
    } else if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) stack.push(current[i]);
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) if (Object.hasOwn(current, key)) stack.push((current as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/**
 * The first non-finite number's path, or undefined. A short text without an exponent is cleared by its text alone;
 * a longer one is walked (cheaper than scanning a megabyte for a 309-digit run: about 1 ms against 2.5 ms).
 */
export function firstNonFinite(text: string, value: unknown, root: string): string | undefined {
  if (text.length < OVERFLOW_DIGITS ? !EXPONENT.test(text) : !holdsNonFinite(value)) return undefined;
  for (const path of nonFiniteNumbers(value, root)) return path;
  return undefined;
}
