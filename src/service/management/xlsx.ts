// Decision tables to and from DecisionRules XLSX v2 files (docs/xlsx.md): export a stored version, import a file
// as a new rule or a new version (through the same create / new-version paths as JSON, so the same checks and
// history apply), or read it without storing (the Studio's "into the open draft"). Every problem of a file is
// placed on its sheet cell (`Table!D7`), also those the compiler finds after reading.
import { ValidationError } from '../../engine/errors.ts';
import type { Problem } from '../../engine/errors.ts';
import { expressionText } from '../../engine/expression/stored-text.ts';
import { CannotWriteError, NotATableError, RefusedFileError, readXlsx, writeXlsx } from '../../formats/xlsx/index.ts';
import type { ReadResult } from '../../formats/xlsx/index.ts';
import { ServiceError } from '../errors.ts';
import type { VersionedDocument, WriteOptions } from './context.ts';
import { isObject } from './documents.ts';
import type { RuleDocument } from './documents.ts';
import type { RuleManagement } from './rules.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface XlsxFile {
  bytes: Buffer;
  /** `<alias>-v<version>.xlsx`. */
  filename: string;
}

function refused(err: unknown): never {
  if (err instanceof RefusedFileError) throw new ServiceError('invalid-spreadsheet', err.message);
  if (err instanceof ValidationError) throw new ServiceError('invalid-spreadsheet', err.message, { problems: err.problems });
  throw err;
}

/** Function cells that only hold a stored AST get their text, so the sheet shows `SUM({a},1)`, not JSON. */
export function withExpressionTexts(document: RuleDocument): RuleDocument {
  const table = document.decisionTable;
  if (!isObject(table) || !Array.isArray(table.rows)) return document;
  const rows = table.rows.map((row) => {
    if (!isObject(row) || !Array.isArray(row.cells)) return row;
    const cells = row.cells.map((cell) => {
      if (!isObject(cell)) return cell;
      const field = isObject(cell.scalarCondition) ? 'scalarCondition' : 'outputScalarValue';
      const stored = cell[field];
      if (!isObject(stored) || typeof stored.stringValue === 'string') return cell;
      const isExpression = stored.type === 'function' || stored.operator === 'function' || (isObject(stored.value) && Object.hasOwn(stored.value, 'functionName'));
      return isExpression ? { ...cell, [field]: { ...stored, stringValue: expressionText(stored) } } : cell;
    });
    return { ...row, cells };
  });
  return { ...document, decisionTable: { ...table, rows } };
}

/** The workbook of a decision table document; another rule type is a 400 naming its type. */
export async function tableToXlsx(document: RuleDocument): Promise<Buffer> {
  try {
    return await writeXlsx(withExpressionTexts(document));
  } catch (err) {
    if (err instanceof NotATableError) throw new ServiceError('not-a-decision-table', err.message);
    if (err instanceof CannotWriteError) throw new ServiceError('bad-request', err.message);
    throw err;
  }
}

/** Reads a workbook; a refused or invalid file is `invalid-spreadsheet` with every problem placed on its cell. */
export async function xlsxToTable(bytes: Uint8Array, base?: RuleDocument): Promise<ReadResult> {
  try {
    return await readXlsx(bytes, { base });
  } catch (err) {
    return refused(err);
  }
}

/** A problem's path as the sheet cell it came from (the document path kept in brackets), when there is one. */
function onCell(read: ReadResult, problem: Problem): Problem {
  const cell = read.locate(problem.path);
  return cell === undefined ? problem : { path: cell, message: `${problem.message} (${problem.path})` };
}

/** A write's problems, and the warnings of a write that succeeds (valid values), placed on their cells. */
async function placed(read: ReadResult, write: () => Promise<VersionedDocument>): Promise<VersionedDocument> {
  try {
    const written = await write();
    return written.warnings === undefined ? written : { ...written, warnings: written.warnings.map((w) => onCell(read, w)) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const problems = err.problems.map((p) => onCell(read, p));
    throw new ServiceError('invalid-spreadsheet', new ValidationError(problems).message, { problems });
  }
}

export class XlsxManagement {
  readonly #rules: RuleManagement;

  constructor(rules: RuleManagement) {
    this.#rules = rules;
  }

  async export(space: string, idOrAlias: string, version: number | undefined): Promise<XlsxFile> {
    const { document } = await this.#rules.get(space, idOrAlias, version);
    const bytes = await tableToXlsx(document);
    const name = String(document.ruleAlias || document.ruleId);
    return { bytes, filename: `${name}-v${String(document.version)}.xlsx` };
  }

  /** A new rule from the file (its alias and id kept when free, as POST /api/rule). */
  async importRule(space: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<VersionedDocument> {
    const read = await xlsxToTable(bytes);
    return placed(read, () => this.#rules.create(space, read.document, undefined, options));
  }

  /** A new version of a decision table from the file: columns found by alias keep their ids. */
  async importVersion(space: string, idOrAlias: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<VersionedDocument> {
    const base = await this.#tableBase(space, idOrAlias);
    const read = await xlsxToTable(bytes, base);
    return placed(read, () => this.#rules.newVersion(space, idOrAlias, read.document, options));
  }

  /** The rule the file describes, stored nowhere; with `idOrAlias`, columns found by alias keep that rule's ids. */
  async read(space: string, bytes: Uint8Array, idOrAlias?: string): Promise<RuleDocument> {
    const base = idOrAlias === undefined ? undefined : await this.#tableBase(space, idOrAlias);
    return (await xlsxToTable(bytes, base)).document;
  }

  async #tableBase(space: string, idOrAlias: string): Promise<RuleDocument> {
    const { document } = await this.#rules.get(space, idOrAlias, undefined);
    if (document.type !== 'decision-table') {
      throw new ServiceError('not-a-decision-table', `Rule "${idOrAlias}" is a ${String(document.type)}; only decision tables can be imported from XLSX`);
    }
    return document;
  }
}
