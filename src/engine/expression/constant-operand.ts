// Two-argument calls with a constant on one side, compiled by argument shape: `{x} >= 500`, `{price} * 0.9`,
// `1 - {rate}`, `ROUND(x, 2)`, `EQ({tier}, "gold")`, the usual function cells of a table. The node computes inline
// when the other operand has the usual type (a number; text for EQ) and calls the general implementation for
// anything else (numeric text, null, booleans, arrays...), so every value and message is the general one's. Each operator is a closure literal of its own, so
// neither the inline test nor the call of the general form is shared between operators, and a shared operand
// (per-solve.ts) is read from its slot without a call. docs/decisions/perf-engine-expression-rows.md.
import type { Evaluator } from './runtime.ts';
import type { SharedRead } from './per-solve.ts';
import type { SlotRef } from './contract.ts';
import { decimalScale, NUMBER_ARITHMETIC, roundHalfAwayScaled } from './arithmetic.ts';
import { finite } from './runtime.ts';
import { isBooleanLike, isNumeric } from '../values.ts';
import { operandValue as operand, UNSHARED } from './per-solve.ts';

type General = (a: unknown, b: unknown) => unknown;
/** The node for `general(operand, c)` (RIGHT) or `general(c, operand)` (LEFT); `slot` UNSHARED: not shared. */
type Builder = (slot: SlotRef, ev: Evaluator, c: number, general: General) => Evaluator;
type TextBuilder = (slot: SlotRef, ev: Evaluator, c: string, general: General) => Evaluator;
/** What this module reads of a compiled child (nodes.ts CNode, which builds these nodes and so is not imported). */
interface Operand {
  readonly ev: Evaluator;
  readonly isConst: boolean;
  readonly value: unknown;
  readonly shared?: SharedRead;
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
  // MAX, MIN and ROUND (whole places only) take any finite number as it is.
  MAX: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? Math.max(v, c) : general(v, c);
  },
  MIN: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(v, c) : general(v, c);
  },
  // Whole places: 10^places is computed once for the node (the same number roundHalfAway computes per call).
  ROUND: (slot, ev, c, general) => {
    if (!Number.isInteger(c)) return (f) => general(operand(f, slot, ev), c);
    const scale = decimalScale(c);
    return (f) => {
      const v = operand(f, slot, ev);
      return typeof v === 'number' && Number.isFinite(v) ? finite(roundHalfAwayScaled(v, c, scale), 'ROUND') : general(v, c);
    };
  },
};

/**
 * EQ and NE against text that is neither numeric nor boolean-like: loose equality of two strings is then their
 * identity (values.ts looseEquals), whatever else the other side is goes to the general form.
 */
const RIGHT_TEXT: Partial<Record<string, TextBuilder>> = {
  EQ: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'string' ? v === c : general(v, c);
  },
  NE: (slot, ev, c, general) => (f) => {
    const v = operand(f, slot, ev);
    return typeof v === 'string' ? v !== c : general(v, c);
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
 * The node of `name(left, right)` by argument shape, when one side is a constant finite number (or, for EQ/NE on
 * the right, plain text) and the other is not constant; undefined otherwise. `name` is an arithmetic operator or a
 * function's name; `general` its two-argument implementation. Neither child may wait.
 */
export function constantOperandEvaluator(name: string, left: Operand, right: Operand, general: General): Evaluator | undefined {
  const constant = right.isConst ? right : left.isConst ? left : undefined;
  const other = constant === right ? left : right;
  if (constant === undefined || other.isConst) return undefined;
  const slot = other.shared === undefined ? UNSHARED : other.shared.ref;
  const ev = other.shared === undefined ? other.ev : other.shared.ev;
  const c = constant.value;
  if (typeof c === 'string') {
    const build = constant === right && !isNumeric(c) && !isBooleanLike(c) ? RIGHT_TEXT[name] : undefined;
    return build?.(slot, ev, c, general);
  }
  if (typeof c !== 'number' || !Number.isFinite(c)) return undefined;
  const build = constant === right ? RIGHT[name] : LEFT[name];
  return build?.(slot, ev, c, general);
}

/** GT/GTE/LT/LTE of two finite numbers: what those nodes answer for them (a table's comparison groups). */
export function compareFinite(name: 'GT' | 'GTE' | 'LT' | 'LTE', v: number, c: number): boolean {
  switch (name) {
    case 'GT':
      return v > c;
    case 'GTE':
      return v >= c;
    case 'LT':
      return v < c;
    case 'LTE':
      return v <= c;
  }
}
