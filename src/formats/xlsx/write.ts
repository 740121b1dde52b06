// A decision table -> a DecisionRules XLSX v2 workbook (docs/xlsx.md). Operator cells carry a data-validation
// list, so a person picks operators from a dropdown. Function cells are written from their text (`stringValue`);
// a cell that only has a stored AST must be given its text first (the service prints it with the engine).
import type ExcelJS from 'exceljs';
import { excelJS } from './exceljs.ts';
import { operatorSpec } from '../../rules/operators.ts';
import { validValuesOf } from '../../rules/valid-values.ts';
import {
  ACTIVE_COLUMN, CALCULATION_OPERATORS, CONDITION_OPERATORS, DATE_PREFIX, EXPORT_VERSION, FUNCTION_OPERATOR, NO, RESULT_OPERATORS,
  SETTINGS, SHEETS, SHEET_TYPE_OF, SIMPLE_VALUE_OPERATOR, SUB_HEADERS, TABLE_ROWS, TABLE_ROW_LABELS, TIME_COLUMN, VARIABLE_HEADERS, YES,
  located, operatorColumn,
} from './layout.ts';
import type { SettingKey } from './layout.ts';
import { encodeList, encodeScalar, encodeVariable } from './values.ts';
import type { CellScalar } from './values.ts';
import { columnAliases, columnBinding, isObject } from './columns.ts';

type Json = Record<string, unknown>;

/** Only decision tables have a spreadsheet form. */
export class NotATableError extends Error {
  constructor(type: unknown) {
    super(`Only decision tables can be written to XLSX; this rule is of type ${JSON.stringify(type ?? 'unknown')}`);
    this.name = 'NotATableError';
  }
}

/** Excel keeps at most this many characters in a cell and cuts the rest when it opens the file. */
export const MAX_CELL_TEXT = 32_767;

/** A value the workbook cannot hold as it is (Excel would cut it): the export is refused rather than lossy. */
export class CannotWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotWriteError';
  }
}

function refuseLongTexts(workbook: ExcelJS.Workbook): void {
  workbook.eachSheet((sheet) => {
    sheet.eachRow((row, r) => {
      row.eachCell((cell, c) => {
        if (typeof cell.value === 'string' && cell.value.length > MAX_CELL_TEXT) {
          throw new CannotWriteError(`${located(sheet.name, r, c)} would hold ${cell.value.length} characters; a spreadsheet cell holds at most ${MAX_CELL_TEXT}, so this table cannot go to XLSX without loss`);
        }
      });
    });
  });
}

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF7' } };

function bold(cell: ExcelJS.Cell): void {
  cell.font = { bold: true };
  cell.fill = HEADER_FILL;
}

function writeSettings(sheet: ExcelJS.Worksheet, rule: Json): void {
  const values: Partial<Record<SettingKey, CellScalar>> = {
    exportVersion: EXPORT_VERSION,
    name: String(rule.name ?? ''),
    ruleAlias: typeof rule.ruleAlias === 'string' ? rule.ruleAlias : '',
    version: typeof rule.version === 'number' ? rule.version : 1,
    status: rule.status === 'pending' ? 'pending' : 'published',
    inputModel: JSON.stringify(rule.inputSchema ?? {}),
    outputModel: JSON.stringify(rule.outputSchema ?? {}),
  };
  const ruleId = rule.ruleId ?? rule.baseId;
  if (typeof ruleId === 'string' && ruleId !== '') values.ruleId = ruleId;
  if (typeof rule.createdIn === 'string') values.created = rule.createdIn;
  if (Array.isArray(rule.tags)) values.tags = JSON.stringify(rule.tags);
  if (typeof rule.description === 'string') values.note = rule.description;
  if (rule.auditLog !== undefined) values.auditLog = JSON.stringify(rule.auditLog);
  let row = 1;
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    if (!(key in values)) continue;
    bold(sheet.getCell(row, 1));
    sheet.getCell(row, 1).value = SETTINGS[key];
    sheet.getCell(row, 2).value = values[key] ?? null;
    row++;
  }
  sheet.getColumn(1).width = 18;
  sheet.getColumn(2).width = 60;
}

function writeVariables(sheet: ExcelJS.Worksheet, rule: Json): void {
  VARIABLE_HEADERS.forEach((header, i) => {
    sheet.getCell(1, i + 1).value = header;
    bold(sheet.getCell(1, i + 1));
  });
  let row = 2;
  for (const entry of Array.isArray(rule.userVariables) ? rule.userVariables : []) {
    if (!isObject(entry) || typeof entry.name !== 'string' || entry.name === '') continue;
    sheet.getCell(row, 1).value = entry.name;
    sheet.getCell(row, 2).value = encodeVariable(entry.value);
    row++;
  }
  sheet.getColumn(1).width = 24;
  sheet.getColumn(2).width = 40;
}

function expressionText(stored: Json): string {
  if (typeof stored.stringValue === 'string') return stored.stringValue;
  if (typeof stored.value === 'string') return stored.value;
  if (stored.value === undefined || stored.value === null) return '';
  // Only reached when the caller gave no text for a stored AST; JSON keeps it exact, the reader takes it back.
  return JSON.stringify(stored.value);
}

function isAst(value: unknown): boolean {
  return isObject(value) && Object.hasOwn(value, 'functionName');
}

/** The operator and value cells of a condition cell. */
function conditionCells(stored: Json): [CellScalar, CellScalar] {
  const spec = operatorSpec(stored.operator);
  if (stored.operator === FUNCTION_OPERATOR || stored.type === 'function') return [FUNCTION_OPERATOR, expressionText(stored)];
  const operator = spec?.name ?? String(stored.operator ?? '');
  const shown = stored.type === 'date' ? `${DATE_PREFIX}${operator}` : operator;
  const shape = spec?.value;
  const value = shape === 'set' || shape === 'range' || (shape === 'text' && Array.isArray(stored.value)) ? encodeList(stored.value) : encodeScalar(stored.value);
  return [shown, value];
}

/** The operator and value cells of a result or calculation cell. */
function resultCells(stored: Json): [CellScalar, CellScalar] {
  const type = typeof stored.type === 'string' ? stored.type.toLowerCase() : undefined;
  if (type === 'function' || (type === undefined && isAst(stored.value))) return [FUNCTION_OPERATOR, expressionText(stored)];
  return [SIMPLE_VALUE_OPERATOR, encodeScalar(stored.value)];
}

function dropdown(cell: ExcelJS.Cell, operators: readonly string[]): void {
  cell.dataValidation = {
    type: 'list',
    allowBlank: true,
    formulae: [`"${operators.join(',')}"`],
    showErrorMessage: true,
    errorStyle: 'warning',
    errorTitle: 'Operator',
    error: 'Not an operator of this column; see docs/xlsx.md',
  };
}

function writeTable(sheet: ExcelJS.Worksheet, table: Json): void {
  const columns = (Array.isArray(table.columns) ? table.columns : []).filter(isObject);
  const aliases = columnAliases(columns);
  TABLE_ROW_LABELS.forEach((label, i) => {
    sheet.getCell(i + 1, ACTIVE_COLUMN).value = label;
    bold(sheet.getCell(i + 1, ACTIVE_COLUMN));
  });
  sheet.getCell(TABLE_ROWS.subHeader, ACTIVE_COLUMN).value = SUB_HEADERS.active;
  sheet.getCell(TABLE_ROWS.subHeader, TIME_COLUMN).value = SUB_HEADERS.time;
  bold(sheet.getCell(TABLE_ROWS.subHeader, ACTIVE_COLUMN));
  bold(sheet.getCell(TABLE_ROWS.subHeader, TIME_COLUMN));
  columns.forEach((column, i) => {
    const at = operatorColumn(i);
    const binding = columnBinding(column);
    const header: Array<[number, CellScalar]> = [
      [TABLE_ROWS.alias, aliases[i]!],
      [TABLE_ROWS.type, SHEET_TYPE_OF[String(column.type)] ?? String(column.type)],
      [TABLE_ROWS.title, binding.title],
      [TABLE_ROWS.value, binding.value],
    ];
    for (const [row, value] of header) {
      sheet.mergeCells(row, at, row, at + 1);
      sheet.getCell(row, at).value = value;
      bold(sheet.getCell(row, at));
    }
    sheet.getCell(TABLE_ROWS.subHeader, at).value = SUB_HEADERS.operator;
    sheet.getCell(TABLE_ROWS.subHeader, at + 1).value = SUB_HEADERS.value;
    bold(sheet.getCell(TABLE_ROWS.subHeader, at));
    bold(sheet.getCell(TABLE_ROWS.subHeader, at + 1));
    sheet.getColumn(at).width = 12;
    sheet.getColumn(at + 1).width = 24;
  });
  sheet.getColumn(ACTIVE_COLUMN).width = 14;
  sheet.getColumn(TIME_COLUMN).width = 20;
  const rows = (Array.isArray(table.rows) ? table.rows : []).filter(isObject);
  rows.forEach((row, r) => {
    const sheetRow = TABLE_ROWS.firstData + r;
    sheet.getCell(sheetRow, ACTIVE_COLUMN).value = row.active === false ? NO : YES;
    if (row.timeValidation !== undefined && row.timeValidation !== null) sheet.getCell(sheetRow, TIME_COLUMN).value = JSON.stringify(row.timeValidation);
    const cells = new Map((Array.isArray(row.cells) ? row.cells : []).filter(isObject).map((cell) => [String(cell.column), cell]));
    columns.forEach((column, i) => {
      const at = operatorColumn(i);
      const operators = column.type === 'input' ? CONDITION_OPERATORS : column.type === 'calc' ? CALCULATION_OPERATORS : RESULT_OPERATORS;
      dropdown(sheet.getCell(sheetRow, at), operators);
      const cell = cells.get(String(column.columnId));
      if (!cell) return;
      const stored = column.type === 'input' ? cell.scalarCondition : cell.outputScalarValue;
      if (!isObject(stored)) return;
      const [operator, value] = column.type === 'input' ? conditionCells(stored) : resultCells(stored);
      sheet.getCell(sheetRow, at).value = operator;
      sheet.getCell(sheetRow, at + 1).value = value;
    });
  });
  sheet.views = [{ state: 'frozen', xSplit: TIME_COLUMN, ySplit: TABLE_ROWS.subHeader }];
}

/** A valid value as its cell: a GENERAL value as typed, another kind (DATE, regex) as its JSON, read back as is. */
function validValueCell(entry: unknown): CellScalar {
  const [value] = validValuesOf({ validValues: [entry] });
  return value ?? JSON.stringify(entry);
}

function writeValidValues(sheet: ExcelJS.Worksheet, table: Json): void {
  const columns = (Array.isArray(table.columns) ? table.columns : []).filter(isObject);
  const aliases = columnAliases(columns);
  let at = 1;
  columns.forEach((column, i) => {
    if (!Array.isArray(column.validValues) || column.validValues.length === 0) return;
    sheet.getCell(1, at).value = aliases[i]!;
    sheet.getCell(2, at).value = columnBinding(column).title;
    bold(sheet.getCell(1, at));
    bold(sheet.getCell(2, at));
    column.validValues.forEach((entry, j) => {
      sheet.getCell(3 + j, at).value = validValueCell(entry);
    });
    sheet.getColumn(at).width = 20;
    at++;
  });
}

/** The workbook of a decision table, as the bytes of an .xlsx file. */
export async function writeXlsx(rule: Json): Promise<Buffer> {
  if (rule.type !== 'decision-table' || !isObject(rule.decisionTable)) throw new NotATableError(rule.type);
  const workbook = new (await excelJS()).Workbook();
  workbook.creator = 'Verdict';
  writeSettings(workbook.addWorksheet(SHEETS.settings), rule);
  writeVariables(workbook.addWorksheet(SHEETS.variables), rule);
  writeTable(workbook.addWorksheet(SHEETS.table), rule.decisionTable);
  writeValidValues(workbook.addWorksheet(SHEETS.validValues), rule.decisionTable);
  refuseLongTexts(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
