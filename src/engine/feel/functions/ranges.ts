// Range functions (DMN 1.5, 10.3.4.9): Allen's interval relations on points and ranges. An open end (null)
// lies beyond every value; endpoints that cannot be compared make the answer null.
import { bad, fn, type Builtin } from '../builtin.ts';
import { feelCompare } from '../compare.ts';
import { FeelRange, type FeelValue } from '../values.ts';

class Incomparable extends Error {}

interface End {
  value: FeelValue;
  /** -1: below everything (open start), 1: above everything (open end), 0: a value. */
  infinite: -1 | 0 | 1;
  included: boolean;
}

interface Interval {
  start: End;
  end: End;
}

function asInterval(v: FeelValue): Interval {
  if (v instanceof FeelRange) {
    return {
      start: { value: v.start ?? null, infinite: v.start === undefined ? -1 : 0, included: v.startIncluded },
      end: { value: v.end ?? null, infinite: v.end === undefined ? 1 : 0, included: v.endIncluded },
    };
  }
  if (v === null) throw new Incomparable();
  const point: End = { value: v, infinite: 0, included: true };
  return { start: point, end: point };
}

function cmp(a: End, b: End): number {
  if (a.infinite || b.infinite) return a.infinite === b.infinite ? 0 : a.infinite - b.infinite;
  const order = feelCompare(a.value, b.value);
  if (order === null) throw new Incomparable();
  return order;
}

type Relation = (a: Interval, b: Interval) => boolean;

const before: Relation = (a, b) => cmp(a.end, b.start) < 0 || (cmp(a.end, b.start) === 0 && (!a.end.included || !b.start.included));
const meets: Relation = (a, b) => a.end.included && b.start.included && cmp(a.end, b.start) === 0;
const overlaps: Relation = (a, b) =>
  (cmp(a.end, b.start) > 0 || (cmp(a.end, b.start) === 0 && a.end.included && b.start.included)) &&
  (cmp(a.start, b.end) < 0 || (cmp(a.start, b.end) === 0 && a.start.included && b.end.included));
const overlapsBefore: Relation = (a, b) =>
  (cmp(a.start, b.start) < 0 || (cmp(a.start, b.start) === 0 && a.start.included && !b.start.included)) &&
  (cmp(a.end, b.start) > 0 || (cmp(a.end, b.start) === 0 && a.end.included && b.start.included)) &&
  (cmp(a.end, b.end) < 0 || (cmp(a.end, b.end) === 0 && (!a.end.included || b.end.included)));
const finishes: Relation = (a, b) =>
  a.end.included === b.end.included &&
  cmp(a.end, b.end) === 0 &&
  (cmp(a.start, b.start) > 0 || (cmp(a.start, b.start) === 0 && (!a.start.included || b.start.included)));
const includes: Relation = (a, b) =>
  (cmp(a.start, b.start) < 0 || (cmp(a.start, b.start) === 0 && (a.start.included || !b.start.included))) &&
  (cmp(a.end, b.end) > 0 || (cmp(a.end, b.end) === 0 && (a.end.included || !b.end.included)));
const starts: Relation = (a, b) =>
  cmp(a.start, b.start) === 0 &&
  a.start.included === b.start.included &&
  (cmp(a.end, b.end) < 0 || (cmp(a.end, b.end) === 0 && (!a.end.included || b.end.included)));
const coincides: Relation = (a, b) =>
  cmp(a.start, b.start) === 0 && a.start.included === b.start.included && cmp(a.end, b.end) === 0 && a.end.included === b.end.included;

const flip =
  (relation: Relation): Relation =>
  (a, b) =>
    relation(b, a);

function relation(name: string, body: Relation, params: string[][]): Builtin {
  return fn(name, params, ([a = null, b = null], env) => {
    if (a === null || b === null) return bad(env, name, 'expects two points or ranges');
    try {
      return body(asInterval(a), asInterval(b));
    } catch (error) {
      if (error instanceof Incomparable) return bad(env, name, 'the values cannot be compared');
      throw error;
    }
  });
}

const POINTS_AND_RANGES = [
  ['point1', 'point2'],
  ['point', 'range'],
  ['range', 'point'],
  ['range1', 'range2'],
];
const RANGES = [['range1', 'range2']];
const RANGE_POINT = [
  ['range', 'point'],
  ['range1', 'range2'],
];
const POINT_RANGE = [
  ['point', 'range'],
  ['range1', 'range2'],
];

export const RANGE_FUNCTIONS: Builtin[] = [
  relation('before', before, POINTS_AND_RANGES),
  relation('after', flip(before), POINTS_AND_RANGES),
  relation('meets', meets, RANGES),
  relation('met by', flip(meets), RANGES),
  relation('overlaps', overlaps, RANGES),
  relation('overlaps before', overlapsBefore, RANGES),
  relation('overlaps after', flip(overlapsBefore), RANGES),
  relation('finishes', finishes, POINT_RANGE),
  relation('finished by', flip(finishes), RANGE_POINT),
  relation('includes', includes, RANGE_POINT),
  relation('during', flip(includes), POINT_RANGE),
  relation('starts', starts, POINT_RANGE),
  relation('started by', flip(starts), RANGE_POINT),
  relation('coincides', coincides, [
    ['point1', 'point2'],
    ['range1', 'range2'],
  ]),
];
