// Identical cells of one column compile once (table/compile.ts): large tables repeat a handful of conditions and
// results thousands of times. A stored cell is identified exactly by what compiling it reads (type, operator,
// value, stringValue), looked up field by field in nested maps: the usual cell, all text, costs four map lookups
// and allocates nothing, which matters when a 40,000-row table is compiled straight after JSON.parse.

/** A field that cannot be keyed exactly (-0, a non-JSON object...): the cell is then compiled on its own. */
const UNKEYABLE: unique symbol = Symbol('unkeyable');
/** Under a value level: text lists (the usual set and range operands), keyed by length, then member by member. */
const TEXT_LIST: unique symbol = Symbol('text list');
/** Where a text list's compiled form sits, below its last member. */
const END: unique symbol = Symbol('end');

type Level = Map<unknown, unknown>;

/** A (type, operator, stringValue) triple of text fields and the map of values below it. */
interface Triple {
  readonly type: string | undefined;
  readonly operator: string | undefined;
  readonly stringValue: string | undefined;
  readonly byValue: Level;
}

export class SharedCells<T> {
  private readonly root: Level = new Map();
  /** The compiled form of a missing cell (no cell, or no scalarCondition / outputScalarValue). */
  private missing: T | undefined;
  // The cells of a column nearly always share type, operator and stringValue, or alternate between two such
  // triples (`anything` and `IN` cells): the last two triples (all text or absent) and their maps of values skip
  // three lookups.
  private last: Triple | undefined;
  private before: Triple | undefined;

  get(stored: unknown): T | undefined {
    if (stored === undefined || stored === null) return this.missing;
    if (typeof stored !== 'object' || Array.isArray(stored)) return undefined;
    const cell = stored as Record<string, unknown>;
    const { type, operator, stringValue } = cell;
    let byValue: Level | undefined;
    const last = this.last;
    const before = this.before;
    if (last !== undefined && type === last.type && operator === last.operator && stringValue === last.stringValue) {
      byValue = last.byValue;
    } else if (before !== undefined && type === before.type && operator === before.operator && stringValue === before.stringValue) {
      byValue = before.byValue;
      this.before = last;
      this.last = before;
    } else {
      const byOperator = lookUp(this.root, type);
      const byStringValue = byOperator && lookUp(byOperator, operator);
      byValue = byStringValue && lookUp(byStringValue, stringValue);
      if (byValue !== undefined && isTextOrAbsent(type) && isTextOrAbsent(operator) && isTextOrAbsent(stringValue)) {
        this.before = last;
        this.last = { type, operator, stringValue, byValue };
      }
    }
    if (byValue === undefined) return undefined;
    const value = cell.value;
    if (!isTextList(value)) return lookUp(byValue, value) as T | undefined;
    let level = (byValue.get(TEXT_LIST) as Level | undefined)?.get(value.length) as Level | undefined;
    for (let i = 0; level !== undefined && i < value.length; i++) level = level.get(value[i]) as Level | undefined;
    return level?.get(END) as T | undefined;
  }

  set(stored: unknown, compiled: T): void {
    if (stored === undefined || stored === null) {
      this.missing = compiled;
      return;
    }
    if (typeof stored !== 'object' || Array.isArray(stored)) return;
    const cell = stored as Record<string, unknown>;
    const value = cell.value;
    const list = isTextList(value);
    // Level by level without a list of keys: a large table sets tens of thousands of distinct cells.
    const typeKey = fieldKey(cell.type);
    const operatorKey = fieldKey(cell.operator);
    const stringValueKey = fieldKey(cell.stringValue);
    const valueKey = list ? TEXT_LIST : fieldKey(value);
    if (typeKey === UNKEYABLE || operatorKey === UNKEYABLE || stringValueKey === UNKEYABLE || valueKey === UNKEYABLE) return;
    const byValue = levelBelow(levelBelow(levelBelow(this.root, typeKey), operatorKey), stringValueKey);
    if (!list) {
      byValue.set(valueKey, compiled);
      return;
    }
    let level = levelBelow(levelBelow(byValue, TEXT_LIST), value.length);
    for (let i = 0; i < value.length; i++) level = levelBelow(level, value[i]);
    level.set(END, compiled);
  }
}

function levelBelow(level: Level, key: unknown): Level {
  let next = level.get(key) as Level | undefined;
  if (next === undefined) level.set(key, (next = new Map()));
  return next;
}

function isTextOrAbsent(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

function lookUp(level: Level, field: unknown): Level | undefined {
  const key = fieldKey(field);
  return key === UNKEYABLE ? undefined : (level.get(key) as Level | undefined);
}

/**
 * A Map key equal for two field values exactly when compiling treats them alike: primitives stand for themselves
 * (Map keys compare by SameValueZero, so -0 is refused); objects and arrays by their JSON text, in a namespace
 * no text value can enter.
 */
function fieldKey(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return value.charCodeAt(0) === 1 ? `\u0001s${value}` : value;
    case 'number':
      return Object.is(value, -0) ? UNKEYABLE : value;
    case 'boolean':
    case 'undefined':
      return value;
    case 'object': {
      if (value === null) return null;
      const text = exactJson(value);
      return text === undefined ? UNKEYABLE : `\u0001j${text}`;
    }
    default:
      return UNKEYABLE;
  }
}

/** JSON text of an object or array, or undefined when it holds anything JSON would change or drop. */
function exactJson(value: object): string | undefined {
  let plain = true;
  const text = JSON.stringify(value, function (this: unknown, key: string, inner: unknown) {
    if (!isPlainJson((this as Record<string, unknown>)[key])) plain = false;
    return inner;
  });
  return plain ? text : undefined;
}

/** An array of strings without holes: the usual set and range operand. */
function isTextList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null || Array.isArray(value)) return true;
      const proto = Object.getPrototypeOf(value) as unknown;
      return proto === Object.prototype || proto === null;
    }
    default:
      return false;
  }
}
