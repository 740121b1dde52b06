// TCK values as FEEL values, and the TCK's comparison of an actual result with the expected one: numbers compared
// numerically within 1e-8 as the TCK's runners do, temporal values and durations by their FEEL text, lists
// item by item, contexts entry by entry, null only with nil.
import {
  FeelContext,
  FeelNumber,
  feelEquals,
  feelString,
  feelText,
  isNumber,
  parseDate,
  parseDateTime,
  parseDuration,
  parseTime,
} from '../../src/engine/feel/index.ts';
import type { FeelValue } from '../../src/engine/feel/index.ts';
import type { TckValue } from './test-file.ts';

const NUMERIC = new Set(['decimal', 'double', 'float', 'int', 'integer', 'long', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger']);

export function toFeel(value: TckValue): FeelValue {
  switch (value.kind) {
    case 'nil':
      return null;
    case 'list':
      return value.items.map(toFeel);
    case 'context':
      return new FeelContext(value.components.map(([name, component]) => [name, toFeel(component)] as const));
    case 'value':
      return scalar(value.xsdType, value.text);
  }
}

function scalar(xsdType: string | undefined, text: string): FeelValue {
  const trimmed = text.trim();
  if (xsdType && NUMERIC.has(xsdType)) {
    if (/^(?:INF|-INF|NaN)$/.test(trimmed)) return null;
    return new FeelNumber(trimmed);
  }
  switch (xsdType) {
    case 'boolean':
      return trimmed === 'true' || trimmed === '1';
    case 'date':
      return parseDate(trimmed);
    case 'dateTime':
      return parseDateTime(trimmed);
    case 'time':
      return parseTime(trimmed);
    case 'duration':
      return parseDuration(trimmed);
    default:
      return text;
  }
}

/** Why `actual` is not the expected value, or undefined when it is. */
export function difference(expected: TckValue, actual: FeelValue, path = ''): string | undefined {
  const at = path ? ` at ${path}` : '';
  switch (expected.kind) {
    case 'nil':
      return actual === null ? undefined : `expected null${at}, got ${show(actual)}`;
    case 'list': {
      if (!Array.isArray(actual)) return `expected a list${at}, got ${show(actual)}`;
      if (actual.length !== expected.items.length) return `expected ${expected.items.length} items${at}, got ${actual.length}: ${show(actual)}`;
      for (const [index, item] of expected.items.entries()) {
        const reason = difference(item, actual[index] ?? null, `${path}[${index}]`);
        if (reason) return reason;
      }
      return undefined;
    }
    case 'context': {
      if (!(actual instanceof FeelContext)) return `expected a context${at}, got ${show(actual)}`;
      for (const [name, component] of expected.components) {
        const reason = difference(component, actual.get(name) ?? null, path ? `${path}.${name}` : name);
        if (reason) return reason;
      }
      const extra = [...actual.entries.keys()].filter((key) => !expected.components.some(([name]) => name === key));
      return extra.length > 0 ? `unexpected entries${at}: ${extra.join(', ')}` : undefined;
    }
    case 'value': {
      let want: FeelValue;
      try {
        want = scalar(expected.xsdType, expected.text);
      } catch (error) {
        return `the expected value '${expected.text}' does not read as ${expected.xsdType}: ${(error as Error).message}`;
      }
      return same(want, actual) ? undefined : `expected ${show(want)}${at}, got ${show(actual)}`;
    }
  }
}

/** The TCK runners' tolerance for numbers (Drools' CompareValuesUtil, Camunda's, QuantumDMN's). */
const NUMBER_PRECISION = new FeelNumber('0.00000001');

function same(expected: FeelValue, actual: FeelValue): boolean {
  if (expected === null || actual === null) return expected === actual;
  if (isNumber(expected)) return isNumber(actual) && expected.minus(actual).abs().lessThan(NUMBER_PRECISION);
  // As the TCK runners do, a string compares with the text of the other value.
  if (typeof expected === 'string') return typeof actual === 'string' ? expected === actual : feelString(actual) === expected;
  if (typeof expected === 'boolean') return expected === actual;
  if (feelText(expected) === feelText(actual)) return true;
  return feelEquals(expected, actual) === true && typeOfSame(expected, actual);
}

function typeOfSame(a: FeelValue, b: FeelValue): boolean {
  return Object.getPrototypeOf(a) === Object.getPrototypeOf(b);
}

function show(value: FeelValue): string {
  if (value === null) return 'null';
  try {
    const text = typeof value === 'string' ? JSON.stringify(value) : feelText(value);
    return text.length > 200 ? `${text.slice(0, 200)}...` : text;
  } catch {
    return String(value);
  }
}
