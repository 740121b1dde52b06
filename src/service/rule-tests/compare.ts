// Expected against received solver output, path by path (docs/decisions/rule-tests-comparison.md). Both are the
// result array of a solve. A difference names its path (`[0].price`, `[1].items[2].name`, `[0]["net price"]`),
// what was expected there and what was received. Ignored paths are dotted paths with `[n]` (and `*` / `[*]` for
// any key or index); a path that does not start with `[` applies within every element of the result array, so
// `price` ignores the price of each result row and `[0].price` only that of the first.
import type { Json } from '../../engine/types.ts';
import type { OutputDifference } from '../../store/ports.ts';

type Segment = { key: string } | { index: number } | { any: true };

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

function isRecord(value: unknown): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function keySegment(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function pathText(segments: ReadonlyArray<string | number>): string {
  const text = segments.map((s) => (typeof s === 'number' ? `[${s}]` : keySegment(s))).join('');
  return text.startsWith('.') ? text.slice(1) : text;
}

/** Parses an ignore path; throws an Error whose message says what is wrong and where. */
export function parseIgnorePath(path: string): Segment[] {
  const segments: Segment[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`"${path}" is not an output path (${why} at character ${i + 1}); write e.g. price, items[0].price, [0].price or items[*].price`);
  };
  if (path.trim() === '') fail('empty');
  while (i < path.length) {
    if (path[i] === '[') {
      const end = path.indexOf(']', i);
      if (end < 0) fail('unclosed [');
      const inner = path.slice(i + 1, end).trim();
      if (inner === '*') segments.push({ any: true });
      else if (/^\d+$/.test(inner)) segments.push({ index: Number(inner) });
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) segments.push({ key: JSON.parse(inner) as string });
      else fail('[...] must hold an index, * or a "quoted key"');
      i = end + 1;
      if (i < path.length && path[i] !== '.' && path[i] !== '[') fail('expected . or [ after ]');
      if (path[i] === '.') {
        i++;
        if (i >= path.length) fail('path ends with .');
      }
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
    const key = path.slice(i, end);
    if (key === '') fail('empty key');
    if (key.includes(']')) fail('] without [');
    segments.push(key === '*' ? { any: true } : { key });
    i = end;
    if (path[i] === '.') {
      i++;
      if (i >= path.length) fail('path ends with .');
    }
  }
  return segments;
}

/** Every problem of a list of ignore paths, as messages per index. */
export function ignoreProblems(paths: readonly string[]): Array<{ index: number; message: string }> {
  const problems: Array<{ index: number; message: string }> = [];
  paths.forEach((path, index) => {
    try {
      parseIgnorePath(path);
    } catch (err) {
      problems.push({ index, message: (err as Error).message });
    }
  });
  return problems;
}

class IgnoreMatcher {
  readonly #patterns: Segment[][];

  constructor(paths: readonly string[]) {
    // A path not starting with [n] applies within each element of the result array: prefix it with "any index".
    this.#patterns = paths.map((p) => {
      const segments = parseIgnorePath(p);
      const first = segments[0]!;
      return p.startsWith('[') && !('key' in first) ? segments : [{ any: true } as Segment, ...segments];
    });
  }

  /** True when a pattern names this path or one of its ancestors (ignoring `items` ignores everything in it). */
  ignores(path: ReadonlyArray<string | number>): boolean {
    return this.#patterns.some((pattern) => pattern.length <= path.length && pattern.every((segment, i) => matches(segment, path[i]!)));
  }
}

function matches(segment: Segment, step: string | number): boolean {
  if ('any' in segment) return true;
  if ('index' in segment) return step === segment.index;
  return step === segment.key;
}

/** The differences between expected and received output, ignored paths left out; empty when the test passes. */
export function compareOutput(expected: Json, received: Json, ignore: readonly string[] = []): OutputDifference[] {
  const matcher = new IgnoreMatcher(ignore);
  const out: OutputDifference[] = [];
  walk(expected, received, [], matcher, out);
  return out;
}

function walk(expected: Json | undefined, received: Json | undefined, path: Array<string | number>, matcher: IgnoreMatcher, out: OutputDifference[]): void {
  if (path.length > 0 && matcher.ignores(path)) return;
  if (expected === undefined) {
    out.push({ path: pathText(path), kind: 'unexpected', received: received! });
    return;
  }
  if (received === undefined) {
    out.push({ path: pathText(path), kind: 'missing', expected });
    return;
  }
  if (Array.isArray(expected) && Array.isArray(received)) {
    const length = Math.max(expected.length, received.length);
    for (let i = 0; i < length; i++) walk(expected[i], received[i], [...path, i], matcher, out);
    return;
  }
  if (isRecord(expected) && isRecord(received)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(received)]);
    for (const key of keys) {
      walk(Object.hasOwn(expected, key) ? expected[key] : undefined, Object.hasOwn(received, key) ? received[key] : undefined, [...path, key], matcher, out);
    }
    return;
  }
  if (!Object.is(expected, received) && !(expected === 0 && received === 0)) {
    out.push({ path: pathText(path), kind: 'changed', expected, received });
  }
}
