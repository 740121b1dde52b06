// Data functions (spec/rule-format.md §4.9.5) and the EVAL wrapper of stored ASTs (§4.7).
import type { FunctionDef, SpecialFunction } from './types.ts';
import { resume, runtimeNode } from '../nodes.ts';
import type { Frame } from '../runtime.ts';
import type { PathSegment } from '../../path.ts';
import { getAt, parsePath } from '../../path.ts';
import { describe, invalid, toText } from '../runtime.ts';

/** Paths are parsed once per distinct text; PICK paths are nearly always literals. */
const pathCache = new Map<string, PathSegment[]>();

export function pathSegments(path: unknown, fn: string): PathSegment[] {
  if (path === null || typeof path === 'object') invalid(`${fn}: ${describe(path)} is not a path`);
  const text = toText(path);
  let segments = pathCache.get(text);
  if (!segments) {
    segments = parsePath(text);
    if (pathCache.size >= 1000) pathCache.clear();
    pathCache.set(text, segments);
  }
  return segments;
}

/** The value at `segments` (own properties only), null when absent. */
export function pick(value: unknown, segments: readonly PathSegment[]): unknown {
  const found = getAt(value, segments);
  return found === undefined ? null : found;
}

/**
 * RAW_VALUE(x) = x, exempt from output casting. Only a RAW_VALUE whose value becomes the result (tail
 * position: top level, IF/NVL branches) marks the evaluation.
 */
const RAW_VALUE: SpecialFunction = {
  kind: 'special',
  name: 'RAW_VALUE',
  params: 'value',
  min: 1,
  max: 1,
  compile(call, api, position) {
    const inner = api.compile(call.args[0]!, { tail: position.tail });
    if (!position.tail) return inner;
    api.markPerEvaluation();
    const ev = inner.ev;
    const mark = (value: unknown, f: Frame): unknown => {
      f.raw = true;
      return value;
    };
    return runtimeNode([inner], (f) => {
      const value = ev(f);
      return value instanceof Promise ? resume(value, f, mark) : mark(value, f);
    });
  },
};

const EVAL: SpecialFunction = {
  kind: 'special',
  name: 'EVAL',
  params: 'value',
  min: 1,
  max: 1,
  compile: (call, api, position) => api.compile(call.args[0]!, position),
};

export const dataFunctions: FunctionDef[] = [
  {
    kind: 'eager',
    name: 'PICK',
    params: 'value, path',
    min: 2,
    max: 2,
    impl: ([value, path]) => pick(value, pathSegments(path, 'PICK')),
  },
  RAW_VALUE,
  EVAL,
];
