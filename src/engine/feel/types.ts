// FEEL types (DMN 1.5, 10.3.2.9): the type of a value, type names as written after `instance of` or in a DMN
// typeRef (`list<number>`, `context<a: string>`, `range<date>`, `function<number> -> string`), and conformance.
import {
  FeelContext,
  FeelDate,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelFunction,
  FeelRange,
  FeelTime,
  FeelYearsMonthsDuration,
  isNumber,
  type FeelValue,
} from './values.ts';

export type FeelType =
  | { kind: 'any' }
  | { kind: 'null' }
  | { kind: 'named'; name: string }
  | { kind: 'list'; item: FeelType }
  | { kind: 'range'; item: FeelType }
  | { kind: 'context'; entries: [string, FeelType][] }
  | { kind: 'function'; params: FeelType[]; result: FeelType };

export const SIMPLE_TYPES = [
  'number',
  'string',
  'boolean',
  'date',
  'time',
  'date and time',
  'days and time duration',
  'years and months duration',
] as const;

/** The FEEL type name of a value, as `instance of` names it. */
export function typeOf(value: FeelValue): string {
  if (value === null) return 'Null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (isNumber(value)) return 'number';
  if (value instanceof FeelDate) return 'date';
  if (value instanceof FeelTime) return 'time';
  if (value instanceof FeelDateTime) return 'date and time';
  if (value instanceof FeelDaysTimeDuration) return 'days and time duration';
  if (value instanceof FeelYearsMonthsDuration) return 'years and months duration';
  if (Array.isArray(value)) return 'list';
  if (value instanceof FeelContext) return 'context';
  if (value instanceof FeelRange) return 'range';
  return 'function';
}

const ALIASES: Record<string, string> = {
  dateTime: 'date and time',
  dayTimeDuration: 'days and time duration',
  yearMonthDuration: 'years and months duration',
  'feel:number': 'number',
  'feel:string': 'string',
  'feel:boolean': 'boolean',
  'feel:date': 'date',
  'feel:time': 'time',
  'feel:date and time': 'date and time',
  'feel:days and time duration': 'days and time duration',
  'feel:years and months duration': 'years and months duration',
  'feel:context': 'context',
  'feel:Any': 'Any',
  'feel:list': 'list',
};

/** Reads a type name; throws Error with a message naming the position on bad text. */
export function parseType(text: string): FeelType {
  let pos = 0;
  const ws = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  const expect = (s: string) => {
    ws();
    if (!text.startsWith(s, pos)) throw new Error(`expected "${s}" at ${pos} in type "${text}"`);
    pos += s.length;
  };
  const name = (): string => {
    ws();
    const start = pos;
    while (pos < text.length && !/[<>,:()]/.test(text[pos]!) && !text.startsWith('->', pos)) pos++;
    const n = text.slice(start, pos).trim().replace(/\s+/g, ' ');
    if (!n) throw new Error(`expected a type name at ${start} in type "${text}"`);
    return n;
  };
  const type = (): FeelType => {
    const n0 = name();
    const n = ALIASES[n0] ?? n0;
    ws();
    if (n === 'Any') return { kind: 'any' };
    if (n === 'Null' || n === 'null') return { kind: 'null' };
    if ((n === 'list' || n === 'range') && text[pos] === '<') {
      pos++;
      const item = type();
      expect('>');
      return { kind: n, item };
    }
    if (n === 'list' || n === 'range') return { kind: n, item: { kind: 'any' } };
    if (n === 'context' && text[pos] === '<') {
      pos++;
      const entries: [string, FeelType][] = [];
      ws();
      if (text[pos] !== '>') {
        for (;;) {
          const key = name();
          expect(':');
          entries.push([key, type()]);
          ws();
          if (text[pos] === ',') pos++;
          else break;
        }
      }
      expect('>');
      return { kind: 'context', entries };
    }
    if (n === 'context') return { kind: 'context', entries: [] };
    if (n === 'function') {
      const params: FeelType[] = [];
      if (text[pos] === '<') {
        pos++;
        ws();
        if (text[pos] !== '>') {
          for (;;) {
            params.push(type());
            ws();
            if (text[pos] === ',') pos++;
            else break;
          }
        }
        expect('>');
      }
      ws();
      let result: FeelType = { kind: 'any' };
      if (text.startsWith('->', pos)) {
        pos += 2;
        result = type();
      }
      return { kind: 'function', params, result };
    }
    return { kind: 'named', name: n };
  };
  const result = type();
  ws();
  if (pos !== text.length) throw new Error(`unexpected "${text.slice(pos)}" at ${pos} in type "${text}"`);
  return result;
}

/** Resolves named types that are not FEEL's own (item definitions) through `resolver`; unknown names stay. */
export function resolveType(type: FeelType, resolver: ((name: string) => FeelType | undefined) | undefined): FeelType {
  if (!resolver) return type;
  switch (type.kind) {
    case 'named':
      return (SIMPLE_TYPES as readonly string[]).includes(type.name) ? type : (resolver(type.name) ?? type);
    case 'list':
    case 'range':
      return { kind: type.kind, item: resolveType(type.item, resolver) };
    case 'context':
      return { kind: 'context', entries: type.entries.map(([k, t]) => [k, resolveType(t, resolver)]) };
    case 'function':
      return { kind: 'function', params: type.params.map((t) => resolveType(t, resolver)), result: resolveType(type.result, resolver) };
    default:
      return type;
  }
}

/** A value passed where `type` is expected, after FEEL's singleton list conversions; undefined when it does not conform. */
export function coerce(value: FeelValue, type: FeelType): FeelValue | undefined {
  if (conforms(value, type)) return value;
  if (type.kind !== 'list' && Array.isArray(value) && value.length === 1 && conforms(value[0]!, type)) return value[0]!;
  if (type.kind === 'list' && !Array.isArray(value) && conforms(value, type.item)) return [value];
  return undefined;
}

/** Whether `value` conforms to `type` (null conforms to every type but is an instance of none but Null). */
export function conforms(value: FeelValue, type: FeelType, nullConforms = true): boolean {
  if (type.kind === 'any') return true;
  if (value === null) return nullConforms || type.kind === 'null';
  switch (type.kind) {
    case 'null':
      return false;
    case 'named':
      return typeOf(value) === type.name;
    case 'list':
      return Array.isArray(value) && value.every((item) => conforms(item, type.item));
    case 'range':
      return value instanceof FeelRange && [value.start, value.end].every((end) => end === undefined || conforms(end, type.item));
    case 'context':
      return value instanceof FeelContext && type.entries.every(([key, t]) => value.has(key) && conforms(value.get(key)!, t));
    case 'function':
      return value instanceof FeelFunction && (type.params.length === 0 || value.params.length === type.params.length);
  }
}

/** `value instance of typeRef` (null is an instance of nothing but Null; Any holds every non-null value). */
export function instanceOf(value: FeelValue, type: FeelType): boolean {
  if (value === null) return type.kind === 'null' || type.kind === 'any' ? type.kind === 'null' : false;
  return conforms(value, type, false);
}

/** Whether a value conforms to a type written as text (DMN typeRef / item definitions). */
export function conformsTo(value: FeelValue, typeRef: string): boolean {
  return conforms(value, parseType(typeRef));
}
