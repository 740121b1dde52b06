// Where things are in a DecisionRules XLSX v2 workbook (docs/xlsx.md): the four sheets, the Settings labels, the
// Table's header rows and its column pairs. Reader and writer both take positions from here, so they cannot drift.
import { OPERATORS } from '../../rules/operators.ts';

export const SHEETS = { settings: 'Settings', variables: 'Rule Variables', table: 'Table', validValues: 'Valid Values' } as const;

export const EXPORT_VERSION = 2;

/** Settings rows: label in column A, value in column B, in this order. */
export const SETTINGS = {
  exportVersion: 'Export Version',
  name: 'Name',
  ruleAlias: 'Rule Alias',
  version: 'Version',
  status: 'Status',
  inputModel: 'Input Model',
  outputModel: 'Output Model',
  ruleId: 'Rule ID',
  created: 'Created',
  tags: 'Tags',
  note: 'Note',
  /** A Verdict addition (DecisionRules' sheet has no row for it): the rule's audit settings as JSON. */
  auditLog: 'Audit Log',
} as const;

export type SettingKey = keyof typeof SETTINGS;

export const REQUIRED_SETTINGS: readonly SettingKey[] = ['exportVersion', 'name', 'ruleAlias', 'version', 'status', 'inputModel', 'outputModel'];

/** Rule Variables: a header row, then one variable a row. */
export const VARIABLE_HEADERS = ['Variable Name', 'Value'] as const;

/** Table: the header rows (1-based), the row labels in column A, and the first data row. */
export const TABLE_ROWS = { alias: 1, type: 2, title: 3, value: 4, subHeader: 5, firstData: 6 } as const;
export const TABLE_ROW_LABELS = ['Column Alias', 'Column Type', 'Column Title', 'Column Value'] as const;
/** Columns A and B of every data row; each rule column then takes two sheet columns, Operator and Value. */
export const ACTIVE_COLUMN = 1;
export const TIME_COLUMN = 2;
export const FIRST_RULE_COLUMN = 3;
export const SUB_HEADERS = { active: 'Active', time: 'Time Validation', operator: 'Operator', value: 'Value' } as const;

/** The sheet column (1-based) of rule column `index`'s operator; its value is the next one. */
export function operatorColumn(index: number): number {
  return FIRST_RULE_COLUMN + index * 2;
}

/** Column types as the Table sheet writes them, and the stored column `type` of each. */
export const COLUMN_TYPES = { condition: 'input', calculation: 'calc', output: 'output' } as const;
export type SheetColumnType = keyof typeof COLUMN_TYPES;
export const SHEET_TYPE_OF: Record<string, SheetColumnType> = { input: 'condition', calc: 'calculation', output: 'output' };

export const YES = 'Yes';
export const NO = 'No';

/** The operator of result cells holding a simple value, and of every expression cell. */
export const SIMPLE_VALUE_OPERATOR = '=';
export const FUNCTION_OPERATOR = 'function';
/** A date condition's operator cell: `DATE between` (the prefix the Studio's table text uses too). */
export const DATE_PREFIX = 'DATE ';

/** The dropdown of a condition column's operator cells: the stored operator names. */
export const CONDITION_OPERATORS: readonly string[] = OPERATORS.map((op) => op.name);
export const RESULT_OPERATORS: readonly string[] = [SIMPLE_VALUE_OPERATOR, FUNCTION_OPERATOR];
export const CALCULATION_OPERATORS: readonly string[] = [FUNCTION_OPERATOR];

/** `A1` reference of a 1-based row and column. */
export function cellRef(row: number, column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row}`;
}

/** `Table!C5`: where a problem is, as the problem's path. */
export function located(sheet: string, row: number, column: number): string {
  return `${sheet}!${cellRef(row, column)}`;
}
