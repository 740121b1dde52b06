// The operator picker's catalog: the engine's own operator table (src/rules/operators.ts, which also
// drives the validator) with, for each operator, the value editor the designer shows and a plain description.
import { OPERATORS } from '../../../../src/rules/operators.ts';
import type { Operator, OperatorValueShape } from '../../../../src/rules/operators.ts';

export type { Operator };

/** The editor a condition cell shows for its operator. */
export type ValueEditorKind = 'none' | 'single' | 'pair' | 'list' | 'expression';

export type OperatorGroup = 'compare' | 'range' | 'list' | 'text' | 'null' | 'special';

export interface OperatorEntry {
  /** Stored string (`scalarCondition.operator`). */
  name: Operator;
  /** What DecisionRules' editor shows. */
  label: string;
  description: string;
  group: OperatorGroup;
  editor: ValueEditorKind;
  /** Allowed in a date condition (`type: "date"`). */
  date: boolean;
}

const EDITOR: Record<OperatorValueShape, ValueEditorKind> = {
  none: 'none',
  scalar: 'single',
  set: 'list',
  range: 'pair',
  text: 'single',
  expression: 'expression',
};

const DESCRIPTION: Record<Operator, [OperatorGroup, string]> = {
  anything: ['special', 'any value, even a missing one'],
  '=': ['compare', 'equals'],
  '<>': ['compare', 'does not equal'],
  '<': ['compare', 'less than'],
  '<=': ['compare', 'less than or equal'],
  '>': ['compare', 'greater than'],
  '>=': ['compare', 'greater than or equal'],
  IN: ['list', 'is one of the listed values'],
  'NOT IN': ['list', 'is none of the listed values'],
  between: ['range', 'between, both bounds included'],
  betweenLeftOpen: ['range', 'between, lower bound excluded'],
  betweenRightOpen: ['range', 'between, upper bound excluded'],
  notBetween: ['range', 'outside the range'],
  containsText: ['text', 'contains the text'],
  containsIn: ['text', 'contains one of the listed texts'],
  notContainsIn: ['text', 'contains none of the listed texts'],
  equalArray: ['text', 'array whose elements contain every listed text'],
  isNull: ['null', 'is null, missing, {} or []'],
  isNotNull: ['null', 'is not null'],
  ELSE: ['special', 'no row above matched'],
  function: ['special', 'an expression that must give true'],
};

export const OPERATOR_CATALOG: readonly OperatorEntry[] = OPERATORS.map((op) => ({
  name: op.name,
  label: op.label,
  description: DESCRIPTION[op.name][1],
  group: DESCRIPTION[op.name][0],
  editor: EDITOR[op.value],
  date: op.date,
}));

const BY_NAME = new Map<string, OperatorEntry>(OPERATOR_CATALOG.map((e) => [e.name, e]));

export function operatorEntry(name: string): OperatorEntry | undefined {
  return BY_NAME.get(name);
}

/** The operators a condition of this type may use (date conditions allow no text operators, §2.11). */
export function operatorsFor(type: 'general' | 'date'): OperatorEntry[] {
  return OPERATOR_CATALOG.filter((e) => e.name !== 'function' && (type === 'general' || e.date));
}

/** The words the cell text starts with for an operator (the label), and every spelling accepted back. */
const SPELLINGS = new Map<string, Operator>();
for (const op of OPERATORS) {
  SPELLINGS.set(op.label, op.name);
  SPELLINGS.set(op.name, op.name);
}
for (const [text, name] of [['<>', '<>'], ['==', '='], ['NOT IN', 'NOT IN'], ['fx', 'function'], ['FX', 'function']] as const) {
  SPELLINGS.set(text, name);
}

/** The operator spelled by `word` (case-sensitive, so a value such as "In stock" is not read as IN). */
export function operatorBySpelling(word: string): Operator | undefined {
  return SPELLINGS.get(word);
}
