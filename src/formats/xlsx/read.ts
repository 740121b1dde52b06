// A DecisionRules XLSX v2 workbook -> a decision table (docs/xlsx.md). The file is inspected before exceljs sees
// it (zip-guard.ts); then every cell is read, every problem is collected with its place (`Table!C7`), and the
// document is validated with src/rules, its problems placed on the cells they came from. Nothing is returned
// unless the whole file reads: an import takes all of it or nothing.
import type ExcelJS from 'exceljs';
import { excelJS } from './exceljs.ts';
import { Problems } from '../../rules/check.ts';
import { ValidationError } from '../../rules/problems.ts';
import type { Problem } from '../../rules/problems.ts';
import { normaliseOperator, operatorSpec, OPERATOR_NAMES } from '../../rules/operators.ts';
import { validateRuleDocument } from '../../rules/validate.ts';
import { validValuesField } from '../../rules/valid-values.ts';
import { buildColumn, columnAliases, isObject } from './columns.ts';
import {
  ACTIVE_COLUMN, COLUMN_TYPES, DATE_PREFIX, EXPORT_VERSION, FUNCTION_OPERATOR, NO, REQUIRED_SETTINGS, SETTINGS, SHEETS,
  SIMPLE_VALUE_OPERATOR, TABLE_ROWS, TIME_COLUMN, YES, cellRef, located, operatorColumn,
} from './layout.ts';
import type { SettingKey, SheetColumnType } from './layout.ts';
import { decodeList, decodeScalar, decodeScalarOrObject, decodeVariable, cellText, parseJson } from './values.ts';
import type { CellScalar } from './values.ts';
import { XLSX_LIMITS, inspectArchive } from './zip-guard.ts';
import type { XlsxLimits } from './zip-guard.ts';

type Json = Record<string, unknown>;

export interface ReadOptions {
  /** The rule the file goes back into (a new version, the open draft): columns matched by alias keep its ids. */
  base?: Json;
  limits?: XlsxLimits;
}

export interface ReadResult {
  document: Json;
  /** The sheet cell a JSON path of the document came from (`Table!D7`), for problems found later (compiling). */
  locate(path: string): string | undefined;
}

const ALIAS = /^[A-Za-z0-9-]+$/;
const TIME_BOUND = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} [+-]\d{2}:\d{2}$/;

/** JSON paths of the document and the cells they came from; a path's nearest recorded ancestor answers. */
class Locations {
  readonly #cells = new Map<string, string>();
  set(path: string, ref: string): void {
    this.#cells.set(path, ref);
  }
  locate(path: string): string | undefined {
    for (let p = path; ; ) {
      const ref = this.#cells.get(p);
      if (ref !== undefined) return ref;
      const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
      if (cut <= 0) return this.#cells.get('');
      p = p.slice(0, cut);
    }
  }
}

class Reader {
  readonly #problems = new Problems();
  readonly where = new Locations();

  add(path: string, message: string): void {
    this.#problems.add(path, message);
  }

  /** Every problem so far (past MAX_PROBLEMS, a closing note says how many more there were). */
  get problems(): Problem[] {
    return this.#problems.finish();
  }

  /** A cell as a plain value; formulas, errors and odd cell kinds are problems (a formula is never executed). */
  cell(sheet: ExcelJS.Worksheet, row: number, column: number): CellScalar {
    const value = sheet.getCell(row, column).value;
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    if (value instanceof Date) return value.toISOString();
    const constant = booleanFormula(value);
    if (constant !== undefined) return constant;
    if (typeof value === 'object') {
      if ('richText' in value) return value.richText.map((part) => part.text).join('');
      if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(null);
      // formulas are refused by the first pass over every cell (refuseFormulas); an error value is a problem
      if ('error' in value) this.add(located(sheet.name, row, column), `holds the spreadsheet error ${String(value.error)}; type the value instead`);
    }
    return null;
  }

  text(sheet: ExcelJS.Worksheet, row: number, column: number): string {
    return cellText(this.cell(sheet, row, column)).trim();
  }
}

function formulaOf(value: ExcelJS.CellValue): string | undefined {
  if (value === null || typeof value !== 'object' || value instanceof Date) return undefined;
  if ('formula' in value && typeof value.formula === 'string') return value.formula;
  if ('sharedFormula' in value && typeof value.sharedFormula === 'string') return `shared with ${value.sharedFormula}`;
  return undefined;
}

/**
 * LibreOffice saves a boolean cell as the formula TRUE() or FALSE(): a constant, read from the formula's text
 * (never from a cached result), so Yes/No-free booleans survive a round trip through Calc.
 */
function booleanFormula(value: ExcelJS.CellValue): boolean | undefined {
  const match = /^\s*(TRUE|FALSE)\s*(?:\(\s*\))?\s*$/i.exec(formulaOf(value) ?? '');
  return match ? match[1]!.toUpperCase() === 'TRUE' : undefined;
}

/** Every formula anywhere in the workbook is a problem: its value is never computed, nor its cached result trusted. */
function refuseFormulas(workbook: ExcelJS.Workbook, reader: Reader): void {
  workbook.eachSheet((sheet) => {
    sheet.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        const formula = formulaOf(cell.value);
        if (formula !== undefined && booleanFormula(cell.value) === undefined) {
          reader.add(located(sheet.name, r, c), `holds a formula (=${formula}); formulas are not executed: replace it with its value (Paste Special > Values)`);
        }
      });
    });
  });
}

function refuseOversized(workbook: ExcelJS.Workbook, limits: XlsxLimits): void {
  workbook.eachSheet((sheet) => {
    if (sheet.rowCount > limits.maxRows) {
      throw new ValidationError([{ path: sheet.name, message: `has ${sheet.rowCount} rows, more than the ${limits.maxRows} a sheet may have (docs/xlsx.md "Limits"); nothing was imported` }]);
    }
    if (sheet.columnCount > limits.maxColumns) {
      throw new ValidationError([{ path: sheet.name, message: `has ${sheet.columnCount} columns, more than the ${limits.maxColumns} a sheet may have (docs/xlsx.md "Limits"); nothing was imported` }]);
    }
  });
}

const SETTING_BY_LABEL = new Map(Object.entries(SETTINGS).map(([key, label]) => [label.toLowerCase(), key as SettingKey]));

function jsonCell(reader: Reader, ref: string, text: string, what: string, expect: 'object' | 'array'): unknown {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    reader.add(ref, `${what} must be JSON (${parsed.reason})`);
    return undefined;
  }
  const ok = expect === 'array' ? Array.isArray(parsed.value) : isObject(parsed.value);
  if (!ok) reader.add(ref, `${what} must be a JSON ${expect === 'array' ? 'array such as ["tag"]' : 'object such as {"age":{}}'}`);
  return ok ? parsed.value : undefined;
}

function readSettings(sheet: ExcelJS.Worksheet, reader: Reader, rule: Json): void {
  const seen = new Map<SettingKey, number>();
  for (let row = 1; row <= sheet.rowCount; row++) {
    const label = reader.text(sheet, row, 1);
    if (label === '') {
      if (reader.text(sheet, row, 2) !== '') reader.add(located(sheet.name, row, 1), 'a value without a label: write the setting\'s name (e.g. Name) in column A');
      continue;
    }
    const key = SETTING_BY_LABEL.get(label.toLowerCase());
    if (key === undefined) {
      reader.add(located(sheet.name, row, 1), `unknown setting "${label}" (expected one of ${Object.values(SETTINGS).join(', ')})`);
      continue;
    }
    if (seen.has(key)) {
      reader.add(located(sheet.name, row, 1), `"${SETTINGS[key]}" appears twice (also row ${seen.get(key)})`);
      continue;
    }
    seen.set(key, row);
    readSetting(key, sheet, row, reader, rule);
  }
  for (const key of REQUIRED_SETTINGS) {
    if (!seen.has(key)) reader.add(sheet.name, `is missing the row "${SETTINGS[key]}" (label in column A, value in column B)`);
  }
}

function readSetting(key: SettingKey, sheet: ExcelJS.Worksheet, row: number, reader: Reader, rule: Json): void {
  const ref = located(sheet.name, row, 2);
  const cell = reader.cell(sheet, row, 2);
  const text = cellText(cell).trim();
  const where = (path: string): void => reader.where.set(path, ref);
  switch (key) {
    case 'exportVersion':
      if (Number(text) !== EXPORT_VERSION) reader.add(ref, `Export Version must be ${EXPORT_VERSION} (got ${text === '' ? 'nothing' : JSON.stringify(text)}); only XLSX version 2 is read`);
      return;
    case 'name':
      where('name');
      rule.name = text;
      if (text === '') reader.add(ref, 'Name is required');
      return;
    case 'ruleAlias':
      where('ruleAlias');
      if (text !== '') rule.ruleAlias = text;
      return;
    case 'version': {
      where('version');
      const version = Number(text);
      if (!/^\d+$/.test(text) || version < 1) reader.add(ref, `Version must be a whole number from 1 (got ${JSON.stringify(text)})`);
      else rule.version = version;
      return;
    }
    case 'status':
      where('status');
      if (text !== 'published' && text !== 'pending') reader.add(ref, `Status must be published or pending (got ${JSON.stringify(text)})`);
      else rule.status = text;
      return;
    case 'inputModel':
    case 'outputModel': {
      const field = key === 'inputModel' ? 'inputSchema' : 'outputSchema';
      where(field);
      const model = jsonCell(reader, ref, text, SETTINGS[key], 'object');
      if (model !== undefined) rule[field] = model;
      return;
    }
    case 'ruleId':
      where('ruleId');
      if (text !== '') rule.ruleId = text;
      return;
    case 'created':
      where('createdIn');
      if (text !== '') rule.createdIn = text;
      return;
    case 'tags': {
      where('tags');
      if (text === '') return;
      const tags = jsonCell(reader, ref, text, 'Tags', 'array');
      if (Array.isArray(tags)) {
        if (tags.every((t) => typeof t === 'string')) rule.tags = tags;
        else reader.add(ref, 'Tags must be a JSON array of strings such as ["pricing"]');
      }
      return;
    }
    case 'note':
      where('description');
      rule.description = cellText(cell);
      return;
    case 'auditLog': {
      where('auditLog');
      if (text === '') return;
      const audit = jsonCell(reader, ref, text, 'Audit Log', 'object');
      if (audit !== undefined) rule.auditLog = audit;
    }
  }
}

function readVariables(sheet: ExcelJS.Worksheet | undefined, reader: Reader, rule: Json): void {
  if (!sheet) return;
  const variables: Json[] = [];
  for (let row = 2; row <= sheet.rowCount; row++) {
    const name = reader.text(sheet, row, 1);
    const value = reader.cell(sheet, row, 2);
    if (name === '') {
      if (value !== null) reader.add(located(sheet.name, row, 1), 'a value without a variable name');
      continue;
    }
    reader.where.set(`userVariables[${variables.length}]`, located(sheet.name, row, 1));
    variables.push({ name, value: decodeVariable(value) });
  }
  if (variables.length > 0) rule.userVariables = variables;
}

interface SheetColumn {
  kind: 'input' | 'calc' | 'output';
  /** The Column Alias as the sheet writes it (the document may leave it out, see buildColumn). */
  alias: string;
  column: Json;
  at: number;
}

function readColumns(sheet: ExcelJS.Worksheet, reader: Reader, base: Json | undefined): SheetColumn[] {
  const baseColumns = isObject(base?.decisionTable) && Array.isArray(base.decisionTable.columns) ? base.decisionTable.columns.filter(isObject) : [];
  const baseAliases = columnAliases(baseColumns);
  const byAlias = new Map(baseAliases.map((alias, i) => [alias, i]));
  const columns: SheetColumn[] = [];
  const seen = new Map<string, string>();
  for (let i = 0; ; i++) {
    const at = operatorColumn(i);
    const alias = reader.text(sheet, TABLE_ROWS.alias, at);
    const type = reader.text(sheet, TABLE_ROWS.type, at);
    const title = reader.text(sheet, TABLE_ROWS.title, at);
    const value = reader.text(sheet, TABLE_ROWS.value, at);
    if (alias === '' && type === '' && title === '' && value === '') break;
    const ref = located(sheet.name, TABLE_ROWS.alias, at);
    if (alias === '') reader.add(ref, 'Column Alias is required (letters, digits and "-")');
    else if (!ALIAS.test(alias) || alias.length > 30) reader.add(ref, `Column Alias "${alias}" may contain only letters, digits and "-", at most 30`);
    else if (seen.has(alias)) reader.add(ref, `Column Alias "${alias}" is used twice (also ${seen.get(alias)})`);
    seen.set(alias, ref);
    const kind = COLUMN_TYPES[type.toLowerCase() as SheetColumnType] as SheetColumn['kind'] | undefined;
    if (kind === undefined) {
      reader.add(located(sheet.name, TABLE_ROWS.type, at), `Column Type must be condition, calculation or output (got ${JSON.stringify(type)})`);
      continue;
    }
    const baseIndex = byAlias.get(alias);
    const column = buildColumn(kind, alias, title, value, baseIndex === undefined ? undefined : baseColumns[baseIndex], baseIndex === undefined ? undefined : baseAliases[baseIndex]);
    reader.where.set(`decisionTable.columns[${columns.length}]`, located(sheet.name, TABLE_ROWS.value, at));
    columns.push({ kind, alias, column, at });
  }
  if (columns.length === 0) reader.add(located(sheet.name, TABLE_ROWS.alias, operatorColumn(0)), 'the table has no columns: each column starts with its Column Alias here');
  return columns;
}

function readActive(sheet: ExcelJS.Worksheet, row: number, reader: Reader): boolean {
  const cell = reader.cell(sheet, row, ACTIVE_COLUMN);
  if (typeof cell === 'boolean') return cell;
  const text = cellText(cell).trim().toLowerCase();
  if (text === YES.toLowerCase()) return true;
  if (text === '' || text === NO.toLowerCase()) return false;
  reader.add(located(sheet.name, row, ACTIVE_COLUMN), `Active must be Yes or No (got ${JSON.stringify(cellText(cell))})`);
  return false;
}

function readTimeValidation(sheet: ExcelJS.Worksheet, row: number, reader: Reader): unknown {
  const text = reader.text(sheet, row, TIME_COLUMN);
  if (text === '') return undefined;
  const ref = located(sheet.name, row, TIME_COLUMN);
  const example = '{"from":"2025-01-01 00:00 +00:00","to":"2025-12-31 23:59 +00:00"}';
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) {
    reader.add(ref, `Time Validation must be JSON such as ${example}`);
    return undefined;
  }
  for (const bound of ['from', 'to']) {
    const value = parsed.value[bound];
    if (typeof value === 'string' && value !== '' && !TIME_BOUND.test(value)) {
      reader.add(ref, `Time Validation "${bound}" must read YYYY-MM-DD HH:MM ±HH:MM, its time zone included (got ${JSON.stringify(value)})`);
    }
  }
  return parsed.value;
}

function expressionCell(text: string, operator?: string): Json {
  // The writer's exact form of a stored AST that had no text (see write.ts): taken back as that AST.
  if (text.startsWith('{') && text.includes('"functionName"')) {
    const parsed = parseJson(text);
    if (parsed.ok && isObject(parsed.value) && Object.hasOwn(parsed.value, 'functionName')) {
      return operator === undefined ? { type: 'function', value: parsed.value } : { operator, type: 'function', value: parsed.value };
    }
  }
  return operator === undefined ? { type: 'function', value: text, stringValue: text } : { operator, type: 'function', value: text, stringValue: text };
}

function conditionCell(operatorText: string, value: CellScalar, ref: string, reader: Reader): Json | undefined {
  if (operatorText.toLowerCase() === FUNCTION_OPERATOR) return expressionCell(cellText(value).trim() === '' ? '' : cellText(value), FUNCTION_OPERATOR);
  const isDate = operatorText.toUpperCase().startsWith(DATE_PREFIX);
  const spelled = isDate ? operatorText.slice(DATE_PREFIX.length).trim() : operatorText;
  const operator = normaliseOperator(spelled);
  const spec = operatorSpec(spelled);
  if (operator === undefined || spec === undefined) {
    reader.add(ref, `unknown operator "${operatorText}" (expected one of ${OPERATOR_NAMES.join(', ')}, or DATE and one of them)`);
    return undefined;
  }
  const listed = spec.value === 'set' || spec.value === 'range' || (spec.value === 'text' && typeof value === 'string' && value.trim().startsWith('['));
  const decoded = listed ? decodeList(value) : isDate ? decodeScalarOrObject(value) : decodeScalar(value);
  return { operator, value: decoded, type: isDate ? 'date' : 'general' };
}

function resultCell(kind: 'calc' | 'output', operatorText: string, value: CellScalar, ref: string, reader: Reader): Json | undefined {
  const operator = operatorText.toLowerCase();
  if (operator === FUNCTION_OPERATOR) return expressionCell(cellText(value));
  if (kind === 'calc') {
    reader.add(ref, `a calculation cell uses the function operator (got ${JSON.stringify(operatorText)})`);
    return undefined;
  }
  if (operator !== SIMPLE_VALUE_OPERATOR && operator !== '') {
    reader.add(ref, `a result cell's operator is = (a simple value) or function (got ${JSON.stringify(operatorText)})`);
    return undefined;
  }
  return { type: 'common', value: decodeScalar(value) };
}

function readRows(sheet: ExcelJS.Worksheet, reader: Reader, columns: SheetColumn[]): Json[] {
  const rows: Json[] = [];
  const lastColumn = columns.length === 0 ? TIME_COLUMN : columns[columns.length - 1]!.at + 1;
  for (let r = TABLE_ROWS.firstData; r <= sheet.rowCount; r++) {
    const sheetRow = sheet.getRow(r);
    let used = false;
    sheetRow.eachCell({ includeEmpty: false }, (cell, c) => {
      if (cell.value === null || cell.value === '') return;
      used = true;
      if (c > lastColumn) reader.add(located(sheet.name, r, c), `a value outside the table (its last column is ${cellRef(r, lastColumn).replace(/\d+$/, '')}); add a column with its four header rows, or clear the cell`);
    });
    if (!used) continue;
    const index = rows.length;
    reader.where.set(`decisionTable.rows[${index}]`, located(sheet.name, r, ACTIVE_COLUMN));
    const row: Json = { active: readActive(sheet, r, reader) };
    const time = readTimeValidation(sheet, r, reader);
    if (time !== undefined) {
      row.timeValidation = time;
      reader.where.set(`decisionTable.rows[${index}].timeValidation`, located(sheet.name, r, TIME_COLUMN));
    }
    const cells: Json[] = [];
    for (const { kind, column, at } of columns) {
      const operatorText = reader.text(sheet, r, at);
      const value = reader.cell(sheet, r, at + 1);
      if (operatorText === '' && (value === null || value === '')) continue;
      const operatorRef = located(sheet.name, r, at);
      if (operatorText === '' && kind === 'input') {
        reader.add(operatorRef, 'a value without an operator: pick one from the dropdown');
        continue;
      }
      const stored = kind === 'input' ? conditionCell(operatorText, value, operatorRef, reader) : resultCell(kind, operatorText, value, operatorRef, reader);
      if (stored === undefined) continue;
      const path = `decisionTable.rows[${index}].cells[${cells.length}]`;
      const field = kind === 'input' ? 'scalarCondition' : 'outputScalarValue';
      reader.where.set(path, located(sheet.name, r, at + 1));
      reader.where.set(`${path}.${field}.operator`, operatorRef);
      cells.push({ column: column.columnId, type: kind, [field]: stored });
    }
    row.cells = cells;
    rows.push(row);
  }
  return rows;
}

function readValidValues(sheet: ExcelJS.Worksheet | undefined, reader: Reader, columns: SheetColumn[]): void {
  if (!sheet) return;
  const byAlias = new Map(columns.map((c) => [c.alias, c]));
  for (let c = 1; c <= sheet.columnCount; c++) {
    const alias = reader.text(sheet, 1, c);
    const values: Json[] = [];
    for (let r = 3; r <= sheet.rowCount; r++) {
      const cell = reader.cell(sheet, r, c);
      if (cell === null || cellText(cell).trim() === '') continue;
      const entry = typeof cell === 'string' && cell.trim().startsWith('{') ? parseJson(cell) : undefined;
      values.push(entry?.ok && isObject(entry.value) && typeof entry.value.type === 'string' ? entry.value : validValuesField([cell])[0]!);
    }
    if (alias === '') {
      if (values.length > 0) reader.add(located(sheet.name, 1, c), 'valid values without a Column Alias above them (row 1: the alias, row 2: the column name, then the values)');
      continue;
    }
    const column = byAlias.get(alias);
    if (!column) {
      reader.add(located(sheet.name, 1, c), `no column of the Table sheet has the alias "${alias}" (aliases are case-sensitive)`);
      continue;
    }
    column.column.validValues = values;
  }
}

function sheetNamed(workbook: ExcelJS.Workbook, name: string): ExcelJS.Worksheet | undefined {
  return workbook.worksheets.find((s) => s.name === name) ?? workbook.worksheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
}

/**
 * Reads a workbook. Throws RefusedFileError for a hostile or unreadable file, ValidationError (every problem, each
 * placed on its sheet cell) for a file that does not describe a valid decision table.
 */
export async function readXlsx(bytes: Uint8Array, options: ReadOptions = {}): Promise<ReadResult> {
  const limits = options.limits ?? XLSX_LIMITS;
  inspectArchive(bytes, limits);
  const workbook = new (await excelJS()).Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (err) {
    throw new ValidationError([{ path: '', message: `The file is not a readable XLSX workbook (${(err as Error).message})` }]);
  }
  refuseOversized(workbook, limits);
  const reader = new Reader();
  refuseFormulas(workbook, reader);
  if (reader.problems.length > 0) throw new ValidationError(reader.problems);
  const settings = sheetNamed(workbook, SHEETS.settings);
  const table = sheetNamed(workbook, SHEETS.table);
  const names = workbook.worksheets.map((s) => `"${s.name}"`).join(', ');
  if (!settings || !table) {
    throw new ValidationError([
      ...(settings ? [] : [{ path: SHEETS.settings, message: `the workbook has no sheet "${SHEETS.settings}" (it has ${names}); is it a DecisionRules XLSX v2 export?` }]),
      ...(table ? [] : [{ path: SHEETS.table, message: `the workbook has no sheet "${SHEETS.table}" (it has ${names}); is it a DecisionRules XLSX v2 export?` }]),
    ]);
  }
  const rule: Json = { type: 'decision-table' };
  reader.where.set('', located(settings.name, 1, 1));
  readSettings(settings, reader, rule);
  readVariables(sheetNamed(workbook, SHEETS.variables), reader, rule);
  const columns = readColumns(table, reader, options.base);
  const rows = readRows(table, reader, columns);
  readValidValues(sheetNamed(workbook, SHEETS.validValues), reader, columns);
  rule.decisionTable = { columns: columns.map((c) => c.column), rows };
  if (reader.problems.length > 0) throw new ValidationError(reader.problems);
  const placed = validateRuleDocument(rule).map((p) => ({ path: reader.where.locate(p.path) ?? p.path, message: `${p.message} (${p.path})` }));
  if (placed.length > 0) throw new ValidationError(placed);
  return { document: rule, locate: (path) => reader.where.locate(path) };
}
