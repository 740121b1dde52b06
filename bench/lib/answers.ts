// Brings each engine's raw result into one shape (a list of output objects) and compares answers, so a case is
// only timed after every engine has been shown to return the same thing for every input.

/** The list of output objects a solve produced (matched rows in order, or the one flow output). */
export type Answer = unknown[];

/** Verdict's Solver-API result is already a list (`[]` for no match under STANDARD / FIRST_MATCH). */
export function fromVerdict(result: { result: unknown[] }): Answer {
  return result.result;
}

/** ZEN: `collect` gives a list; `first` gives one object, `{}` when nothing matched. */
export function fromZen(result: unknown, hitPolicy: 'first' | 'collect' | 'single'): Answer {
  if (hitPolicy === 'collect') return Array.isArray(result) ? result : [result];
  if (hitPolicy === 'first' && isEmptyObject(result)) return [];
  return [result];
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

function close(a: number, b: number): boolean {
  // ZEN computes in decimal, JavaScript in binary doubles: allow the last bits of a double to differ.
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** undefined when equal (key order ignored, numbers within double rounding), else where and how they differ. */
export function difference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  if (typeof expected === 'number' && typeof actual === 'number') {
    return close(expected, actual) ? undefined : `${path}: ${expected} vs ${actual}`;
  }
  if (expected === null || actual === null || typeof expected !== 'object' || typeof actual !== 'object') {
    return Object.is(expected, actual) ? undefined : `${path}: ${JSON.stringify(expected)} vs ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) {
    return `${path}: ${JSON.stringify(expected)} vs ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return `${path}: ${expected.length} items vs ${actual.length} items`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
  for (const key of keys) {
    if (!(key in e) || !(key in a)) return `${path}.${key}: ${key in e ? 'missing' : 'unexpected'} (${JSON.stringify(e[key] ?? a[key])})`;
    const d = difference(e[key], a[key], `${path}.${key}`);
    if (d) return d;
  }
  return undefined;
}

export interface AnswerSource {
  engine: string;
  answer(input: unknown): Promise<Answer>;
  /** Compared on the first `limit` inputs only (engines that take seconds per solve). */
  limit?: number;
}

export interface Agreement {
  inputs: number;
  engines: string[];
  /** Inputs that matched at least one row (a check that the inputs exercise the table). */
  nonEmpty: number;
}

/** Asks every engine for every input; throws on the first disagreement, naming the input and the difference. */
export async function checkAgreement(sources: readonly AnswerSource[], inputs: readonly unknown[]): Promise<Agreement> {
  const [reference, ...others] = sources;
  let nonEmpty = 0;
  for (let i = 0; i < inputs.length; i++) {
    const expected = await reference.answer(inputs[i]);
    if (expected.length > 0) nonEmpty++;
    for (const other of others) {
      if (other.limit !== undefined && i >= other.limit) continue;
      const actual = await other.answer(inputs[i]);
      const d = difference(expected, actual);
      if (d) {
        throw new Error(
          `${reference.engine} and ${other.engine} disagree on input #${i} ${JSON.stringify(inputs[i])}: ${d}\n` +
            `  ${reference.engine}: ${JSON.stringify(expected)}\n  ${other.engine}: ${JSON.stringify(actual)}`,
        );
      }
    }
  }
  return { inputs: inputs.length, engines: sources.map((s) => s.engine), nonEmpty };
}
