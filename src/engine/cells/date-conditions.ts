// Date cells (§2.11): both sides are parsed into instants and compared; bounds of the between family behave as
// for general cells. Operands are parsed once; only values without a date part are re-anchored to the solve's
// `now` ("today" in the value's zone).
import type { Operator } from '../../rules/operators.ts';
import { cellText, setMembers } from './operands.ts';
import { dependsOnNow, instantOf, parseDateValue, type DateParts } from './dates.ts';
import { isNullValue } from '../values.ts';

export type DateTest = (left: unknown, now: number) => boolean;

/** A parsed operand, or the reason it could not be parsed (for the compile-time problem message). */
export type DateOperand = { ok: true; parts: DateParts | number } | { ok: false; text: string };

export function parseDateOperand(value: unknown): DateOperand {
  const parts = parseDateValue(typeof value === 'string' ? cellText(value) : value);
  return parts === undefined ? { ok: false, text: typeof value === 'string' ? value : JSON.stringify(value) } : { ok: true, parts };
}

/** Operands of a date cell as their operator expects: one value, a list (IN), or `[from, to]`. */
export function dateOperandValues(operator: Operator, value: unknown): unknown[] {
  if (operator === 'IN' || operator === 'NOT IN') return setMembers(value);
  if (operator.startsWith('between') || operator === 'notBetween') {
    return Array.isArray(value) ? value : setMembers(value);
  }
  return [value];
}

class Instant {
  private readonly parts: DateParts | number;
  private readonly fixed: number | undefined;
  private readonly zone: string;
  constructor(parts: DateParts | number, zone: string) {
    this.parts = parts;
    this.zone = zone;
    this.fixed = dependsOnNow(parts) ? undefined : instantOf(parts, 0, zone);
  }
  at(now: number): number {
    return this.fixed ?? instantOf(this.parts, now, this.zone);
  }
}

/**
 * The test of a date cell. `operands` are already parsed (see parseDateOperand); `zone` is the zone assumed for
 * values that name none. An input that is not a date makes every value-comparing operator false.
 */
export function compileDateTest(operator: Operator, operands: readonly (DateParts | number)[], zone: string): DateTest {
  switch (operator) {
    case 'anything':
      return () => true;
    case 'isNull':
      return (left) => isNullValue(left);
    case 'isNotNull':
      return (left) => !isNullValue(left);
    default:
      break;
  }
  const instants = operands.map((parts) => new Instant(parts, zone));
  const leftInstant = (left: unknown, now: number): number => {
    const parts = parseDateValue(left);
    return parts === undefined ? Number.NaN : instantOf(parts, now, zone);
  };
  const one = instants[0];
  const two = instants[1];
  switch (operator) {
    case '=':
      return (left, now) => leftInstant(left, now) === one!.at(now);
    case '<>':
      return (left, now) => {
        const l = leftInstant(left, now);
        return !Number.isNaN(l) && l !== one!.at(now);
      };
    case '<':
      return (left, now) => leftInstant(left, now) < one!.at(now);
    case '<=':
      return (left, now) => leftInstant(left, now) <= one!.at(now);
    case '>':
      return (left, now) => leftInstant(left, now) > one!.at(now);
    case '>=':
      return (left, now) => leftInstant(left, now) >= one!.at(now);
    case 'IN':
      return (left, now) => {
        const l = leftInstant(left, now);
        return instants.some((instant) => instant.at(now) === l);
      };
    case 'NOT IN':
      return (left, now) => {
        const l = leftInstant(left, now);
        return !Number.isNaN(l) && !instants.some((instant) => instant.at(now) === l);
      };
    case 'between':
      return (left, now) => {
        const l = leftInstant(left, now);
        return l >= one!.at(now) && l <= two!.at(now);
      };
    case 'betweenLeftOpen':
      return (left, now) => {
        const l = leftInstant(left, now);
        return l > one!.at(now) && l <= two!.at(now);
      };
    case 'betweenRightOpen':
      return (left, now) => {
        const l = leftInstant(left, now);
        return l >= one!.at(now) && l < two!.at(now);
      };
    case 'notBetween':
      return (left, now) => {
        const l = leftInstant(left, now);
        return l < one!.at(now) || l > two!.at(now);
      };
    default:
      throw new Error(`operator ${operator} is not a date operator`);
  }
}
