// Array functions (spec/rule-format.md §4.9.6, §11 Fn7, Fn9). ARRAY_MAP / ARRAY_FILTER / ARRAY_REDUCE are
// lambdas: their parameter names are bound to local slots at compile time, so `{x}` inside the body is a slot
// read, and nested lambdas shadow outer names.
import type { FunctionDef, SpecialFunction } from './types.ts';
import type { CallNode, Node } from '../ast.ts';
import type { CNode, CompileApi } from '../nodes.ts';
import type { Evaluator, Frame } from '../runtime.ts';
import { looseEquals } from '../../values.ts';
import { runtimeNode } from '../nodes.ts';
import { describe, invalid, toInteger, toLogical, toNum, toText } from '../runtime.ts';
import { pathSegments, pick } from './data.ts';

function lambdaName(node: Node | undefined, fn: string, position: number, api: CompileApi): string {
  const name = node?.kind === 'literal' && typeof node.value === 'string' ? node.value.trim() : '';
  if (name === '') {
    return api.fail(`${fn} expects a quoted parameter name such as "x" as argument ${position}`, node ?? { kind: 'literal', value: null, pos: 0 });
  }
  return name;
}

function asArray(value: unknown, fn: string): unknown[] {
  if (!Array.isArray(value)) invalid(`${fn}: ${describe(value)} is not an array`);
  return value;
}

function keep(value: unknown): boolean {
  return value === true || value === 'true';
}

/** The source array and the lambda body of ARRAY_MAP / ARRAY_FILTER / ARRAY_REDUCE, parameters bound to slots. */
function compileLambda(call: CallNode, api: CompileApi, fn: string, paramCount: number): { source: CNode; body: CNode; slots: number[] } {
  const source = api.compile(call.args[0]!);
  const names: string[] = [];
  for (let i = 1; i <= paramCount; i++) names.push(lambdaName(call.args[i], fn, i + 1, api));
  const { slots, result: body } = api.withLocals(names, () => api.compile(call.args[paramCount + 1]!));
  return { source, body, slots };
}

/**
 * The lambda's source array, then `run(list, f)`; waits for the source first when it gives a promise. Each loop
 * below evaluates the body item by item and, when the body gives a promise, continues from the next item once it
 * settles, so one loop serves bodies that wait and bodies that do not.
 */
function withList(src: Evaluator, fn: string, f: Frame, run: (list: unknown[], f: Frame) => unknown): unknown {
  const source = src(f);
  if (source instanceof Promise) return resumeWithList(source, fn, f, run);
  return run(asArray(source, fn), f);
}

function resumeWithList(pending: Promise<unknown>, fn: string, f: Frame, run: (list: unknown[], f: Frame) => unknown): Promise<unknown> {
  return pending.then((settled) => run(asArray(settled, fn), f));
}

const ARRAY_MAP: SpecialFunction = {
  kind: 'special',
  name: 'ARRAY_MAP',
  params: 'array, "item", expression',
  min: 3,
  max: 3,
  compile(call, api) {
    const { source, body, slots } = compileLambda(call, api, 'ARRAY_MAP', 1);
    const slot = slots[0]!;
    const src = source.ev;
    const b = body.ev;
    const mapFrom = (list: unknown[], f: Frame, out: unknown[], start: number): unknown => {
      for (let i = start; i < list.length; i++) {
        f.locals[slot] = list[i];
        const value = b(f);
        if (value instanceof Promise) return resumeMap(value, list, f, out, i);
        out[i] = value;
      }
      return out;
    };
    const resumeMap = (pending: Promise<unknown>, list: unknown[], f: Frame, out: unknown[], i: number): Promise<unknown> =>
      pending.then((settled) => {
        out[i] = settled;
        return mapFrom(list, f, out, i + 1);
      });
    const map = (list: unknown[], f: Frame): unknown => mapFrom(list, f, new Array<unknown>(list.length), 0);
    return runtimeNode([source, body], (f) => withList(src, 'ARRAY_MAP', f, map));
  },
};

const ARRAY_FILTER: SpecialFunction = {
  kind: 'special',
  name: 'ARRAY_FILTER',
  params: 'array, "item", condition',
  min: 3,
  max: 3,
  compile(call, api) {
    const { source, body, slots } = compileLambda(call, api, 'ARRAY_FILTER', 1);
    const slot = slots[0]!;
    const src = source.ev;
    const b = body.ev;
    const filterFrom = (list: unknown[], f: Frame, out: unknown[], start: number): unknown => {
      for (let i = start; i < list.length; i++) {
        const item = list[i];
        f.locals[slot] = item;
        const verdict = b(f);
        if (verdict instanceof Promise) return resumeFilter(verdict, list, f, out, i);
        if (keep(verdict)) out.push(item);
      }
      return out;
    };
    const resumeFilter = (pending: Promise<unknown>, list: unknown[], f: Frame, out: unknown[], i: number): Promise<unknown> =>
      pending.then((settled) => {
        if (keep(settled)) out.push(list[i]);
        return filterFrom(list, f, out, i + 1);
      });
    const filter = (list: unknown[], f: Frame): unknown => filterFrom(list, f, [], 0);
    return runtimeNode([source, body], (f) => withList(src, 'ARRAY_FILTER', f, filter));
  },
};

/** JavaScript reduce without a seed: [] -> null, one element -> that element (§11 Fn7). */
const ARRAY_REDUCE: SpecialFunction = {
  kind: 'special',
  name: 'ARRAY_REDUCE',
  params: 'array, "acc", "item", expression',
  min: 4,
  max: 4,
  compile(call, api) {
    const { source, body, slots } = compileLambda(call, api, 'ARRAY_REDUCE', 2);
    const [accSlot, curSlot] = slots as [number, number];
    const src = source.ev;
    const b = body.ev;
    const reduceFrom = (list: unknown[], f: Frame, acc: unknown, start: number): unknown => {
      for (let i = start; i < list.length; i++) {
        f.locals[accSlot] = acc;
        f.locals[curSlot] = list[i];
        const next = b(f);
        if (next instanceof Promise) return resumeReduce(next, list, f, i + 1);
        acc = next;
      }
      return acc;
    };
    const resumeReduce = (pending: Promise<unknown>, list: unknown[], f: Frame, next: number): Promise<unknown> =>
      pending.then((settled) => reduceFrom(list, f, settled, next));
    const reduce = (list: unknown[], f: Frame): unknown => (list.length === 0 ? null : reduceFrom(list, f, list[0], 1));
    return runtimeNode([source, body], (f) => withList(src, 'ARRAY_REDUCE', f, reduce));
  },
};

/** The elements, or with a path the value picked from each element (deprecated ARRAY_* helpers). */
function picked(list: unknown, path: unknown, fn: string): unknown[] {
  const array = asArray(list, fn);
  if (path === undefined || path === null || path === '') return array;
  const segments = pathSegments(path, fn);
  return array.map((item) => pick(item, segments));
}

export const arrayFunctions: FunctionDef[] = [
  {
    kind: 'eager',
    name: 'ARRAY_PICK',
    params: 'array, path',
    min: 2,
    max: 2,
    impl: ([list, path]) => {
      const segments = pathSegments(path, 'ARRAY_PICK');
      return asArray(list, 'ARRAY_PICK').map((item) => pick(item, segments));
    },
  },
  ARRAY_MAP,
  ARRAY_FILTER,
  ARRAY_REDUCE,
  {
    // accepts null and {} as the array (false); elements compare like EQ, objects deeply
    kind: 'eager',
    name: 'ARRAY_INCLUDES',
    params: 'array, value',
    aliases: ['INCLUDES'],
    min: 2,
    max: 2,
    lenient: true,
    impl: ([list, value]) => {
      if (!Array.isArray(list)) return false;
      const needle = value ?? null;
      for (const item of list) if (looseEquals(item, needle)) return true;
      return false;
    },
  },
  {
    kind: 'eager',
    name: 'ARRAY_FLATTEN',
    params: 'array, [depth]',
    min: 1,
    max: 2,
    impl: ([list, depth]) => {
      const array = asArray(list, 'ARRAY_FLATTEN');
      if (depth === undefined) return array.flat(Infinity);
      const d = toInteger(depth, 'ARRAY_FLATTEN');
      if (d < 1) invalid(`ARRAY_FLATTEN: the depth ${describe(depth)} is not a positive whole number`);
      return array.flat(d);
    },
  },
  {
    kind: 'eager',
    name: 'ARRAY_SUM',
    params: 'array, [path]',
    min: 1,
    max: 2,
    impl: ([list, path]) => {
      let sum = 0;
      for (const v of picked(list, path, 'ARRAY_SUM')) sum += toNum(v, 'ARRAY_SUM');
      if (!Number.isFinite(sum)) invalid('ARRAY_SUM: the result is not a finite number');
      return sum;
    },
  },
  {
    kind: 'eager',
    name: 'ARRAY_CONCAT',
    params: 'array, [path]',
    min: 1,
    max: 2,
    impl: ([list, path]) => picked(list, path, 'ARRAY_CONCAT').map(toText).join(''),
  },
  {
    kind: 'eager',
    name: 'ARRAY_CONCAT_WS',
    params: 'separator, array, [path]',
    min: 2,
    max: 3,
    impl: ([separator, list, path]) => picked(list, path, 'ARRAY_CONCAT_WS').map(toText).join(toText(separator)),
  },
  {
    kind: 'eager',
    name: 'ARRAY_AND',
    params: 'array, [path]',
    min: 1,
    max: 2,
    impl: ([list, path]) => picked(list, path, 'ARRAY_AND').every((v) => toLogical(v, 'ARRAY_AND')),
  },
  {
    kind: 'eager',
    name: 'ARRAY_OR',
    params: 'array, [path]',
    min: 1,
    max: 2,
    impl: ([list, path]) => picked(list, path, 'ARRAY_OR').some((v) => toLogical(v, 'ARRAY_OR')),
  },
];
