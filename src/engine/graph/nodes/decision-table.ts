// decisionTableNode (zen nodes/decision_table): rows tested top to bottom. A column with a `field` tests each cell
// as a unary test against the field's value (`$`); a column without one takes each cell as a boolean expression.
// Empty cells match anything and write nothing. Hit policy `first` answers the first matching row's outputs (and,
// with `field[]` columns, collects those from every matching row); `collect` answers every matching row's outputs.
// As zen, a cell that fails to evaluate does not match, and a row whose output cell fails is skipped.
import type { JdmDecisionTableNode } from '../../../rules/decision-graph.ts';
import type { ExpressionCompiler, GraphClock, ZenProgram } from '../expressions.ts';
import { runOr } from '../expressions.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from '../node.ts';
import { mergesInPlace, readTransform, transformed } from '../transform.ts';
import { dotInsert, dotPath, insertFresh, isObject, jsonOf, prefixFree } from '../values.ts';
import type { DotPath } from '../values.ts';
import { fastUnaryCell } from './table-cells.ts';
import type { Literal } from './table-cells.ts';
import { CandidateRows, groupColumn, indexColumn, literalCandidates } from './table-index.ts';
import type { ColumnIndex, GroupIndex } from './table-index.ts';

interface InputColumn {
  id: string;
  /** The field's text (trace), the field compiled; undefined: cells are full expressions. */
  fieldText: string | undefined;
  field: ZenProgram | undefined;
}

interface OutputColumn {
  id: string;
  path: string;
  /** `path` split once for the writes. */
  at: DotPath;
  collect: boolean;
}

/** One non-empty input cell: a predicate on `$` for the common forms, else ZEN (`memo` >= 0: a repeated cell). */
interface CellTest {
  column: number;
  program: ZenProgram | undefined;
  fast: ((value: unknown) => boolean) | undefined;
  memo: number;
}

interface Row {
  index: number;
  /** Tests in column order, only the non-empty cells. */
  allTests: CellTest[];
  /** allTests without the columns a group index answers for: the tests of a row reached through the index. */
  tests: CellTest[];
  outputs: { column: number; program: ZenProgram }[];
  /** The output paths of the row are prefixFree: its output object is built with insertFresh. */
  fresh: boolean;
  /** A fresh row with literal cells: its output object with those written (made once), and the other cells. */
  template: Template | undefined;
  varying: { column: number; program: ZenProgram }[];
  /** The row as written, for the trace. */
  source: Record<string, string>;
}

const FAILED = Symbol('failed');

/** zen's DecisionTableOutputField.write_path: `a.b[]` writes `a.b` and collects. */
function writePath(field: string): { path: string; at: DotPath; collect: boolean } {
  const trimmed = field.trim();
  const path = trimmed.endsWith('[]') ? trimmed.slice(0, -2).trimEnd() : trimmed;
  return { path, at: dotPath(path), collect: path !== trimmed };
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
  const memo = memoSlots(content.rules, inputs);
  const rows: Row[] = content.rules.map((rule, index) => {
    const rowPath = `${contentPath}.rules[${index}]`;
    const tests: Row['tests'] = [];
    inputs.forEach((column, c) => {
      const cell = typeof rule[column.id] === 'string' ? rule[column.id].trim() : '';
      if (cell === '') return;
      const fast = column.field ? fastUnaryCell(cell) : undefined;
      if (fast) {
        tests.push({ column: c, program: undefined, fast: fast.test, memo: -1 });
        if (fast.literals) literalCells[c][index] = fast.literals;
        return;
      }
      const slot = column.field ? memo.slots[c].get(cell) : undefined;
      if (slot) {
        // A repeated cell is compiled once; its answer is kept for the solve in slot.index.
        slot.program ??= compiler.compile(cell, 'unary', `${rowPath}[${JSON.stringify(column.id)}]`, 'warning');
        tests.push({ column: c, program: slot.program, fast: undefined, memo: slot.index });
        return;
      }
      tests.push({ column: c, program: compiler.compile(cell, column.field ? 'unary' : 'standard', `${rowPath}[${JSON.stringify(column.id)}]`, 'warning'), fast: undefined, memo: -1 });
    });
    const cells: Row['outputs'] = [];
    outputs.forEach((column, c) => {
      const cell = typeof rule[column.id] === 'string' ? rule[column.id].trim() : '';
      if (cell === '' || column.path === '') return;
      cells.push({ column: c, program: compiler.compile(cell, 'standard', `${rowPath}[${JSON.stringify(column.id)}]`, 'warning') });
    });
    const fresh = prefixFree(cells.map((cell) => outputs[cell.column].path));
    const template = fresh && cells.some((cell) => cell.program.constant) ? templateOf(cells, outputs) : undefined;
    const varying = template ? cells.filter((cell) => !cell.program.constant) : cells;
    return { index, allTests: tests, tests, outputs: cells, fresh, template, varying, source: rule };
  });
  const indexes = inputs.flatMap((column, c) => (column.field ? (indexColumn(c, literalCells[c]) ?? []) : []));
  const groups = groupIndexes(content.rules, inputs, rows, indexes);
  const shape: TableShape = { inputs, rows, indexes, groups, words: Math.ceil(rows.length / 32), memoSlots: memo.count };
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
  const transform = readTransform(content, contentPath, compiler);
  return { ...base, async: false, mergesInPlace: mergesInPlace(transform, content), evaluate: transformed(base, transform, handle) };
}

interface TableShape {
  inputs: readonly InputColumn[];
  rows: readonly Row[];
  indexes: readonly ColumnIndex[];
  groups: readonly GroupIndex<CellTest>[];
  /** 32-bit words of a row bitset. */
  words: number;
  /** Repeated unary cells whose answers a solve keeps (memoSlots). */
  memoSlots: number;
}

/**
 * Group indexes (./table-index.ts) of the field columns a literal index does not cover. A candidate row passes the
 * grouped columns' cells, so their tests leave the rows (`rows` is changed in place).
 */
function groupIndexes(rules: readonly Record<string, string>[], inputs: readonly InputColumn[], rows: Row[], literal: readonly ColumnIndex[]): GroupIndex<CellTest>[] {
  const grouped: GroupIndex<CellTest>[] = [];
  inputs.forEach((column, c) => {
    if (!column.field || literal.some((index) => index.column === c)) return;
    const cells = rules.map((rule) => (typeof rule[column.id] === 'string' ? rule[column.id].trim() : ''));
    const index = groupColumn(c, cells, (row) => rows[row].tests.find((test) => test.column === c)!);
    if (index) grouped.push(index);
  });
  if (grouped.length > 0) {
    for (const row of rows) row.tests = row.tests.filter((test) => !grouped.some((index) => index.column === test.column));
  }
  return grouped;
}

interface MemoSlot {
  index: number;
  program: ZenProgram | undefined;
}

/**
 * The unary cells that repeat within a column (zen's 8k table has the same `endsWith($, '@gmail.com')` in 7,989
 * rows): each distinct text gets a slot, so a solve runs it once and reads its answer in every other row. A cell
 * answers the same in every row of one table run (same `$`, same input, same `$nodes`, the solve's pinned instant),
 * except one calling rand(), which is left out. Cells of the common forms are plain predicates already.
 */
function memoSlots(rules: readonly Record<string, string>[], inputs: readonly InputColumn[]): { slots: Map<string, MemoSlot>[]; count: number } {
  let count = 0;
  const slots = inputs.map((column) => {
    const seen = new Map<string, number>();
    if (column.field) {
      for (const rule of rules) {
        const cell = typeof rule[column.id] === 'string' ? rule[column.id].trim() : '';
        if (cell !== '' && !cell.includes('rand')) seen.set(cell, (seen.get(cell) ?? 0) + 1);
      }
    }
    const columnSlots = new Map<string, MemoSlot>();
    for (const [cell, times] of seen) if (times > 1 && !fastUnaryCell(cell)) columnSlots.set(cell, { index: count++, program: undefined });
    return columnSlots;
  });
  return { slots, count };
}

/** One evaluation of a table: its input, the field values (`$` of each column, computed once), zen's locals. */
class TableRun {
  readonly input: unknown;
  readonly clock: GraphClock;
  readonly locals: Record<string, unknown>;
  readonly #inputs: readonly InputColumn[];
  readonly #values: unknown[];
  readonly #rowCount: number;
  /** The table, when it has column indexes; the rows they leave to test, once past the first 32 rows. */
  readonly #indexed: TableShape | undefined;
  #candidates: CandidateRows | undefined;
  /** The candidate word `next` worked out last, and its bits. */
  #word = -1;
  #bits = 0;
  /** Answers of the repeated cells so far: 0 not run yet, 1 matched, 2 did not. */
  readonly #memo: Uint8Array | undefined;

  constructor(shape: TableShape, input: unknown, run: NodeRun, readsNodes: boolean) {
    this.#inputs = shape.inputs;
    this.input = input;
    this.clock = run.clock;
    this.locals = readsNodes ? { $: null, $nodes: run.nodes() } : { $: null };
    this.#values = new Array(shape.inputs.length);
    this.#rowCount = shape.rows.length;
    this.#memo = shape.memoSlots > 0 ? new Uint8Array(shape.memoSlots) : undefined;
    this.#indexed = shape.indexes.length + shape.groups.length > 0 ? shape : undefined;
  }

  /** Per indexed column, the bitsets of the rows it leaves for this run's values. */
  #constraints(shape: TableShape): Uint32Array[][] {
    const columns = shape.indexes.map((index) => literalCandidates(index, this.value(index.column)));
    for (const index of shape.groups) {
      const left = [index.fallback];
      for (const group of index.groups) if (this.passes(group.test)) left.push(group.rows);
      columns.push(left);
    }
    return columns;
  }

  /** The first row to test at or after `from`, or -1. */
  next(from: number): number {
    const indexed = this.#indexed;
    // The first word's rows are tested one by one with all their cells (Row.allTests): a table matching there
    // (zen's 8k table, row 1) pays nothing for its index.
    if (!indexed || from < 32) return from < this.#rowCount ? from : -1;
    const rows = (this.#candidates ??= new CandidateRows(this.#constraints(indexed), indexed.words));
    for (let word = from >> 5; word < rows.words; word++) {
      // The bits of this word at or after `from` (the word last worked out is kept: rows that fail come back here).
      if (word !== this.#word) {
        this.#word = word;
        this.#bits = rows.word(word);
      }
      const live = word === from >> 5 ? this.#bits & (~0 << (from & 31)) : this.#bits;
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
    for (const test of row.index < 32 ? row.allTests : row.tests) if (!this.passes(test)) return false;
    return true;
  }

  /** Whether the row's cell `test` passes in this run. */
  passes(test: CellTest): boolean {
    if (this.#inputs[test.column].field) {
      const value = this.value(test.column);
      if (value === FAILED) return false;
      if (test.fast) return test.fast(value);
      this.locals.$ = value;
      if (test.memo >= 0) {
        const memo = this.#memo!;
        if (memo[test.memo] === 0) memo[test.memo] = runOr(test.program!, this.input, this.locals, this.clock, false) === true ? 1 : 2;
        return memo[test.memo] === 1;
      }
    }
    return runOr(test.program!, this.input, this.locals, this.clock, false) === true;
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
    // `reference_map`: zen serialises its Rust field name as is.
    return { index: row.index, reference_map: referenceMap, rule };
  }
}

/**
 * A row's output object as its literal cells write it (the other cells' places held by null, so that keys keep
 * the order of the columns), and its nested objects: each solve copies it (`instantiate`) instead of writing
 * every literal key by key. Only prefixFree rows have one: every object in it was made by the writes.
 */
interface Template {
  object: Record<string, unknown>;
  nested: [string, Template][];
}

function templateOf(cells: Row['outputs'], outputs: readonly OutputColumn[]): Template {
  const object: Record<string, unknown> = {};
  for (const cell of cells) insertFresh(object, outputs[cell.column].at, cell.program.constant ? cell.program.run(null, undefined, NO_CLOCK) : null);
  const nest = (o: Record<string, unknown>): Template => ({ object: o, nested: Object.entries(o).flatMap(([k, v]) => (isObject(v) ? [[k, nest(v)] as [string, Template]] : [])) });
  return nest(object);
}

/** Literals read no clock. */
const NO_CLOCK: GraphClock = { now: 0, random: () => 0 };

function instantiate(template: Template): Record<string, unknown> {
  const out = { ...template.object };
  for (const [key, nested] of template.nested) out[key] = instantiate(nested);
  return out;
}

/** The row's output object (scalar columns only when `scalars`), or FAILED when an output cell fails. */
function rowOutput(table: TableRun, row: Row, outputs: readonly OutputColumn[]): Record<string, unknown> | typeof FAILED {
  if (row.template) {
    const varying = row.varying;
    if (varying.length === 0) return instantiate(row.template);
    const values: unknown[] = [];
    for (const cell of varying) {
      const value = table.cell(cell.program);
      if (value === FAILED) return FAILED;
      values.push(value);
    }
    const out = instantiate(row.template);
    for (let i = 0; i < varying.length; i++) insertFresh(out, outputs[varying[i].column].at, values[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  if (row.fresh) {
    for (const cell of row.outputs) {
      const value = table.cell(cell.program);
      if (value === FAILED) return FAILED;
      insertFresh(out, outputs[cell.column].at, value);
    }
    return out;
  }
  // The objects made on the way are this row's alone until it is answered: written in place, not copied per cell.
  const owned: object[] = [];
  for (const cell of row.outputs) {
    const value = table.cell(cell.program);
    if (value === FAILED) return FAILED;
    dotInsert(out, outputs[cell.column].at, value, owned);
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
      else dotInsert(rowScalars!, column.at, value);
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
    if (column.collect && column.path !== '') dotInsert(output, column.at, collected[c]);
  });
  return trace ? { output, traceData: traces } : { output };
}
