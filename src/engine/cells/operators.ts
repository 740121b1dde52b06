// The stored operator strings of condition cells (spec/rule-format.md §2.9, §2.11) and the operand shape each
// one expects. Stored strings are matched exactly first, then through a small alias table so that hand-written
// rules using the editor's labels (`!=`, `BTW`, `NULL`) still compile.

export const OPERATORS = [
  'anything',
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'IN',
  'NOT IN',
  'between',
  'betweenLeftOpen',
  'betweenRightOpen',
  'notBetween',
  'containsText',
  'containsIn',
  'notContainsIn',
  'equalArray',
  'isNull',
  'isNotNull',
  'ELSE',
  'function',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** What the cell's `value` holds for an operator. */
export type OperandShape = 'none' | 'scalar' | 'set' | 'pair' | 'expression';

export const OPERAND_SHAPE: Readonly<Record<Operator, OperandShape>> = {
  anything: 'none',
  '=': 'scalar',
  '<>': 'scalar',
  '<': 'scalar',
  '<=': 'scalar',
  '>': 'scalar',
  '>=': 'scalar',
  IN: 'set',
  'NOT IN': 'set',
  between: 'pair',
  betweenLeftOpen: 'pair',
  betweenRightOpen: 'pair',
  notBetween: 'pair',
  containsText: 'scalar',
  containsIn: 'set',
  notContainsIn: 'set',
  equalArray: 'set',
  isNull: 'none',
  isNotNull: 'none',
  ELSE: 'none',
  function: 'expression',
};

/** Operators a date cell (`scalarCondition.type: "date"`) accepts (§2.11, §11 F2). */
export const DATE_OPERATORS: ReadonlySet<Operator> = new Set<Operator>([
  'anything',
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'IN',
  'NOT IN',
  'between',
  'betweenLeftOpen',
  'betweenRightOpen',
  'notBetween',
  'isNull',
  'isNotNull',
  'ELSE',
]);

const ALIASES: Readonly<Record<string, Operator>> = {
  any: 'anything',
  '==': '=',
  eq: '=',
  '!=': '<>',
  ne: '<>',
  in: 'IN',
  'not in': 'NOT IN',
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
  else: 'ELSE',
};

const EXACT = new Set<string>(OPERATORS);
const LOWER = new Map<string, Operator>(OPERATORS.map((op) => [op.toLowerCase(), op]));

/** The canonical operator for a stored string, or undefined when it is unknown. */
export function normaliseOperator(stored: unknown): Operator | undefined {
  if (typeof stored !== 'string') return undefined;
  if (EXACT.has(stored)) return stored as Operator;
  const key = stored.trim().toLowerCase().replace(/\s+/g, ' ');
  return LOWER.get(key) ?? ALIASES[key];
}
