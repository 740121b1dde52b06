// The solve loop of a compiled decision table (§2.5, §3.2, §3.5, §10.1).
//
// Rows whose cells are all constants ("fast" rows) are matched against left operands read once per solve and
// emit prebuilt constant values; other rows run their cells in column order against a RuleScope, so calc
// variables and earlier outputs are visible to the columns on their right. Nothing right of a failed condition
// runs, except under EVALUATE_ALL, which evaluates every cell of every active row.
//
// The loop is written once: a cell answers directly, or with a promise when it waits (engine/maybe-promise.ts);
// the loop then continues from the next cell, or the next row, once the promise settles.
import type { Problem } from '../errors.ts';
import { checkDeadline } from '../deadline.ts';
import type { ColumnInput, CompiledRule, EvaluationContext, Json, RuleRef, SolveResult, Strategy } from '../types.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import { getBelow, parsePath } from '../path.ts';
import type { RuleIdentity } from '../rule-identity.ts';
import { frozenJson } from '../cells/output-layout.ts';
import { RowObjects, rowsWritingObjects } from './row-objects.ts';
import type { OutputLayout, SlotValues } from '../cells/output-layout.ts';
import { anythingCondition, type ConditionExplanation } from '../cells/condition.ts';
import { RuleScope } from '../cells/scope.ts';
import type { GroupTester, TableIndex } from './column-index.ts';
import { STEP_CALC, STEP_CONDITION, type ComparisonGroup, type ConditionColumn, type ConditionStep, type TableRow, type TableStep } from './steps.ts';
import { compareFinite } from '../expression/index.ts';

export interface ConditionTraceEntry {
  columnId: string;
  inputProperty: string;
  inputValue: unknown;
  evaluationResult: boolean;
  operator: string;
  value: unknown;
  evaluationError?: string;
  /** Present (true) when includedConditionCols / excludedConditionCols switched the column off. */
  skipped?: boolean;
}

export interface RowTraceEntry {
  rowNumber: number;
  conditions: ConditionTraceEntry[];
  evaluationResult: boolean;
}

export interface DecisionTableParts extends RuleIdentity {
  readonly conditionColumns: readonly ConditionColumn[];
  readonly calcCount: number;
  readonly calcIndex: ReadonlyMap<string, number>;
  readonly layout: OutputLayout;
  readonly rows: readonly TableRow[];
  readonly index: TableIndex | undefined;
  readonly variables: ReadonlyMap<string, unknown>;
  readonly dependencies: readonly RuleRef[];
  /** Memo slots of repeatable function cells (ConditionStep.memo). */
  readonly memoCount: number;
  /** Slots of subexpressions shared by the function cells within one solve (expression/per-solve.ts). */
  readonly perSolveCount?: number;
  /** Memoised cells comparing one shared value with constants, set together (TableScope.prefill). */
  readonly comparisons?: readonly ComparisonGroup[];
  /** Function cells that did not compile (CompiledRule.warnings). */
  readonly warnings?: readonly Problem[];
  /** Zone the date cells were compiled with (read by the static analysis, engine/analysis). */
  readonly timeZone?: string;
}

/** What the static analysis (engine/analysis) reads of a compiled table: nothing here is used to evaluate. */
export interface TableStructure {
  readonly conditionColumns: readonly ConditionColumn[];
  /** Active rows in document order (inactive rows are not compiled). */
  readonly rows: readonly TableRow[];
  readonly timeZone: string;
}

const NO_MEMO: (boolean | undefined)[] = [];

/**
 * The scope of one table solve. It also remembers the outcome of each repeatable function cell (a cell whose
 * value cannot differ between rows of one solve), so that such a cell runs at most once per solve, whether the
 * index or a row asks first.
 */
class TableScope extends RuleScope implements GroupTester {
  /** Outcome by memo slot; undefined = not evaluated yet in this solve. */
  private readonly memo: (boolean | undefined)[];
  private readonly ctx: EvaluationContext;
  /** Scope.perSolve: the values of the shared subexpressions, filled as the cells first ask for them. */
  readonly perSolve: unknown[] | undefined;
  /** The trace of the conditions of the row being run (tracing only). */
  rowTrace: ConditionTraceEntry[] | undefined = undefined;

  constructor(
    input: unknown,
    variables: ReadonlyMap<string, unknown>,
    layout: OutputLayout,
    calcIndex: ReadonlyMap<string, number>,
    blankMemo: readonly (boolean | undefined)[],
    blankPerSolve: readonly unknown[] | undefined,
    ctx: EvaluationContext,
  ) {
    super(input, variables, layout, calcIndex);
    this.memo = blankMemo.length === 0 ? NO_MEMO : blankMemo.slice();
    this.perSolve = blankPerSolve?.slice();
    this.ctx = ctx;
  }

  /**
   * Sets the outcome of each group's cells from one evaluation of the value they compare (a finite number:
   * `v >= c` is then exactly what the cell answers, constant-operand.ts). Any other value: the cells run as usual.
   */
  prefill(groups: readonly ComparisonGroup[]): void {
    const memo = this.memo;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      const v = group.expression.comparedOperand!(this, this.ctx);
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const cells = group.cells;
      for (let i = 0; i < cells.length; i++) {
        const cell = cells[i]!;
        memo[cell.memo] = compareFinite(cell.name, v, cell.constant);
      }
    }
  }

  /** True when the memoised cell in `slot` has been evaluated in this solve and failed. */
  failed(slot: number): boolean {
    return this.memo[slot] === false;
  }

  passes(cell: ConditionStep): boolean {
    const slot = cell.memo;
    let known = this.memo[slot];
    if (known === undefined) {
      // Memoised cells are function cells that never wait (table/compile.ts isRepeatable).
      known = cell.condition.matches!(this, this.ctx);
      this.memo[slot] = known;
    }
    return known;
  }
}

const NO_ROWS: readonly number[] = [];

/**
 * One solve of a table: what every row reads (left operands, switched-off columns, the scope), the rows to visit,
 * and the response being collected in the shape of the strategy (SPEC 3.1). It is also the parameter object of
 * the row steps, and what a solve that waits carries from one row (or cell) to the next.
 */
class TableSolve {
  readonly input: unknown;
  readonly ctx: EvaluationContext;
  readonly lefts: unknown[];
  readonly skip: boolean[] | undefined;
  readonly trace: RowTraceEntry[] | undefined;
  order: readonly number[] = NO_ROWS;
  /** Made on the first row that runs its cells (or before the index asks a repeatable function cell). */
  scope: TableScope | undefined = undefined;
  anyMatched = false;
  private readonly strategy: Strategy;
  private readonly layout: OutputLayout;
  private readonly list: Json[] = [];
  private arrayRows: SlotValues[] | undefined;
  private arrayClone: boolean[] | undefined;

  constructor(input: unknown, ctx: EvaluationContext, lefts: unknown[], skip: boolean[] | undefined, layout: OutputLayout) {
    this.input = input;
    this.ctx = ctx;
    this.lefts = lefts;
    this.skip = skip;
    this.strategy = ctx.strategy;
    this.trace = ctx.trace ? [] : undefined;
    this.layout = layout;
  }

  /** Records the output object of a matching row (STANDARD or FIRST_MATCH); true when evaluation can stop. */
  addObject(out: Record<string, unknown>): boolean {
    this.list.push(out as Json);
    return this.strategy === 'FIRST_MATCH';
  }

  /** Records one evaluated row; true when evaluation can stop (FIRST_MATCH found its row). */
  add(values: SlotValues, clone: boolean, matched: boolean): boolean {
    switch (this.strategy) {
      case 'STANDARD':
        if (matched) this.list.push(this.layout.build(values, clone) as Json);
        return false;
      case 'FIRST_MATCH':
        if (!matched) return false;
        this.list.push(this.layout.build(values, clone) as Json);
        return true;
      case 'ARRAY':
        if (matched) {
          (this.arrayRows ??= []).push(values);
          (this.arrayClone ??= []).push(clone);
        }
        return false;
      case 'EVALUATE_ALL': {
        const out = this.layout.build(values, clone);
        out._match = matched;
        this.list.push(out as Json);
        return false;
      }
    }
  }

  finish(): SolveResult {
    const result = this.strategy === 'ARRAY' ? [this.layout.buildArrays(this.arrayRows ?? [], this.arrayClone) as Json] : this.list;
    return this.trace === undefined ? { result } : { result, trace: this.trace };
  }
}


export class DecisionTable implements CompiledRule {
  readonly type = 'decision-table' as const;
  readonly ruleId: string | undefined;
  readonly ruleAlias: string | undefined;
  readonly version: number | undefined;
  readonly name: string;
  readonly async: boolean;
  readonly dependencies: readonly RuleRef[];
  readonly warnings: readonly Problem[];
  private readonly columns: readonly ConditionColumn[];
  private readonly calcCount: number;
  private readonly calcIndex: ReadonlyMap<string, number>;
  private readonly layout: OutputLayout;
  private readonly rows: readonly TableRow[];
  private readonly allRows: readonly number[];
  private readonly index: TableIndex | undefined;
  private readonly variables: ReadonlyMap<string, unknown>;
  private readonly inputColumns: readonly ConditionColumn[];
  /** inputColumns whose left operand an untraced solve of an unindexed table reads (untracedLefts). */
  private readonly readColumns: readonly ConditionColumn[];
  private readonly perSolveCount: number;
  private readonly comparisons: readonly ComparisonGroup[];
  private readonly blankMemo: readonly (boolean | undefined)[];
  private readonly blankPerSolve: readonly unknown[] | undefined;
  private readonly blankOutputs: readonly unknown[];
  /** By row index: the rows that write straight into their output objects (row-objects.ts); undefined: none. */
  private readonly writesObjects: readonly boolean[] | undefined;
  private readonly rowObjects: RowObjects | undefined;
  private readonly timeZone: string;
  /** The index asks repeatable function cells: a solve then needs its scope before the first row. */
  private readonly indexEvaluates: boolean;
  readonly columnInput: ColumnInput | undefined;
  /** ColumnInput.firstMatch: each fast row's output object, built and frozen on the row's first match. */
  private readonly sharedOutputs: (Json | undefined)[];

  constructor(parts: DecisionTableParts) {
    this.ruleId = parts.ruleId;
    this.ruleAlias = parts.ruleAlias;
    this.version = parts.version;
    this.name = parts.name;
    this.columns = parts.conditionColumns;
    this.calcCount = parts.calcCount;
    this.calcIndex = parts.calcIndex;
    this.layout = parts.layout;
    this.rows = parts.rows;
    this.allRows = parts.rows.map((_, i) => i);
    this.index = parts.index;
    this.variables = parts.variables;
    this.dependencies = parts.dependencies;
    this.warnings = parts.warnings ?? [];
    this.async = parts.rows.some((row) => row.async);
    this.inputColumns = parts.conditionColumns.filter((column) => column.left.kind !== 'calc');
    this.readColumns = this.index === undefined ? untracedLefts(this.inputColumns, parts.rows) : this.inputColumns;
    this.perSolveCount = parts.perSolveCount ?? 0;
    this.comparisons = parts.comparisons ?? [];
    this.blankMemo = blankArray(parts.memoCount);
    this.blankPerSolve = this.perSolveCount === 0 ? undefined : blankArray(this.perSolveCount);
    this.blankOutputs = blankArray(this.layout.slotCount);
    this.writesObjects = rowsWritingObjects(parts.rows, this.layout.shape, this.layout.leaves);
    this.rowObjects = this.writesObjects === undefined ? undefined : new RowObjects(this.layout.shape!);
    this.timeZone = parts.timeZone ?? 'UTC';
    this.indexEvaluates = parts.index?.hasGroups ?? false;
    this.sharedOutputs = [];
    this.columnInput = this.columnsOnly();
  }

  /**
   * CompiledRule.columnInput: when every row is fast (constant cells only) and no column reads a calc variable,
   * an untraced solve reads the input only through its input columns, and never puts the input in its answer.
   */
  private columnsOnly(): ColumnInput | undefined {
    if (this.indexEvaluates || !this.rows.every((row) => row.fast) || this.columns.some((column) => column.left.kind === 'calc')) return undefined;
    const read = this.columns.filter((column) => column.left.kind === 'input');
    const paths = read.map((column) => parsePath(column.path));
    if (paths.some((path) => path.length === 0 || path.some((segment) => typeof segment !== 'string'))) return undefined;
    const readAt = read.map((column) => column.condIndex);
    // The values are the left operands themselves when every column reads the input, in column order.
    const direct = readAt.length === this.columns.length && readAt.every((condIndex, i) => condIndex === i);
    return {
      paths: paths as string[][],
      evaluateColumns: (values, ctx) => this.evaluateColumns(readAt, values, ctx),
      firstMatch: (values, ctx) => this.firstMatch(direct ? values : this.columnLefts(readAt, values), ctx),
    };
  }

  /** The left operands of a solve from the values of the input columns (readAt: their condition indexes). */
  private columnLefts(readAt: readonly number[], values: readonly unknown[]): unknown[] {
    // The columns bound to rule variables first (readLefts gives them no input), then the values given.
    const lefts = this.readLefts(undefined);
    for (let i = 0; i < readAt.length; i++) lefts[readAt[i]!] = values[i];
    return lefts;
  }

  /**
   * ColumnInput.firstMatch: the rows visitRows would visit for an untraced FIRST_MATCH solve without switched-off
   * columns, stopping at the first match, whose constant output is built once and then shared (frozen).
   */
  private firstMatch(lefts: readonly unknown[], ctx: EvaluationContext): Json | undefined {
    const order = this.index === undefined ? this.allRows : (this.index.candidates(lefts, undefined) ?? this.allRows);
    const rows = this.rows;
    for (let i = 0; i < order.length; i++) {
      const at = order[i]!;
      const row = rows[at]!;
      // `now` only for a row with a time window: a solve that never looks at it reads no clock (SolveInstant).
      if (row.window !== undefined && !row.window.contains(ctx.now)) continue;
      // No earlier row matched: an ELSE cell passes, as in visitRows before the first match.
      if (fastMatch(row, lefts, undefined, false, ctx)) return this.sharedOutputs[at] ?? this.shareOutput(at);
    }
    return undefined;
  }

  private shareOutput(at: number): Json {
    const row = this.rows[at]!;
    const output = frozenJson(this.layout.build(row.constValues, row.hasObjectConstants)) as Json;
    this.sharedOutputs[at] = output;
    return output;
  }

  /** evaluate() from the values of the input columns (ColumnInput.evaluateColumns): no input object, no scope. */
  private evaluateColumns(readAt: readonly number[], values: readonly unknown[], ctx: EvaluationContext): MaybePromise<SolveResult> {
    const solve = new TableSolve(undefined, ctx, this.columnLefts(readAt, values), this.skipMask(ctx), this.layout);
    solve.order = this.rowOrder(solve);
    return this.visitRows(solve, 0);
  }

  /** The compiled columns and rows, for static analysis; evaluation never reads this. */
  get structure(): TableStructure {
    return { conditionColumns: this.columns, rows: this.rows, timeZone: this.timeZone };
  }

  /** True when a column index was built (large tables with indexable columns). */
  get indexed(): boolean {
    return this.index !== undefined;
  }

  /** How many rows a solve of `input` would visit (the index's candidates, or every active row). */
  rowsToVisit(input: unknown, ctx: EvaluationContext): number {
    const solve = new TableSolve(input, ctx, this.readLefts(input), this.skipMask(ctx), this.layout);
    solve.scope = this.newScope(solve);
    return this.rowOrder(solve).length;
  }

  evaluate(input: unknown, ctx: EvaluationContext): MaybePromise<SolveResult> {
    return this.visitRows(this.start(input, ctx), 0);
  }

  private start(input: unknown, ctx: EvaluationContext): TableSolve {
    // A traced solve reports every column's left operand (ConditionTraceEntry.inputValue).
    const lefts = this.readLefts(input, ctx.trace ? this.inputColumns : this.readColumns);
    const solve = new TableSolve(input, ctx, lefts, this.skipMask(ctx), this.layout);
    if (this.indexEvaluates) solve.scope = this.newScope(solve);
    solve.order = this.rowOrder(solve);
    return solve;
  }

  /** Visits the rows of `solve.order` from position `from`; continues after a row that waits once it settles. */
  private visitRows(solve: TableSolve, from: number): MaybePromise<SolveResult> {
    // The hot loop keeps what every row reads in locals; `solve` carries it across a wait.
    const order = solve.order;
    const rows = this.rows;
    const ctx = solve.ctx;
    const lefts = solve.lefts;
    const skip = solve.skip;
    const untraced = solve.trace === undefined;
    // Direct rows (TableRow.direct) skip the step loop when nothing asks for every cell or for a trace.
    const direct = untraced && ctx.strategy !== 'EVALUATE_ALL';
    let anyMatched = solve.anyMatched;
    // Rows that write their results straight into their output objects, when the answer is the list of them.
    const intoObjects = ctx.strategy === 'STANDARD' || ctx.strategy === 'FIRST_MATCH' ? this.writesObjects : undefined;
    for (let i = from; i < order.length; i++) {
      const row = rows[order[i]!]!;
      if (row.window !== undefined && !row.window.contains(ctx.now)) continue;
      let matched: boolean;
      let values: SlotValues;
      let clone = false;
      if (row.fast && untraced) {
        matched = fastMatch(row, lefts, skip, anyMatched, ctx);
        values = row.constValues;
        clone = row.hasObjectConstants;
      } else if (row.direct && direct) {
        let scope = solve.scope;
        if (scope === undefined) {
          // Making the scope runs the comparison groups (TableScope.prefill): user logic, checked first.
          checkDeadline(ctx);
          scope = solve.scope = this.newScope(solve);
        }
        // Its first condition is known to fail (and no column is switched off): the row runs nothing, as
        // directMatch would find at once; like a fast row, it needs no deadline check.
        if (row.firstMemo >= 0 && skip === undefined && scope.failed(row.firstMemo)) continue;
        checkDeadline(ctx);
        // No output of this row is written while its conditions run (they come first in the row).
        scope.outputValues = NO_OUTPUTS;
        // A row that does not match adds nothing outside EVALUATE_ALL, which takes the general loop.
        if (!directMatch(row, lefts, skip, anyMatched, scope, ctx)) continue;
        if (intoObjects !== undefined && intoObjects[order[i]!] === true) {
          anyMatched = true;
          if (solve.addObject(this.directObject(row, scope, ctx))) break;
          continue;
        }
        matched = true;
        values = this.directOutputs(row, scope, ctx);
      } else {
        checkDeadline(ctx);
        const written = this.blankOutputs.slice();
        solve.anyMatched = anyMatched;
        const outcome = this.runRow(solve, row, written);
        if (typeof outcome !== 'boolean') return this.resumeRows(outcome, solve, i, written);
        matched = outcome;
        values = written;
      }
      if (matched) anyMatched = true;
      if (solve.add(values, clone, matched)) break;
    }
    return solve.finish();
  }

  // The continuations after a wait are methods of their own, not arrows in the loops (engine/maybe-promise.ts).

  /** Once row `i` settles: records it and visits the rows after it. */
  private resumeRows(pending: Promise<boolean>, solve: TableSolve, i: number, values: SlotValues): Promise<SolveResult> {
    return pending.then((matched) => {
      if (matched) solve.anyMatched = true;
      return solve.add(values, false, matched) ? solve.finish() : this.visitRows(solve, i + 1);
    });
  }

  /** Once the condition at step `j` settles: the row's cells after it. */
  private resumeAfterCondition(pending: Promise<boolean>, solve: TableSolve, row: TableRow, j: number, match: boolean): Promise<boolean> {
    return pending.then((passed) => this.runSteps(solve, row, j + 1, match && passed));
  }

  /** Once the value of step `j` settles: stores it and runs the row's cells after it. */
  private resumeAfterValue(pending: Promise<unknown>, solve: TableSolve, row: TableRow, j: number, match: boolean): Promise<boolean> {
    return pending.then((value) => {
      store(solve, row.steps[j] as Exclude<TableStep, ConditionStep>, value);
      return this.runSteps(solve, row, j + 1, match);
    });
  }

  /** Left operands of `columns` (bound to the input or a rule variable), read once per solve. */
  private readLefts(input: unknown, columns: readonly ConditionColumn[] = this.inputColumns): unknown[] {
    const lefts = new Array<unknown>(this.columns.length);
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!;
      const left = column.left;
      lefts[column.condIndex] = left.kind === 'input' ? left.read(input) : left.kind === 'variable' ? left.value : undefined;
    }
    return lefts;
  }

  /** Columns switched off by the options (§3.5): included wins over excluded; names are paths or aliases. */
  private skipMask(ctx: EvaluationContext): boolean[] | undefined {
    const included = ctx.includedConditionCols;
    const names = included ?? ctx.excludedConditionCols;
    if (names === undefined) return undefined;
    return this.columns.map((column) => {
      const named = names.includes(column.path) || (column.alias !== undefined && names.includes(column.alias));
      return included !== undefined ? !named : named;
    });
  }

  /** The rows to visit: index candidates when that cannot change the answer, else every active row. */
  private rowOrder(solve: TableSolve): readonly number[] {
    if (this.index === undefined || solve.ctx.strategy === 'EVALUATE_ALL' || solve.trace !== undefined) return this.allRows;
    return this.index.candidates(solve.lefts, solve.skip, solve.scope) ?? this.allRows;
  }

  private newScope(solve: TableSolve): TableScope {
    const scope = new TableScope(solve.input, this.variables, this.layout, this.calcIndex, this.blankMemo, this.blankPerSolve, solve.ctx);
    // The memo is read by untraced solves only.
    if (this.comparisons.length > 0 && solve.trace === undefined) scope.prefill(this.comparisons);
    return scope;
  }

  /** The output object of a direct row that matched and writes into it (row-objects.ts), outputs in column order. */
  private directObject(row: TableRow, scope: TableScope, ctx: EvaluationContext): Record<string, unknown> {
    const targets = this.rowObjects!;
    const objects = targets.blank();
    const { objectOf, keyOf } = targets;
    const outputs = row.outputs;
    for (let j = 0; j < outputs.length; j++) {
      const step = outputs[j]!;
      objects[objectOf[step.slot]!]![keyOf[step.slot]!] = step.expression!.evaluateOutput(scope, ctx) ?? null;
    }
    return objects[0]!;
  }

  /** The outputs of a direct row that matched, in column order (they may read the ones on their left). */
  private directOutputs(row: TableRow, scope: TableScope, ctx: EvaluationContext): SlotValues {
    const values = this.blankOutputs.slice();
    scope.outputValues = values;
    const outputs = row.outputs;
    for (let j = 0; j < outputs.length; j++) {
      const step = outputs[j]!;
      // Direct rows never wait (TableRow.direct): a function value's expression is asked directly.
      const expression = step.expression;
      values[step.slot] = expression !== undefined ? (expression.evaluateOutput(scope, ctx) ?? null) : step.value.evaluate(scope, ctx);
    }
    return values;
  }

  /** Runs the cells of one row that is not fast, writing its outputs into `values`; true when the row matched. */
  private runRow(solve: TableSolve, row: TableRow, values: unknown[]): MaybePromise<boolean> {
    const scope = (solve.scope ??= this.newScope(solve));
    scope.outputValues = values;
    if (this.calcCount > 0) scope.calcValues = new Array<unknown>(this.calcCount);
    if (solve.trace !== undefined) scope.rowTrace = [];
    return this.runSteps(solve, row, 0, true);
  }

  /** The row's cells from `from` on, `match` so far; continues after a cell that waits once it settles. */
  private runSteps(solve: TableSolve, row: TableRow, from: number, match: boolean): MaybePromise<boolean> {
    const steps = row.steps;
    const scope = solve.scope!;
    const { ctx, lefts, skip } = solve;
    const evaluateAll = ctx.strategy === 'EVALUATE_ALL';
    for (let j = from; j < steps.length; j++) {
      if (!match && !evaluateAll) break;
      const step = steps[j]!;
      if (step.kind === STEP_CONDITION) {
        // A constant cell on an input column, untraced: its scope-free test, as the fast rows use it.
        const test = scope.rowTrace === undefined ? step.test : undefined;
        if (test !== undefined) {
          if ((skip === undefined || !skip[step.condIndex]) && !test(lefts[step.condIndex])) match = false;
          continue;
        }
        const passed = this.testCondition(solve, step);
        if (typeof passed !== 'boolean') return this.resumeAfterCondition(passed, solve, row, j, match);
        if (!passed) match = false;
      } else {
        const value = step.value.evaluate(scope, ctx);
        if (step.value.async && value instanceof Promise) return this.resumeAfterValue(value, solve, row, j, match);
        store(solve, step, value);
      }
    }
    solve.trace?.push({ rowNumber: row.number, conditions: scope.rowTrace!, evaluationResult: match });
    return match;
  }

  private testCondition(solve: TableSolve, step: ConditionStep): MaybePromise<boolean> {
    const settled = this.settledCondition(solve, step);
    if (settled !== undefined) return settled;
    const scope = solve.scope!;
    const rowTrace = scope.rowTrace;
    if (rowTrace === undefined && step.memo >= 0) return scope.passes(step);
    const { column, condition } = step;
    const left = this.leftOf(column, scope, solve.lefts);
    if (rowTrace === undefined) return condition.test(left, scope, solve.ctx);
    const explained = condition.explain(left, scope, solve.ctx);
    if (explained instanceof Promise) return noteConditionLater(explained, rowTrace, step, left);
    return noteCondition(rowTrace, step, left, explained);
  }

  /** Skipped columns pass; ELSE passes when no earlier row matched (§2.9, §11 T1). undefined: evaluate the cell. */
  private settledCondition(solve: TableSolve, step: ConditionStep): boolean | undefined {
    const { column, condition } = step;
    const { skip } = solve;
    const rowTrace = solve.scope!.rowTrace;
    if (skip !== undefined && skip[column.condIndex]) {
      if (rowTrace !== undefined) rowTrace.push({ ...traceEntry(column, condition, solve.lefts[column.condIndex], true, condition.operand ?? ''), skipped: true });
      return true;
    }
    if (condition.kind !== 'else') return undefined;
    rowTrace?.push(traceEntry(column, condition, solve.lefts[column.condIndex], !solve.anyMatched, ''));
    return !solve.anyMatched;
  }

  private leftOf(column: ConditionColumn, scope: TableScope, lefts: readonly unknown[]): unknown {
    const left = column.left;
    if (left.kind !== 'calc') return lefts[column.condIndex];
    return getBelow(scope.calcValues[left.calcIndex], left.segments, 1);
  }
}

/**
 * The columns of `columns` whose left operand an untraced solve reads: a column whose cells are all function cells
 * (an expression reads the scope, never the column's value), `anything` or ELSE (untraced, decided by the rows
 * matched so far) is left unread; most expression-heavy tables bind their columns to paths only for the trace.
 */
function untracedLefts(columns: readonly ConditionColumn[], rows: readonly TableRow[]): ConditionColumn[] {
  const read = new Set<number>();
  for (const row of rows) {
    for (const step of row.steps) {
      if (step.kind !== STEP_CONDITION) continue;
      const kind = step.condition.kind;
      if (kind !== 'function' && kind !== 'else' && step.condition !== anythingCondition()) read.add(step.condIndex);
    }
  }
  return columns.filter((column) => read.has(column.condIndex));
}

/** Adds a traced condition's explanation to the row's trace; its outcome. */
function noteCondition(rowTrace: ConditionTraceEntry[], step: ConditionStep, left: unknown, explained: ConditionExplanation): boolean {
  rowTrace.push(traceEntry(step.column, step.condition, left, explained.result, explained.value, explained.error));
  return explained.result;
}

function noteConditionLater(pending: Promise<ConditionExplanation>, rowTrace: ConditionTraceEntry[], step: ConditionStep, left: unknown): Promise<boolean> {
  return pending.then((settled) => noteCondition(rowTrace, step, left, settled));
}

/** Writes the value of a calc or output cell where the cells to its right read it. */
function store(solve: TableSolve, step: Exclude<TableStep, ConditionStep>, value: unknown): void {
  if (step.kind === STEP_CALC) solve.scope!.calcValues[step.calcIndex] = value;
  // outputValues is the row's own array, made by runRow; written only here.
  else (solve.scope!.outputValues as unknown[])[step.slot] = value;
}

function fastMatch(row: TableRow, lefts: readonly unknown[], skip: readonly boolean[] | undefined, anyMatched: boolean, ctx: EvaluationContext): boolean {
  const conditions = row.fastConditions;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i]!;
    if (skip !== undefined && skip[c.condIndex]) continue;
    if (c.isElse) {
      if (anyMatched) return false;
      continue;
    }
    const left = lefts[c.condIndex];
    // Fast rows hold constant cells only, whose tests never wait.
    if (!(c.test !== undefined ? c.test(left) : (c.condition.test(left, undefined, ctx) as boolean))) return false;
  }
  return true;
}

/** fastMatch for a direct row: its function cells are memoised per solve (TableScope.passes). */
function directMatch(
  row: TableRow,
  lefts: readonly unknown[],
  skip: readonly boolean[] | undefined,
  anyMatched: boolean,
  scope: TableScope,
  ctx: EvaluationContext,
): boolean {
  const conditions = row.fastConditions;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i]!;
    if (skip !== undefined && skip[c.condIndex]) continue;
    if (c.memo >= 0) {
      if (!scope.passes(c)) return false;
      continue;
    }
    if (c.isElse) {
      if (anyMatched) return false;
      continue;
    }
    const left = lefts[c.condIndex];
    if (!(c.test !== undefined ? c.test(left) : (c.condition.test(left, undefined, ctx) as boolean))) return false;
  }
  return true;
}

const NO_OUTPUTS: SlotValues = [];

/**
 * `length` undefined values in an array whose elements are generic from the start, copied (slice) for each solve
 * or row: `new Array(n)` starts as small integers and changes kind, copying itself, on the first fraction and again
 * on the first text, and the sites that read such arrays then see several kinds.
 */
function blankArray<T>(length: number): T[] {
  const blank = new Array<T | undefined>(length);
  for (let i = 0; i < length; i++) blank[i] = undefined;
  return blank as T[];
}

function traceEntry(
  column: ConditionColumn,
  condition: ConditionStep['condition'],
  inputValue: unknown,
  result: boolean,
  value: unknown,
  error?: string,
): ConditionTraceEntry {
  const entry: ConditionTraceEntry = {
    columnId: column.id,
    inputProperty: column.path,
    inputValue,
    evaluationResult: result,
    operator: condition.operator,
    value,
  };
  if (error !== undefined) entry.evaluationError = error;
  return entry;
}
