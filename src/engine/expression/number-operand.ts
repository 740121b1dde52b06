// Comparisons and arithmetic with a constant number on one side, compiled by argument shape: `{x} >= 500`,
// `{price} * 0.9`, `1 - {rate}`, the usual function cells of a table. The node computes inline when the other
// operand is a number and calls the general implementation for anything else (numeric text, null, booleans,
// arrays...), so every value and message is the general one's. Each operator is a closure literal of its own, so
// neither the inline test nor the call of the general form is shared between operators, and a shared operand
// (per-solve.ts) is read from its slot without a call. docs/decisions/perf-engine-expression-rows.md.
import type { CNode } from './nodes.ts';
import type { Evaluator, Frame } from './runtime.ts';
import { NUMBER_ARITHMETIC } from './functions/math.ts';
import { sharedValue } from './per-solve.ts';

type General = (a: unknown, b: unknown) => unknown;
/** The node for `general(operand, c)` (RIGHT) or `general(c, operand)` (LEFT); `slot` < 0: not shared. */
type Builder = (slot: number, ev: Evaluator, c: number, general: General) => Evaluator;

function operand(f: Frame, slot: number, ev: Evaluator): unknown {
  return slot < 0 ? ev(f) : sharedValue(f, slot, ev);
}

const { '+': plus, '-': minus, '*': times, '/': over } = NUMBER_ARITHMETIC;

// The general arithmetic takes a number as it is (it checks the result); comparisons and division first convert
// through toNum, which refuses a number that is not finite: those go to the general form.
const RIGHT: Partial<Record<string, Builder>> = {
  GT: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? v > c : general(v, c);
  },
  GTE: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? v >= c : general(v, c);
  },
  LT: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? v < c : general(v, c);
  },
  LTE: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? v <= c : general(v, c);
  },
  '+': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' ? plus(v, c) : general(v, c);
  },
  '-': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' ? minus(v, c) : general(v, c);
  },
  '*': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' ? times(v, c) : general(v, c);
  },
  '/': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? over(v, c) : general(v, c);
  },
};

const LEFT: Partial<Record<string, Builder>> = {
  '+': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' ? plus(c, v) : general(c, v);
  },
  '-': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' ? minus(c, v) : general(c, v);
  },
  '*': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' ? times(c, v) : general(c, v);
  },
  '/': (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? over(c, v) : general(c, v);
  },
};

/**
 * The node of `name(left, right)` by argument shape, when one side is a constant finite number and the other is
 * not constant; undefined otherwise. `name` is an arithmetic operator or a function's name; `general` its
 * two-argument implementation. Neither child may wait.
 */
export function numberOperandEvaluator(name: string, left: CNode, right: CNode, general: General): Evaluator | undefined {
  const constant = right.isConst ? right : left.isConst ? left : undefined;
  const other = constant === right ? left : right;
  if (constant === undefined || other.isConst || typeof constant.value !== 'number' || !Number.isFinite(constant.value)) return undefined;
  const build = constant === right ? RIGHT[name] : LEFT[name];
  if (build === undefined) return undefined;
  const shared = other.shared;
  return shared !== undefined ? build(shared.slot, shared.ev, constant.value, general) : build(-1, other.ev, constant.value, general);
}
