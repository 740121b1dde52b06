// General (non-date) condition operators, §2.7–2.9: one test function per cell, with its right operand coerced
// once. The same builder serves constant cells (built at compile time) and cells whose operand comes from a
// variable (built when the variable is read), so both follow one definition.
import type { Operator } from '../../rules/operators.ts';
import { compareToPrepared, equalsPrepared, prepareOperand, ValueSet, type PreparedOperand } from './operands.ts';
import { isNullValue, textOf } from '../values.ts';

export type LeftTest = (left: unknown) => boolean;

/** A left operand the value-comparing operators can use: missing and null make all of them false (§2.8, C2). */
function present(left: unknown): boolean {
  return left !== undefined && left !== null;
}

/**
 * The test for an operator given its resolved right operand: a scalar for `=`/`<`/…/containsText, an array of
 * members for IN/NOT IN/containsIn/notContainsIn/equalArray, `[lo, hi]` for the between family.
 * `anything`, `isNull` and `isNotNull` ignore the operand. ELSE and function cells are not handled here.
 */
export function compileGeneralTest(operator: Operator, operand: unknown): LeftTest {
  switch (operator) {
    case 'anything':
      return () => true;
    case 'isNull':
      return isNullValue;
    case 'isNotNull':
      return (left) => !isNullValue(left);
    case '=':
      return equalityTest(prepareOperand(operand));
    case '<>': {
      const p = prepareOperand(operand);
      return (left) => present(left) && !equalsPrepared(left, p);
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return comparisonTest(operator, prepareOperand(operand));
    case 'IN': {
      const set = new ValueSet(asArray(operand).map(prepareOperand));
      return (left) => set.has(left);
    }
    case 'NOT IN': {
      const set = new ValueSet(asArray(operand).map(prepareOperand));
      return (left) => present(left) && !set.has(left);
    }
    case 'between':
    case 'betweenLeftOpen':
    case 'betweenRightOpen':
    case 'notBetween':
      return betweenTest(operator, asArray(operand));
    case 'containsText': {
      // A set given to containsText behaves like containsIn (§11 F3).
      if (Array.isArray(operand)) return containsAnyTest(operand.map(textOf));
      const needle = textOf(operand);
      return (left) => present(left) && someText(left, (text) => text.includes(needle));
    }
    case 'containsIn':
      return containsAnyTest(asArray(operand).map(textOf));
    case 'notContainsIn': {
      const any = containsAnyTest(asArray(operand).map(textOf));
      return (left) => present(left) && !any(left);
    }
    case 'equalArray': {
      const needles = asArray(operand).map(textOf);
      return (left) => {
        if (!Array.isArray(left)) return false;
        const texts = left.map(textOf);
        return needles.every((needle) => texts.some((text) => text.includes(needle)));
      };
    }
    case 'ELSE':
    case 'function':
      throw new Error(`operator ${operator} is evaluated by its caller`);
  }
}

function equalityTest(p: PreparedOperand): LeftTest {
  // The common cases first: a text or number cell compared with a text or number input.
  if (!p.isObject && !p.missing && p.json === undefined) {
    if (p.numeric) {
      const n = p.num;
      return (left) => (typeof left === 'number' ? left === n : equalsPrepared(left, p));
    }
    if (p.bool < 0) {
      const text = p.text;
      return (left) => (typeof left === 'string' ? left === text : equalsPrepared(left, p));
    }
  }
  return (left) => equalsPrepared(left, p);
}

/** A finite JSON number: compared directly when the operand is numeric too (the common case of range cells). */
function finiteNumber(left: unknown): left is number {
  return typeof left === 'number' && Number.isFinite(left);
}

function comparisonTest(operator: Operator, p: PreparedOperand): LeftTest {
  const n = p.num;
  if (p.numeric && !p.missing) {
    switch (operator) {
      case '<':
        return (left) => (finiteNumber(left) ? left < n : compareToPrepared(left, p) < 0);
      case '<=':
        return (left) => (finiteNumber(left) ? left <= n : compareToPrepared(left, p) <= 0);
      case '>':
        return (left) => (finiteNumber(left) ? left > n : compareToPrepared(left, p) > 0);
      default:
        return (left) => (finiteNumber(left) ? left >= n : compareToPrepared(left, p) >= 0);
    }
  }
  switch (operator) {
    case '<':
      return (left) => compareToPrepared(left, p) < 0;
    case '<=':
      return (left) => compareToPrepared(left, p) <= 0;
    case '>':
      return (left) => compareToPrepared(left, p) > 0;
    default:
      return (left) => compareToPrepared(left, p) >= 0;
  }
}

function betweenTest(operator: Operator, bounds: unknown[]): LeftTest {
  if (bounds.length !== 2) return () => false;
  const lo = prepareOperand(bounds[0]);
  const hi = prepareOperand(bounds[1]);
  if (lo.numeric && hi.numeric && !lo.missing && !hi.missing) {
    const a = lo.num;
    const b = hi.num;
    const slow = betweenGeneric(operator, lo, hi);
    switch (operator) {
      case 'between':
        return (left) => (finiteNumber(left) ? left >= a && left <= b : slow(left));
      case 'betweenLeftOpen':
        return (left) => (finiteNumber(left) ? left > a && left <= b : slow(left));
      case 'betweenRightOpen':
        return (left) => (finiteNumber(left) ? left >= a && left < b : slow(left));
      default:
        return (left) => (finiteNumber(left) ? left < a || left > b : slow(left));
    }
  }
  return betweenGeneric(operator, lo, hi);
}

function betweenGeneric(operator: Operator, lo: PreparedOperand, hi: PreparedOperand): LeftTest {
  switch (operator) {
    case 'between':
      return (left) => compareToPrepared(left, lo) >= 0 && compareToPrepared(left, hi) <= 0;
    case 'betweenLeftOpen':
      return (left) => compareToPrepared(left, lo) > 0 && compareToPrepared(left, hi) <= 0;
    case 'betweenRightOpen':
      return (left) => compareToPrepared(left, lo) >= 0 && compareToPrepared(left, hi) < 0;
    default:
      // NOT BETWEEN is the negation of BETWEEN for a present value (DecisionRules compares "similar to JS"), so a
      // value that cannot be ordered against the bounds (`"abc"` against `[3, 5]`) is outside them; missing and
      // null stay false like every negative operator (docs/decisions/tables-mixed-comparison.md).
      return (left) => present(left) && !(compareToPrepared(left, lo) >= 0 && compareToPrepared(left, hi) <= 0);
  }
}

function containsAnyTest(needles: string[]): LeftTest {
  return (left) => present(left) && someText(left, (text) => needles.some((needle) => text.includes(needle)));
}

/** Substring operators look at text(L), or at each element's text when L is an array (§2.9). */
function someText(left: unknown, predicate: (text: string) => boolean): boolean {
  if (Array.isArray(left)) return left.some((element) => predicate(textOf(element)));
  return predicate(textOf(left));
}

function asArray(operand: unknown): unknown[] {
  if (Array.isArray(operand)) return operand;
  return operand === undefined ? [] : [operand];
}
