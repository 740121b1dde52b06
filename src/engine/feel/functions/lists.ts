// List functions (DMN 1.5, 10.3.4.4) and the boolean ones (10.3.4.2: not, is; all and any are list functions).
import { Builtin, bad, callFunction, fn, integer, listArgument } from '../builtin.ts';
import { feelCompare, feelEquals } from '../compare.ts';
import type { Env } from '../env.ts';
import { feelText } from '../text.ts';
import { typeOf } from '../types.ts';
import { FeelFunction, FeelNumber, isNumber, type FeelValue } from '../values.ts';

function numbers(items: FeelValue[] | null): FeelNumber[] | null {
  if (!items || !items.every(isNumber)) return null;
  return items as FeelNumber[];
}

function extreme(items: FeelValue[] | null, sign: 1 | -1): FeelValue {
  if (!items || items.length === 0) return null;
  let best: FeelValue = items[0]!;
  for (const item of items.slice(1)) {
    const order = feelCompare(item, best);
    if (order === null) return null;
    if (order * sign > 0) best = item;
  }
  return feelCompare(best, best) === null ? null : best;
}

function contains(list: FeelValue[], value: FeelValue): boolean {
  return list.some((item) => feelEquals(item, value) === true);
}

/** A 1-based position (negative from the end) as a 0-based index inside `length`, or null. */
function position(value: FeelValue | undefined, length: number): number | null {
  const p = integer(value);
  if (p === null || p === 0 || Math.abs(p) > length) return null;
  return p > 0 ? p - 1 : length + p;
}

function flatten(list: FeelValue[]): FeelValue[] {
  return list.flatMap((item) => (Array.isArray(item) ? flatten(item) : [item]));
}

function sortList(list: FeelValue[], precedes: FeelValue, env: Env): FeelValue {
  if (precedes === null) {
    let incomparable = false;
    const sorted = list.slice().sort((a, b) => {
      const order = feelCompare(a, b);
      if (order === null) incomparable = true;
      return order ?? 0;
    });
    return incomparable && list.length > 1 ? bad(env, 'sort', 'the items cannot be compared') : sorted;
  }
  if (!(precedes instanceof FeelFunction)) return bad(env, 'sort', 'precedes is a function');
  const sorted = list.slice().sort((a, b) => {
    if (callFunction(precedes, [a, b], env) === true) return -1;
    if (callFunction(precedes, [b, a], env) === true) return 1;
    return 0;
  });
  return sorted;
}

const list = (v: FeelValue | undefined): v is FeelValue[] => Array.isArray(v);

export const LISTS: Builtin[] = [
  fn('not', [['negand']], ([v]) => (typeof v === 'boolean' ? !v : null)),
  fn('is', [['value1', 'value2']], ([a = null, b = null]) => {
    if (typeOf(a) !== typeOf(b)) return false;
    return feelEquals(a, b) === true && feelText(a) === feelText(b);
  }),
  fn('list contains', [['list', 'element']], ([l, element = null]) => (list(l) ? contains(l, element) : null)),
  fn('count', [['list']], ([l]) => (list(l) ? new FeelNumber(l.length) : null)),
  fn('min', [['...list']], (args) => extreme(listArgument(args), -1)),
  fn('max', [['...list']], (args) => extreme(listArgument(args), 1)),
  fn('sum', [['...list']], (args) => {
    const items = numbers(listArgument(args));
    if (!items) return null;
    return items.length === 0 ? null : items.reduce((a, b) => a.plus(b), new FeelNumber(0));
  }),
  fn('product', [['...list']], (args) => {
    const items = numbers(listArgument(args));
    if (!items || items.length === 0) return null;
    return items.reduce((a, b) => a.times(b), new FeelNumber(1));
  }),
  fn('mean', [['...list']], (args) => {
    const items = numbers(listArgument(args));
    if (!items || items.length === 0) return null;
    return items.reduce((a, b) => a.plus(b), new FeelNumber(0)).dividedBy(items.length);
  }),
  fn('median', [['...list']], (args) => {
    const items = numbers(listArgument(args));
    if (!items || items.length === 0) return null;
    const sorted = items.slice().sort((a, b) => a.comparedTo(b));
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : sorted[mid - 1]!.plus(sorted[mid]!).dividedBy(2);
  }),
  fn('stddev', [['...list']], (args) => {
    const items = numbers(listArgument(args));
    if (!items || items.length < 2) return null;
    const mean = items.reduce((a, b) => a.plus(b), new FeelNumber(0)).dividedBy(items.length);
    const squares = items.reduce((a, b) => a.plus(b.minus(mean).pow(2)), new FeelNumber(0));
    return squares.dividedBy(items.length - 1).sqrt();
  }),
  fn('mode', [['...list']], (args) => {
    const items = numbers(listArgument(args));
    if (!items) return null;
    const counts: { value: FeelNumber; count: number }[] = [];
    for (const item of items) {
      const seen = counts.find((c) => c.value.equals(item));
      if (seen) seen.count++;
      else counts.push({ value: item, count: 1 });
    }
    const top = Math.max(0, ...counts.map((c) => c.count));
    return counts
      .filter((c) => c.count === top)
      .map((c) => c.value)
      .sort((a, b) => a.comparedTo(b));
  }),
  fn('all', [['...list']], (args) => {
    const items = listArgument(args);
    if (!items) return null;
    if (items.some((v) => v === false)) return false;
    return items.every((v) => v === true) ? true : null;
  }),
  fn('any', [['...list']], (args) => {
    const items = listArgument(args);
    if (!items) return null;
    if (items.some((v) => v === true)) return true;
    return items.every((v) => v === false) ? false : null;
  }),
  fn('sublist', [['list', 'start position', 'length?']], ([l, start, length], env) => {
    if (!list(l)) return bad(env, 'sublist', 'expects a list');
    const begin = position(start, l.length);
    if (begin === null) return bad(env, 'sublist', 'the start position is outside the list');
    if (length === undefined || length === null) return l.slice(begin);
    const count = integer(length);
    if (count === null || count < 0 || begin + count > l.length) return bad(env, 'sublist', 'the length is outside the list');
    return l.slice(begin, begin + count);
  }),
  fn('append', [['list', '...item']], ([l, ...items]) => (list(l) ? [...l, ...items] : null)),
  fn('concatenate', [['...list']], (args) => (args.every(list) ? (args as FeelValue[][]).flat(1) : null)),
  fn('insert before', [['list', 'position', 'newItem']], ([l, p, item = null], env) => {
    if (!list(l)) return bad(env, 'insert before', 'expects a list');
    const at = position(p, l.length);
    if (at === null) return bad(env, 'insert before', 'the position is outside the list');
    return [...l.slice(0, at), item, ...l.slice(at)];
  }),
  fn('remove', [['list', 'position']], ([l, p], env) => {
    if (!list(l)) return bad(env, 'remove', 'expects a list');
    const at = position(p, l.length);
    if (at === null) return bad(env, 'remove', 'the position is outside the list');
    return [...l.slice(0, at), ...l.slice(at + 1)];
  }),
  fn('list replace', [['list', 'position', 'newItem'], ['list', 'match', 'newItem']], ([given, p, item = null], env) => {
    const l = given === null || given === undefined || Array.isArray(given) ? given : [given];
    if (!list(l)) return bad(env, 'list replace', 'expects a list');
    if (p instanceof FeelFunction) {
      if (!(p instanceof Builtin) && p.params.length !== 2) return bad(env, 'list replace', 'the match function takes two parameters');
      const out: FeelValue[] = [];
      for (const x of l) {
        const matched = callFunction(p, [x, item], env);
        if (typeof matched !== 'boolean') return bad(env, 'list replace', 'the match function gave something that is not a boolean');
        out.push(matched ? item : x);
      }
      return out;
    }
    const at = position(p, l.length);
    if (at === null) return bad(env, 'list replace', 'the position is outside the list');
    return l.map((x, i) => (i === at ? item : x));
  }),
  fn('reverse', [['list']], ([l]) => (list(l) ? l.slice().reverse() : null)),
  fn('index of', [['list', 'match']], ([l, match = null]) => {
    if (!list(l)) return null;
    const out: FeelValue[] = [];
    l.forEach((item, i) => {
      if (feelEquals(item, match) === true) out.push(new FeelNumber(i + 1));
    });
    return out;
  }),
  fn('union', [['...list']], (args) => {
    if (!args.every(list)) return null;
    const out: FeelValue[] = [];
    for (const item of (args as FeelValue[][]).flat(1)) if (!contains(out, item)) out.push(item);
    return out;
  }),
  fn('distinct values', [['list']], ([l]) => {
    if (!list(l)) return null;
    const out: FeelValue[] = [];
    for (const item of l) if (!contains(out, item)) out.push(item);
    return out;
  }),
  fn('flatten', [['list']], ([l]) => (list(l) ? flatten(l) : null)),
  fn('sort', [['list', 'precedes?']], ([l, precedes = null], env) => (list(l) ? sortList(l, precedes, env) : bad(env, 'sort', 'expects a list'))),
];
