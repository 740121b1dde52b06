// Small building blocks for the rule-document validator: JSON paths, a bounded problem list, and field
// checks composed from tables. Every check reports into a Problems list and never throws, so one pass
// over a document yields every problem at once.
import type { Problem } from './problems.ts';

/** Validation stops collecting after this many problems: past that a listing helps nobody and costs bandwidth. */
export const MAX_PROBLEMS = 200;

export class Problems {
  readonly list: Problem[] = [];
  private dropped = 0;

  add(path: string, message: string): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push({ path, message });
    else this.dropped++;
  }

  get count(): number {
    return this.list.length + this.dropped;
  }

  /** The problems, with a closing note when some were not listed. */
  finish(): Problem[] {
    if (this.dropped === 0) return this.list;
    return [...this.list, { path: '', message: `${this.dropped} more problems not listed` }];
  }
}

export type Check = (value: unknown, path: string, out: Problems) => void;

/** `decisionTable` + `rows` -> `decisionTable.rows`; numbers become `[n]`; odd keys become `["my key"]`. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (isIdentifier(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/**
 * /^[A-Za-z_$][A-Za-z0-9_$]*$/ as a loop: validating a 40,000-row table builds about a million paths, and the
 * regular expression cost more than the rest of `at`.
 */
function isIdentifier(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    const letter = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36;
    if (!letter && (i === 0 || code < 48 || code > 57)) return false;
  }
  return true;
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** "a string", "an array", "null"… for messages such as `must be an object (got an array)`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

export function quote(value: unknown): string {
  return JSON.stringify(String(value));
}

/** Reports a wrong type and tells the caller whether to descend. */
export function expectObject(value: unknown, path: string, out: Problems): value is JsonObject {
  if (isObject(value)) return true;
  out.add(path, `must be an object (got ${describe(value)})`);
  return false;
}

export function expectArray(value: unknown, path: string, out: Problems): value is unknown[] {
  if (Array.isArray(value)) return true;
  out.add(path, `must be an array (got ${describe(value)})`);
  return false;
}

/** A field of an object and the check its value must pass. `null` counts as absent for optional fields. */
export interface FieldRule {
  key: string;
  required?: boolean;
  /** Appended to "is required", e.g. `(one of decision-table, …)`. */
  hint?: string;
  check: Check;
}

export function checkFields(obj: JsonObject, path: string, rules: readonly FieldRule[], out: Problems): void {
  // Indexed, and a field's path built only when it is checked or reported: rows run this tens of thousands of times.
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    const value = obj[rule.key];
    if (value === undefined || (value === null && !rule.required)) {
      if (rule.required) out.add(at(path, rule.key), rule.hint ? `is required ${rule.hint}` : 'is required');
      continue;
    }
    rule.check(value, at(path, rule.key), out);
  }
}

export function text(options: { max?: number; nonEmpty?: boolean; pattern?: RegExp; patternText?: string } = {}): Check {
  return (value, path, out) => {
    if (typeof value !== 'string') return out.add(path, `must be a string (got ${describe(value)})`);
    if (options.nonEmpty && value.trim() === '') return out.add(path, 'must not be empty');
    if (options.max !== undefined && value.length > options.max) {
      return out.add(path, `must be at most ${options.max} characters (got ${value.length})`);
    }
    if (options.pattern && value !== '' && !options.pattern.test(value)) {
      out.add(path, `${options.patternText ?? `must match ${String(options.pattern)}`} (got ${quote(value)})`);
    }
  };
}

export function oneOf(values: readonly string[], what: string): Check {
  return (value, path, out) => {
    if (typeof value === 'string' && values.includes(value)) return;
    const got = typeof value === 'string' ? quote(value) : describe(value);
    out.add(path, `unknown ${what} ${got} (expected ${listOf(values)})`);
  };
}

export const boolean: Check = (value, path, out) => {
  if (typeof value !== 'boolean') out.add(path, `must be true or false (got ${describe(value)})`);
};

export function integer(min: number): Check {
  return (value, path, out) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      out.add(path, `must be an integer >= ${min} (got ${typeof value === 'number' ? value : describe(value)})`);
    }
  };
}

export function arrayOf(check: Check): Check {
  return (value, path, out) => {
    if (!expectArray(value, path, out)) return;
    value.forEach((item, index) => check(item, at(path, index), out));
  };
}

export function objectWith(rules: readonly FieldRule[]): Check {
  return (value, path, out) => {
    if (expectObject(value, path, out)) checkFields(value, path, rules, out);
  };
}

/** Any value: for fields that must merely be present. */
export const anyValue: Check = () => {};

/** `a, b or c` for messages. */
export function listOf(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/** The closest known word within two edits, for "did you mean" hints on typos (never for very short words). */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance && distance < Math.min(word.length, candidate.length) / 2) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Tracks first occurrences to report duplicates with a pointer to the original. */
export class FirstSeen {
  private readonly seen = new Map<string, string>();

  /** Returns the path of the earlier occurrence when `key` was seen before, else records it. */
  check(key: string, path: string): string | undefined {
    const earlier = this.seen.get(key);
    if (earlier === undefined) this.seen.set(key, path);
    return earlier;
  }
}
