// decisionTableNode (zen nodes/decision_table): rows tested top to bottom. A column with a `field` tests each cell
// as a unary test against the field's value (`$`); a column without one takes each cell as a boolean expression.
// Empty cells match anything and write nothing. Hit policy `first` answers the first matching row's outputs (and,
// with `field[]` columns, collects those from every matching row); `collect` answers every matching row's outputs.
// As zen, a cell that fails to evaluate does not match, and a row whose output cell fails is skipped.
import type { JdmDecisionTableNode } from '../../../rules/decision-graph.ts';
import type { ExpressionCompiler, GraphClock, ZenProgram } from '../expressions.ts';
import { runOr } from '../expressions.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from '../node.ts';
import { readTransform, transformed } from '../transform.ts';
import { dotInsert, jsonOf } from '../values.ts';
import { fastUnaryCell } from './table-cells.ts';
import type { Literal } from './table-cells.ts';
import { candidates, indexColumn } from './table-index.ts';
import type { ColumnIndex } from './table-index.ts';

interface InputColumn {
  id: string;
  /** The field's text (trace), the field compiled; undefined: cells are full expressions. */
  fieldText: string | undefined;
  field: ZenProgram | undefined;
}

interface OutputColumn {
  id: string;
  path: string;
  collect: boolean;
}

interface Row {
  index: number;
  /** Tests in column order, only the non-empty cells: a predicate on `$` for the common forms, else ZEN. */
  tests: { column: number; program: ZenProgram | undefined; fast: ((value: unknown) => boolean) | undefined }[];
  outputs: { column: number; program: ZenProgram }[];
  /** The row as written, for the trace. */
  source: Record<string, string>;
}

const FAILED = Symbol('failed');

/** zen's DecisionTableOutputField.write_path: `a.b[]` writes `a.b` and collects. */
function writePath(field: string): { path: string; collect: boolean } {
  const trimmed = field.trim();
  return trimmed.endsWith('[]') ? { path: trimmed.slice(0, -2).trimEnd(), collect: true } : { path: trimmed, collect: false };
}

export function compileDecisionTableNode(node: JdmDecisionTableNode, path: string, compiler: ExpressionCompiler): CompiledNode {
  const content = node.content;
  const contentPath = `${path}.content`;
  const inputs: InputColumn[] = content.inputs.map((input) => {
    const text = input.field == null || input.field.trim() === '' ? undefined : input.field;
    return { id: input.id, fieldText: text, field: text === undefined ? undefined : compiler.compile(text, 'standard', `${contentPath}.inputs[${content.inputs.indexOf(input)}].field`, 'warning') };
  });
  const outputs: OutputColumn[] = content.outputs.map((output) => ({ id: output.id, ...writePath(output.field) }));
  const literalCells: (readonly Literal[] | undefined)[][] = inputs.map(() => new Array(content.rules.length).fill(undefined));
  const rows: Row[] = content.rules.map((rule, index) => {
    const rowPath = `${contentPath}.rules[${index}]`;
    const tests: Row['tests'] = [];
    inputs.forEach((column, c) => {
      const cell = typeof rule[column.id] === 'string' ? rule[column.id].trim() : '';
      if (cell === '') return;
      const fast = column.field ? fastUnaryCell(cell) : undefined;
      if (fast) {
        tests.push({ column: c, program: undefined, fast: fast.test });
        if (fast.literals) literalCells[c][index] = fast.literals;
        return;
      }
      tests.push({ column: c, program: compiler.compile(cell, column.field ? 'unary' : 'standard', `${rowPath}[${JSON.stringify(column.id)}]`, 'warning'), fast: undefined });
    });
    const cells: Row['outputs'] = [];
    outputs.forEach((column, c) => {
      const cell = typeof rule[column.id] === 'string' ? rule[column.id].trim() : '';
      if (cell === '' || column.path === '') return;
      cells.push({ column: c, program: compiler.compile(cell, 'standard', `${rowPath}[${JSON.stringify(column.id)}]`, 'warning') });
    });
    return { index, tests, outputs: cells, source: rule };
  });
  const indexes = inputs.flatMap((column, c) => (column.field ? (indexColumn(c, literalCells[c]) ?? []) : []));
  const shape: TableShape = { inputs, rows, indexes, words: Math.ceil(rows.length / 32) };
  const readsNodes = JSON.stringify(content).includes('$nodes');
  const hasCollectColumns = outputs.some((o) => o.collect);
  const collect = content.hitPolicy === 'collect';

  const base = { id: node.id, name: node.name, type: node.type, readsNodes } as const;

  const handle = (input: unknown, run: NodeRun): NodeOutcome => {
    const table = new TableRun(shape, input, run, readsNodes);
    if (collect) return evaluateCollect(table, rows, outputs, run.trace);
    if (hasCollectColumns) return evaluateFirstCollect(table, rows, outputs, run.trace);
    return evaluateFirst(table, rows, outputs, run.trace);
  };
  return { ...base, async: false, evaluate: transformed(base, readTransform(content, contentPath, compiler), handle) };
}

interface TableShape {
  inputs: readonly InputColumn[];
  rows: readonly Row[];
  indexes: readonly ColumnIndex[];
  /** 32-bit words of a row bitset. */
  words: number;
}

/** One evaluation of a table: its input, the field values (`$` of each column, computed once), zen's locals. */
class TableRun {
  readonly input: unknown;
  readonly clock: GraphClock;
  readonly locals: Record<string, unknown>;
  readonly #inputs: readonly InputColumn[];
  readonly #values: unknown[];
  readonly #rowCount: number;
  /** The rows the column indexes leave to test; undefined: every row. */
  readonly #candidates: Uint32Array | undefined;

  constructor(shape: TableShape, input: unknown, run: NodeRun, readsNodes: boolean) {
    this.#inputs = shape.inputs;
    this.input = input;
    this.clock = run.clock;
    this.locals = readsNodes ? { $: null, $nodes: run.nodes() } : { $: null };
    this.#values = new Array(shape.inputs.length);
    this.#rowCount = shape.rows.length;
    this.#candidates = shape.indexes.length > 0 ? candidates(shape.indexes, shape.words, (c) => this.value(c)) : undefined;
  }

  /** The first row to test at or after `from`, or -1. */
  next(from: number): number {
    const bits = this.#candidates;
    if (!bits) return from < this.#rowCount ? from : -1;
    for (let word = from >> 5; word < bits.length; word++) {
      // The bits of this word at or after `from`.
      const live = word === from >> 5 ? bits[word] & (~0 << (from & 31)) : bits[word];
      if (live !== 0) return (word << 5) + 31 - Math.clz32(live & -live);
    }
    return -1;
  }

  /** The column's field value (zen's set_reference: evaluated once; a failure makes its cells fail). */
  value(column: number): unknown {
    let value = this.#values[column];
    if (value === undefined) {
      value = runOr(this.#inputs[column].field!, this.input, this.locals, this.clock, FAILED);
      this.#values[column] = value ?? null;
    }
    return value;
  }

  matches(row: Row): boolean {
    for (const test of row.tests) {
      const column = this.#inputs[test.column];
      if (column.field) {
        const value = this.value(test.column);
        if (value === FAILED) return false;
        if (test.fast) {
          if (!test.fast(value)) return false;
          continue;
        }
        this.locals.$ = value;
      }
      if (runOr(test.program!, this.input, this.locals, this.clock, false) !== true) return false;
    }
    return true;
  }

  /** The row's output cell value, or FAILED. */
  cell(program: ZenProgram): unknown {
    const value = runOr(program, this.input, this.locals, this.clock, FAILED);
    return value === FAILED ? FAILED : jsonOf(value);
  }

  /** zen's trace of a matching row: the field values it read and the cells it tested. */
  rowTrace(row: Row): unknown {
    const referenceMap: Record<string, unknown> = {};
    const rule: Record<string, string> = { _id: row.source._id ?? '' };
    if (row.source._description !== undefined) rule._description = row.source._description;
    this.#inputs.forEach((column, c) => {
      const cell = row.source[column.id];
      if (cell === undefined || column.fieldText === undefined) return;
      const value = this.value(c);
      if (value !== FAILED) referenceMap[column.fieldText] = jsonOf(value);
      rule[`${column.fieldText}[${column.id}]`] = cell.trim();
    });
    return { index: row.index, referenceMap, rule };
  }
}

/** The row's output object (scalar columns only when `scalars`), or FAILED when an output cell fails. */
function rowOutput(table: TableRun, row: Row, outputs: readonly OutputColumn[]): Record<string, unknown> | typeof FAILED {
  const out: Record<string, unknown> = {};
  for (const cell of row.outputs) {
    const value = table.cell(cell.program);
    if (value === FAILED) return FAILED;
    dotInsert(out, outputs[cell.column].path, value);
  }
  return out;
}

function evaluateFirst(table: TableRun, rows: readonly Row[], outputs: readonly OutputColumn[], trace: boolean): NodeOutcome {
  for (let r = table.next(0); r >= 0; r = table.next(r + 1)) {
    const row = rows[r];
    if (!table.matches(row)) continue;
    const output = rowOutput(table, row, outputs);
    if (output === FAILED) continue;
    return trace ? { output, traceData: table.rowTrace(row) } : { output };
  }
  return { output: null };
}

function evaluateCollect(table: TableRun, rows: readonly Row[], outputs: readonly OutputColumn[], trace: boolean): NodeOutcome {
  const answers: unknown[] = [];
  const traces: unknown[] = [];
  for (let r = table.next(0); r >= 0; r = table.next(r + 1)) {
    const row = rows[r];
    if (!table.matches(row)) continue;
    const output = rowOutput(table, row, outputs);
    if (output === FAILED) continue;
    answers.push(output);
    if (trace) traces.push(table.rowTrace(row));
  }
  return trace ? { output: answers, traceData: traces } : { output: answers };
}

/** Hit policy first with `field[]` columns: the first match's scalars, every match's collected values. */
function evaluateFirstCollect(table: TableRun, rows: readonly Row[], outputs: readonly OutputColumn[], trace: boolean): NodeOutcome {
  let scalars: Record<string, unknown> | undefined;
  const collected: unknown[][] = outputs.map(() => []);
  const traces: unknown[] = [];
  let matched = false;
  for (let r = table.next(0); r >= 0; r = table.next(r + 1)) {
    const row = rows[r];
    if (!table.matches(row)) continue;
    const includeScalars = scalars === undefined;
    const rowScalars: Record<string, unknown> | undefined = includeScalars ? {} : undefined;
    const rowCollects: [number, unknown][] = [];
    let failed = false;
    for (const cell of row.outputs) {
      const column = outputs[cell.column];
      if (!column.collect && !includeScalars) continue;
      const value = table.cell(cell.program);
      if (value === FAILED) {
        failed = true;
        break;
      }
      if (column.collect) rowCollects.push([cell.column, value]);
      else dotInsert(rowScalars!, column.path, value);
    }
    if (failed) continue;
    matched = true;
    if (rowScalars) scalars = rowScalars;
    for (const [column, value] of rowCollects) collected[column].push(value);
    if (trace) traces.push(table.rowTrace(row));
  }
  if (!matched) return { output: null };
  const output = scalars ?? {};
  outputs.forEach((column, c) => {
    if (column.collect && column.path !== '') dotInsert(output, column.path, collected[c]);
  });
  return trace ? { output, traceData: traces } : { output };
}
