// The stored condition operators of decision-table cells, tree conditions and flow switches
// (spec/rule-format.md §2.9, §2.11): part of the document format, so it lives here with the validator. This one
// table drives both the validator and the engine's cell compiler (src/engine/cells), so an operator the
// validator accepts is always one the engine knows. Stored strings match
// exactly first, then case-insensitively, then through the editor's labels (`!=`, `BTW`, `NULL`), so
// hand-written rules work too.

/**
 * What a condition cell's `value` holds for an operator:
 * - `none`: ignored (stored as `""`);
 * - `scalar`: one value (text, number, boolean; a legacy `{date,time,timezone}` object in date cells);
 * - `set`: a list, normally a JSON array; a string is split on `|` (then `,`, `;`) or names one variable
 *   holding an array (§2.9 notes);
 * - `range`: a two-element array `[lo, hi]`;
 * - `text`: one substring, or a set (then evaluated as containsIn, §11 F3);
 * - `expression`: a function condition (`stringValue` and/or an AST in `value`, §2.12).
 */
export type OperatorValueShape = 'none' | 'scalar' | 'set' | 'range' | 'text' | 'expression';
/** The engine's name for the same thing. */
export type OperandShape = OperatorValueShape;

export interface OperatorSpec {
  /** The stored string (`scalarCondition.operator`). */
  readonly name: string;
  /** The label the DecisionRules editor shows. */
  readonly label: string;
  readonly value: OperatorValueShape;
  /** Allowed in date cells (`scalarCondition.type: "date"`, §2.11, §11 F2). */
  readonly date: boolean;
}

export const OPERATORS = [
  { name: 'anything', label: 'ANY', value: 'none', date: true },
  { name: '=', label: '=', value: 'scalar', date: true },
  { name: '<>', label: '!=', value: 'scalar', date: true },
  { name: '<', label: '<', value: 'scalar', date: true },
  { name: '<=', label: '<=', value: 'scalar', date: true },
  { name: '>', label: '>', value: 'scalar', date: true },
  { name: '>=', label: '>=', value: 'scalar', date: true },
  { name: 'IN', label: 'IN', value: 'set', date: true },
  { name: 'NOT IN', label: '!IN', value: 'set', date: true },
  { name: 'between', label: 'BTW', value: 'range', date: true },
  { name: 'betweenLeftOpen', label: 'BTW LO', value: 'range', date: true },
  { name: 'betweenRightOpen', label: 'BTW RO', value: 'range', date: true },
  { name: 'notBetween', label: '!BTW', value: 'range', date: true },
  { name: 'containsText', label: 'C TXT', value: 'text', date: false },
  { name: 'containsIn', label: 'C IN', value: 'set', date: false },
  { name: 'notContainsIn', label: '!C IN', value: 'set', date: false },
  { name: 'equalArray', label: 'EQ ARR', value: 'set', date: false },
  { name: 'isNull', label: 'NULL', value: 'none', date: true },
  { name: 'isNotNull', label: '!NULL', value: 'none', date: true },
  { name: 'ELSE', label: 'ELSE', value: 'none', date: true },
  { name: 'function', label: 'function', value: 'expression', date: false },
] as const satisfies readonly OperatorSpec[];

/** A canonical stored operator string. */
export type Operator = (typeof OPERATORS)[number]['name'];

export const OPERATOR_NAMES: readonly Operator[] = OPERATORS.map((op) => op.name);

const BY_NAME: ReadonlyMap<string, OperatorSpec> = new Map(OPERATORS.map((op) => [op.name, op]));

/** The operand shape of each operator. */
export const OPERAND_SHAPE = Object.fromEntries(OPERATORS.map((op) => [op.name, op.value])) as Readonly<Record<Operator, OperandShape>>;

/** Operators a date cell (`scalarCondition.type: "date"`) accepts (§2.11, §11 F2). */
export const DATE_OPERATORS: ReadonlySet<Operator> = new Set(OPERATORS.filter((op) => op.date).map((op) => op.name));

/**
 * Spellings people type besides the stored strings (matched after trimming, lower-casing and collapsing
 * spaces): the editor's labels and a few common forms. Lower-cased stored names (`in`, `not in`, `else`) need
 * no entry.
 */
const ALIASES: Readonly<Record<string, Operator>> = {
  any: 'anything',
  '==': '=',
  eq: '=',
  '!=': '<>',
  ne: '<>',
  notin: 'NOT IN',
  '!in': 'NOT IN',
  btw: 'between',
  'btw lo': 'betweenLeftOpen',
  'btw ro': 'betweenRightOpen',
  '!btw': 'notBetween',
  'c txt': 'containsText',
  'c in': 'containsIn',
  '!c in': 'notContainsIn',
  'eq arr': 'equalArray',
  null: 'isNull',
  '!null': 'isNotNull',
};

const BY_LOWER_NAME = new Map<string, Operator>([
  ...OPERATORS.map((op) => [op.name.toLowerCase(), op.name] as const),
  ...Object.entries(ALIASES),
]);

/** The canonical operator for a stored string, or undefined when it is unknown. */
export function normaliseOperator(stored: unknown): Operator | undefined {
  if (typeof stored !== 'string') return undefined;
  if (BY_NAME.has(stored)) return stored as Operator;
  return BY_LOWER_NAME.get(stored.trim().toLowerCase().replace(/\s+/g, ' '));
}

/** The spec of a stored operator string (aliases included), or undefined when it is unknown. */
export function operatorSpec(stored: unknown): OperatorSpec | undefined {
  const name = normaliseOperator(stored);
  return name === undefined ? undefined : BY_NAME.get(name);
}

/** Condition cell types (`scalarCondition.type`); missing means `general` (or `function` for the function operator). */
export const CONDITION_TYPES = ['general', 'date', 'function'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];
