// Logical functions (spec/rule-format.md §4.9.2, §4.6): comparisons, ranges, null tests and the lazy forms
// IF, AND, OR, NVL that evaluate only what they need.
import type { FunctionDef, SpecialFunction } from './types.ts';
import type { Frame } from '../runtime.ts';
import type { CNode } from '../nodes.ts';
import { compareLoose, looseEquals } from '../../values.ts';
import { constantNode, failingNode, resume, runtimeNode, sharedSlot, unsharedEvaluator } from '../nodes.ts';
import { operandValue } from '../per-solve.ts';
import { Invalid, describe, invalid, isNullish, toCondition, toLogical } from '../runtime.ts';
import { regexTest } from './text.ts';

function compare(name: string, aliases: readonly string[], test: (order: number) => boolean): FunctionDef {
  const impl2 = (a: unknown, b: unknown): boolean => {
    const order = compareLoose(a, b);
    if (order === undefined) invalid(`${name}: cannot compare ${describe(a)} with ${describe(b)}`);
    return test(order);
  };
  return { kind: 'eager', name, aliases, params: 'a, b', min: 2, max: 2, impl: ([a, b]) => impl2(a, b), impl2 };
}

const equals = (a: unknown, b: unknown): boolean => looseEquals(a ?? null, b ?? null);

/** (low, x, high): the tested value is the middle argument. */
function range(name: string, test: (lowVsX: number, xVsHigh: number) => boolean): FunctionDef {
  return {
    kind: 'eager',
    name,
    params: 'low, value, high',
    min: 3,
    max: 3,
    impl: ([low, x, high]) => {
      const first = compareLoose(low, x);
      const second = compareLoose(x, high);
      if (first === undefined || second === undefined) {
        invalid(`${name}: cannot compare ${describe(x)} with ${describe(low)} and ${describe(high)}`);
      }
      return test(first, second);
    },
  };
}

const IF: SpecialFunction = {
  kind: 'special',
  name: 'IF',
  params: 'condition, then, [else]',
  min: 2,
  max: 3,
  compile(call, api, position) {
    const condition = api.compile(call.args[0]!);
    const whenTrue = api.compile(call.args[1]!, { tail: position.tail });
    const whenFalse = call.args[2] ? api.compile(call.args[2], { tail: position.tail }) : constantNode(null);
    if (condition.isConst) {
      try {
        return toCondition(condition.value, 'IF') ? whenTrue : whenFalse;
      } catch (error) {
        if (error instanceof Invalid) return failingNode(error.message);
        throw error;
      }
    }
    const cond = condition.ev;
    const a = whenTrue.ev;
    const b = whenFalse.ev;
    if (!condition.waits) {
      // The usual IF: a condition that never waits, read from its slot when shared, and constant branches.
      const slot = sharedSlot(condition);
      const test = unsharedEvaluator(condition);
      if (whenTrue.isConst && whenFalse.isConst) {
        const yes = whenTrue.value;
        const no = whenFalse.value;
        return runtimeNode([condition], (f) => (toCondition(operandValue(f, slot, test), 'IF') ? yes : no));
      }
      return runtimeNode([condition, whenTrue, whenFalse], (f) => (toCondition(operandValue(f, slot, test), 'IF') ? a(f) : b(f)));
    }
    const branch = (settled: unknown, f: Frame): unknown => (toCondition(settled, 'IF') ? a(f) : b(f));
    return runtimeNode([condition, whenTrue, whenFalse], (f) => {
      const c = cond(f);
      return c instanceof Promise ? resume(c, f, branch) : branch(c, f);
    });
  },
};

/**
 * AND stops at the first false argument, OR at the first true one, without validating the rest (release
 * 1.13.0). Array arguments contribute their elements.
 */
function chain(name: 'AND' | 'OR'): SpecialFunction {
  const decisive = name === 'OR';
  const decides = (value: unknown): boolean => {
    if (Array.isArray(value)) {
      for (const item of value) if (toLogical(item, name) === decisive) return true;
      return false;
    }
    return toLogical(value, name) === decisive;
  };
  return {
    kind: 'special',
    name,
    params: 'condition…',
    min: 1,
    max: Infinity,
    compile(call, api) {
      const parts = call.args.map((arg) => api.compile(arg, { lenient: true }));
      if (parts.length === 2 && !parts[0]!.waits && !parts[1]!.waits) {
        // Two arguments that never wait (the usual form), read from their slots when shared.
        const [first, second] = parts as [CNode, CNode];
        const s1 = sharedSlot(first);
        const e1 = unsharedEvaluator(first);
        const s2 = sharedSlot(second);
        const e2 = unsharedEvaluator(second);
        return runtimeNode(parts, (f) => decides(operandValue(f, s1, e1)) || decides(operandValue(f, s2, e2)) ? decisive : !decisive);
      }
      const evs = parts.map((p) => p.ev);
      const from = (f: Frame, start: number): unknown => {
        for (let i = start; i < evs.length; i++) {
          const value = evs[i]!(f);
          if (value instanceof Promise) return resumeChain(value, f, i + 1);
          if (decides(value)) return decisive;
        }
        return !decisive;
      };
      const resumeChain = (pending: Promise<unknown>, f: Frame, next: number): Promise<unknown> =>
        pending.then((settled) => (decides(settled) ? decisive : from(f, next)));
      return runtimeNode(parts, (f) => from(f, 0));
    },
  };
}

const NVL: SpecialFunction = {
  kind: 'special',
  name: 'NVL',
  params: 'value, default, [ifNotNull]',
  min: 2,
  max: 3,
  compile(call, api, position) {
    const value = api.compile(call.args[0]!, { lenient: true, tail: position.tail });
    const fallback = api.compile(call.args[1]!, { tail: position.tail });
    const ifNotNull = call.args[2] ? api.compile(call.args[2], { tail: position.tail }) : undefined;
    const v = value.ev;
    const d = fallback.ev;
    const nn = ifNotNull?.ev;
    const choose = (x: unknown, f: Frame): unknown => {
      if (isNullish(x)) return d(f);
      return nn ? nn(f) : x;
    };
    return runtimeNode([value, fallback, ifNotNull], (f) => {
      const x = v(f);
      return x instanceof Promise ? resume(x, f, choose) : choose(x, f);
    });
  },
};

export const logicalFunctions: FunctionDef[] = [
  {
    kind: 'eager',
    name: 'EQ',
    params: 'a, b',
    aliases: ['EQUAL'],
    min: 2,
    max: 2,
    lenient: true,
    impl: ([a, b]) => equals(a, b),
    impl2: equals,
  },
  {
    kind: 'eager',
    name: 'NE',
    params: 'a, b',
    aliases: ['NOT_EQUAL'],
    min: 2,
    max: 2,
    lenient: true,
    impl: ([a, b]) => !equals(a, b),
    impl2: (a, b) => !equals(a, b),
  },
  compare('GT', ['GREATER'], (o) => o > 0),
  compare('GTE', ['GREATER_EQUAL'], (o) => o >= 0),
  compare('LT', ['LESS'], (o) => o < 0),
  compare('LTE', ['LESS_EQUAL'], (o) => o <= 0),
  range('BTW', (a, b) => a <= 0 && b <= 0),
  range('NOT_BTW', (a, b) => a > 0 || b > 0),
  range('BTW_LEFT_OPEN', (a, b) => a < 0 && b <= 0),
  range('BTW_RIGHT_OPEN', (a, b) => a <= 0 && b < 0),
  chain('AND'),
  chain('OR'),
  {
    kind: 'eager',
    name: 'IS_NULL',
    params: 'value',
    min: 1,
    max: 1,
    lenient: true,
    impl: ([x]) => isNullish(x),
  },
  {
    kind: 'eager',
    name: 'IS_NOT_NULL',
    params: 'value',
    min: 1,
    max: 1,
    lenient: true,
    impl: ([x]) => !isNullish(x),
  },
  NVL,
  {
    kind: 'eager',
    name: 'NOT',
    params: 'boolean',
    min: 1,
    max: 1,
    impl: ([x]) => !toLogical(x, 'NOT'),
  },
  IF,
  {
    kind: 'eager',
    name: 'REGEXP',
    params: 'text, pattern',
    min: 2,
    max: 2,
    impl: ([s, pattern]) => regexTest(s, pattern, 'REGEXP'),
  },
];
