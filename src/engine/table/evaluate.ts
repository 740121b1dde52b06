// The solve loop of a compiled decision table (§2.5, §3.2, §3.5, §10.1).
//
// Rows whose cells are all constants ("fast" rows) are matched against left operands read once per solve and
// emit prebuilt constant values; other rows run their cells in column order against a RuleScope, so calc
// variables and earlier outputs are visible to the columns on their right. Nothing right of a failed condition
// runs, except under EVALUATE_ALL, which evaluates every cell of every active row.
import type { Problem } from '../errors.ts';
import { TimeoutError } from '../errors.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, SolveResult, Strategy } from '../types.ts';
import { getBelow, type PathSegment } from '../path.ts';
import type { RuleIdentity } from '../rule-identity.ts';
import type { CompiledCondition } from '../cells/condition.ts';
import type { LeftTest } from '../cells/general.ts';
import type { CompiledValue } from '../cells/result.ts';
import type { OutputLayout, SlotValues } from '../cells/output-layout.ts';
import { RuleScope } from '../cells/scope.ts';
import type { TimeWindow } from './time-window.ts';
import type { GroupTester, TableIndex } from './column-index.ts';

export const STEP_CONDITION = 0;
export const STEP_CALC = 1;
export const STEP_OUTPUT = 2;

/** Where a condition column's left operand comes from (§2.6). */
export type LeftBinding =
  | { readonly kind: 'input'; readonly read: (input: unknown) => unknown }
  | { readonly kind: 'variable'; readonly value: unknown }
  | { readonly kind: 'calc'; readonly calcIndex: number; readonly segments: readonly PathSegment[] };

export interface ConditionColumn {
  readonly id: string;
  readonly alias: string | undefined;
  /** The bound path as written (`client.age`): the name include/exclude options and traces use. */
  readonly path: string;
  readonly condIndex: number;
  readonly left: LeftBinding;
}

/**
 * A condition cell in its column. One object per distinct cell of a column (identical cells share it), so it also
 * serves as the fast loop's entry and the index's view of the cell.
 */
export interface ConditionStep {
  readonly kind: typeof STEP_CONDITION;
  readonly column: ConditionColumn;
  readonly condition: CompiledCondition;
  readonly condIndex: number;
  readonly isElse: boolean;
  /** The scope-free test; undefined for date cells, which need ctx.now, and for scope-reading cells. */
  readonly test: LeftTest | undefined;
  /**
   * Slot in the per-solve memo of a function cell whose outcome is the same in every row of one solve (repeatable,
   * synchronous, reading nothing a calc column or earlier output could answer); -1 for other cells.
   */
  readonly memo: number;
}

export type TableStep =
  | ConditionStep
  | { readonly kind: typeof STEP_CALC; readonly calcIndex: number; readonly value: CompiledValue }
  | { readonly kind: typeof STEP_OUTPUT; readonly slot: number; readonly value: CompiledValue };

export interface TableRow {
  /** 1-based position in the document's rows (inactive rows keep their numbers). */
  readonly number: number;
  readonly window: TimeWindow | undefined;
  /** The row's cells in column order (condition cells sit at their column's position, see IndexRow). */
  readonly steps: readonly TableStep[];
  /** Constant conditions and constant outputs only: matched without a scope. */
  readonly fast: boolean;
  readonly async: boolean;
  /** Fast rows: the output value of each slot. */
  readonly constValues: SlotValues;
  readonly hasObjectConstants: boolean;
  /** Fast rows: the conditions to check, `anything` left out. */
  readonly fastConditions: readonly ConditionStep[];
}

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

  constructor(
    input: unknown,
    variables: ReadonlyMap<string, unknown>,
    layout: OutputLayout,
    calcIndex: ReadonlyMap<string, number>,
    memoCount: number,
    ctx: EvaluationContext,
  ) {
    super(input, variables, layout, calcIndex);
    this.memo = memoCount === 0 ? NO_MEMO : new Array<boolean | undefined>(memoCount);
    this.ctx = ctx;
  }

  passes(cell: ConditionStep): boolean {
    const slot = cell.memo;
    let known = this.memo[slot];
    if (known === undefined) {
      known = cell.condition.test(undefined, this, this.ctx);
      this.memo[slot] = known;
    }
    return known;
  }
}

/** Collects row outputs into the response shape of one strategy (SPEC 3.1). */
class Results {
  private readonly strategy: Strategy;
  private readonly layout: OutputLayout;
  private readonly list: Json[] = [];
  private arrayRows: SlotValues[] | undefined;
  private arrayClone: boolean[] | undefined;

  constructor(strategy: Strategy, layout: OutputLayout) {
    this.strategy = strategy;
    this.layout = layout;
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

  finish(): Json[] {
    if (this.strategy === 'ARRAY') return [this.layout.buildArrays(this.arrayRows ?? [], this.arrayClone) as Json];
    return this.list;
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
  private readonly memoCount: number;
  private readonly timeZone: string;
  /** The index asks repeatable function cells: a solve then needs its scope before the first row. */
  private readonly indexEvaluates: boolean;

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
    this.memoCount = parts.memoCount;
    this.timeZone = parts.timeZone ?? 'UTC';
    this.indexEvaluates = parts.index?.hasGroups ?? false;
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
    return this.rowOrder(this.readLefts(input), this.skipMask(ctx), ctx.strategy === 'EVALUATE_ALL', ctx.trace, this.newScope(input, ctx)).length;
  }

  evaluate(input: unknown, ctx: EvaluationContext): SolveResult | Promise<SolveResult> {
    return this.async ? this.evaluateAsync(input, ctx) : this.evaluateSync(input, ctx);
  }

  private evaluateSync(input: unknown, ctx: EvaluationContext): SolveResult {
    const lefts = this.readLefts(input);
    const skip = this.skipMask(ctx);
    const strategy = ctx.strategy;
    const evaluateAll = strategy === 'EVALUATE_ALL';
    const trace: RowTraceEntry[] | undefined = ctx.trace ? [] : undefined;
    let scope = this.indexEvaluates ? this.newScope(input, ctx) : undefined;
    const order = this.rowOrder(lefts, skip, evaluateAll, trace !== undefined, scope);
    const results = new Results(strategy, this.layout);
    const rows = this.rows;
    const now = ctx.now;
    const watchDeadline = ctx.deadline !== Number.POSITIVE_INFINITY;
    let anyMatched = false;
    for (let i = 0; i < order.length; i++) {
      const row = rows[order[i]!]!;
      if (row.window !== undefined && !row.window.contains(now)) continue;
      let matched: boolean;
      let values: SlotValues;
      let clone = false;
      if (row.fast && trace === undefined) {
        matched = fastMatch(row, lefts, skip, anyMatched, ctx);
        values = row.constValues;
        clone = row.hasObjectConstants;
      } else {
        if (watchDeadline && Date.now() > ctx.deadline) throw new TimeoutError(ctx.timeoutMs);
        scope ??= this.newScope(input, ctx);
        const written = new Array<unknown>(this.layout.slotCount);
        matched = this.runRow(row, scope, written, lefts, skip, anyMatched, evaluateAll, ctx, trace);
        values = written;
      }
      if (matched) anyMatched = true;
      if (results.add(values, clone, matched)) break;
    }
    const result = results.finish();
    return trace === undefined ? { result } : { result, trace };
  }

  private async evaluateAsync(input: unknown, ctx: EvaluationContext): Promise<SolveResult> {
    const lefts = this.readLefts(input);
    const skip = this.skipMask(ctx);
    const strategy = ctx.strategy;
    const evaluateAll = strategy === 'EVALUATE_ALL';
    const trace: RowTraceEntry[] | undefined = ctx.trace ? [] : undefined;
    let scope = this.indexEvaluates ? this.newScope(input, ctx) : undefined;
    const order = this.rowOrder(lefts, skip, evaluateAll, trace !== undefined, scope);
    const results = new Results(strategy, this.layout);
    const watchDeadline = ctx.deadline !== Number.POSITIVE_INFINITY;
    let anyMatched = false;
    for (const position of order) {
      const row = this.rows[position]!;
      if (row.window !== undefined && !row.window.contains(ctx.now)) continue;
      if (watchDeadline && Date.now() > ctx.deadline) throw new TimeoutError(ctx.timeoutMs);
      let matched: boolean;
      let values: SlotValues;
      let clone = false;
      if (row.fast && trace === undefined) {
        matched = fastMatch(row, lefts, skip, anyMatched, ctx);
        values = row.constValues;
        clone = row.hasObjectConstants;
      } else {
        scope ??= this.newScope(input, ctx);
        const written = new Array<unknown>(this.layout.slotCount);
        matched = row.async
          ? await this.runRowAsync(row, scope, written, lefts, skip, anyMatched, evaluateAll, ctx, trace)
          : this.runRow(row, scope, written, lefts, skip, anyMatched, evaluateAll, ctx, trace);
        values = written;
      }
      if (matched) anyMatched = true;
      if (results.add(values, clone, matched)) break;
    }
    const result = results.finish();
    return trace === undefined ? { result } : { result, trace };
  }

  /** Left operands of the columns bound to the input or a rule variable, read once per solve. */
  private readLefts(input: unknown): unknown[] {
    const lefts = new Array<unknown>(this.columns.length);
    const columns = this.inputColumns;
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
  private rowOrder(
    lefts: readonly unknown[],
    skip: readonly boolean[] | undefined,
    evaluateAll: boolean,
    tracing: boolean,
    scope: TableScope | undefined,
  ): readonly number[] {
    if (this.index === undefined || evaluateAll || tracing) return this.allRows;
    return this.index.candidates(lefts, skip, scope) ?? this.allRows;
  }

  private newScope(input: unknown, ctx: EvaluationContext): TableScope {
    return new TableScope(input, this.variables, this.layout, this.calcIndex, this.memoCount, ctx);
  }

  private runRow(
    row: TableRow,
    scope: TableScope,
    values: unknown[],
    lefts: readonly unknown[],
    skip: readonly boolean[] | undefined,
    anyMatched: boolean,
    evaluateAll: boolean,
    ctx: EvaluationContext,
    trace: RowTraceEntry[] | undefined,
  ): boolean {
    scope.outputValues = values;
    if (this.calcCount > 0) scope.calcValues = new Array<unknown>(this.calcCount);
    const conditions: ConditionTraceEntry[] | undefined = trace === undefined ? undefined : [];
    let match = true;
    for (const step of row.steps) {
      if (!match && !evaluateAll) break;
      if (step.kind === STEP_CONDITION) {
        // A constant cell on an input column, untraced: its scope-free test, as the fast rows use it.
        const test = conditions === undefined ? step.test : undefined;
        if (test !== undefined) {
          if ((skip === undefined || !skip[step.condIndex]) && !test(lefts[step.condIndex])) match = false;
        } else if (!this.testCondition(step, scope, lefts, skip, anyMatched, ctx, conditions)) match = false;
      } else if (step.kind === STEP_CALC) {
        scope.calcValues[step.calcIndex] = step.value.evaluate(scope, ctx);
      } else {
        values[step.slot] = step.value.evaluate(scope, ctx);
      }
    }
    trace?.push({ rowNumber: row.number, conditions: conditions!, evaluationResult: match });
    return match;
  }

  private async runRowAsync(
    row: TableRow,
    scope: TableScope,
    values: unknown[],
    lefts: readonly unknown[],
    skip: readonly boolean[] | undefined,
    anyMatched: boolean,
    evaluateAll: boolean,
    ctx: EvaluationContext,
    trace: RowTraceEntry[] | undefined,
  ): Promise<boolean> {
    scope.outputValues = values;
    const calcValues = this.calcCount > 0 ? new Array<unknown>(this.calcCount) : scope.calcValues;
    scope.calcValues = calcValues;
    const conditions: ConditionTraceEntry[] | undefined = trace === undefined ? undefined : [];
    let match = true;
    for (const step of row.steps) {
      if (!match && !evaluateAll) break;
      if (step.kind === STEP_CONDITION) {
        const ok = step.condition.async
          ? await this.testConditionAsync(step, scope, lefts, skip, anyMatched, ctx, conditions)
          : this.testCondition(step, scope, lefts, skip, anyMatched, ctx, conditions);
        if (!ok) match = false;
      } else {
        const value = step.value.async ? await step.value.evaluateAsync(scope, ctx) : step.value.evaluate(scope, ctx);
        if (step.kind === STEP_CALC) calcValues[step.calcIndex] = value;
        else values[step.slot] = value;
      }
    }
    trace?.push({ rowNumber: row.number, conditions: conditions!, evaluationResult: match });
    return match;
  }

  private testCondition(
    step: ConditionStep,
    scope: TableScope,
    lefts: readonly unknown[],
    skip: readonly boolean[] | undefined,
    anyMatched: boolean,
    ctx: EvaluationContext,
    trace: ConditionTraceEntry[] | undefined,
  ): boolean {
    const { column, condition } = step;
    const settled = this.settledCondition(column, condition, lefts, skip, anyMatched, trace);
    if (settled !== undefined) return settled;
    if (trace === undefined && step.memo >= 0) return scope.passes(step);
    const left = this.leftOf(column, scope, lefts);
    if (trace === undefined) return condition.test(left, scope, ctx);
    const explained = condition.explain(left, scope, ctx);
    trace.push(traceEntry(column, condition, left, explained.result, explained.value, explained.error));
    return explained.result;
  }

  private async testConditionAsync(
    step: ConditionStep,
    scope: TableScope,
    lefts: readonly unknown[],
    skip: readonly boolean[] | undefined,
    anyMatched: boolean,
    ctx: EvaluationContext,
    trace: ConditionTraceEntry[] | undefined,
  ): Promise<boolean> {
    const { column, condition } = step;
    const settled = this.settledCondition(column, condition, lefts, skip, anyMatched, trace);
    if (settled !== undefined) return settled;
    const left = this.leftOf(column, scope, lefts);
    if (trace === undefined) return condition.testAsync(left, scope, ctx);
    const explained = await condition.explainAsync(left, scope, ctx);
    trace.push(traceEntry(column, condition, left, explained.result, explained.value, explained.error));
    return explained.result;
  }

  /** Skipped columns pass; ELSE passes when no earlier row matched (§2.9, §11 T1). undefined: evaluate the cell. */
  private settledCondition(
    column: ConditionColumn,
    condition: CompiledCondition,
    lefts: readonly unknown[],
    skip: readonly boolean[] | undefined,
    anyMatched: boolean,
    trace: ConditionTraceEntry[] | undefined,
  ): boolean | undefined {
    if (skip !== undefined && skip[column.condIndex]) {
      if (trace !== undefined) trace.push({ ...traceEntry(column, condition, lefts[column.condIndex], true, condition.operand ?? ''), skipped: true });
      return true;
    }
    if (condition.kind !== 'else') return undefined;
    trace?.push(traceEntry(column, condition, lefts[column.condIndex], !anyMatched, ''));
    return !anyMatched;
  }

  private leftOf(column: ConditionColumn, scope: TableScope, lefts: readonly unknown[]): unknown {
    const left = column.left;
    if (left.kind !== 'calc') return lefts[column.condIndex];
    return getBelow(scope.calcValues[left.calcIndex], left.segments, 1);
  }
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
    if (!(c.test !== undefined ? c.test(left) : c.condition.test(left, undefined, ctx))) return false;
  }
  return true;
}

function traceEntry(
  column: ConditionColumn,
  condition: CompiledCondition,
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
