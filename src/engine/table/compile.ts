// Decision tables (§2, §3): compiles a `decision-table` document into closures once, then answers solves with
// the four strategies. See table/evaluate.ts for the solve loop, table/steps.ts for the compiled rows and
// table/column-index.ts for the index.
import { ValidationError, type Problem } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';
import { ruleIdentity } from '../rule-identity.ts';
import type { CompileOptions, CompiledRule, RuleRef } from '../types.ts';
import { compilePathGetter, getBelow, parsePath, type PathSegment } from '../path.ts';
import { anythingCondition, compileCondition, type CellEnvironment, type CompiledCondition } from '../cells/condition.ts';
import { compileResultValue } from '../cells/result.ts';
import { assignSlots, OutputLayout } from '../cells/output-layout.ts';
import { pathsOverlap, ruleVariablesOf, staticResolver } from '../cells/scope.ts';
import type { Reference } from '../cells/references.ts';
import { cellPosition, type ColumnModel, type DecisionTableModel, type RowModel } from '../../rules/model/decision-table.ts';
import { compileTimeWindow } from './time-window.ts';
import { SharedCells } from './shared-cells.ts';
import { PerSolveSlots, type CompiledExpression, type SlotRef } from '../expression/index.ts';
import { INDEX_MIN_ROWS, TableIndex } from './column-index.ts';
import { DecisionTable } from './evaluate.ts';
import {
  STEP_CALC,
  STEP_CONDITION,
  STEP_OUTPUT,
  type ConditionColumn,
  type ConditionStep,
  type ComparisonCell,
  type ComparisonGroup,
  type LeftBinding,
  type OutputStep,
  type TableRow,
  type TableStep,
} from './steps.ts';

/** How the column index is used: `auto` for tables of INDEX_MIN_ROWS active rows or more. Tests force the others. */
export type IndexMode = 'auto' | 'always' | 'off';

export interface TableCompileOptions {
  index?: IndexMode;
  /** Replaces the expression compiler for function cells (tests of calc-column ordering use a double). */
  compileExpression?: CellEnvironment['compileExpression'];
  /** Tests: every shared subexpression keeps its per-solve slot, even one evaluated at one place (PerSolveSlots.finish). */
  keepEverySlot?: boolean;
}

export const compileDecisionTable: RuleCompiler<'decision-table'> = (model, options) => compileDecisionTableWith(model, options);

/** compileDecisionTable with engine-internal knobs (the index mode). The model is src/rules' (readRule). */
export function compileDecisionTableWith(
  model: DecisionTableModel,
  options: Required<CompileOptions>,
  tableOptions: TableCompileOptions = {},
): CompiledRule {
  const problems: Problem[] = [];
  // Function cells that do not compile become invalid cells (docs/decisions/tables-invalid-cells.md).
  const warnings: Problem[] = [];
  const document = model.document;
  const variables = ruleVariablesOf(document.userVariables);
  const zone = options.timeZone;
  // Subexpressions fixed per solve are shared by every function cell of the table (expression/per-solve.ts).
  const perSolveSlots = new PerSolveSlots();

  // Columns: condition columns get a condIndex, calc columns a calcIndex, result columns an output slot.
  const outputColumns = model.columns.filter((column) => column.kind === 'output');
  const slots = assignSlots(outputColumns.map((column) => column.target));
  const layout = new OutputLayout(slots.paths, document.outputSchema, slots.priority);
  const slotOfColumn = new Map(outputColumns.map((column, i) => [column.id, slots.slotOf[i]!]));
  const calcColumns = model.columns.filter((column) => column.kind === 'calc');
  const calcIndex = new Map<string, number>();
  calcColumns.forEach((column) => {
    if (!calcIndex.has(column.target)) calcIndex.set(column.target, calcIndex.size);
  });

  const conditionColumns: ConditionColumn[] = [];
  const environments = new Map<string, CellEnvironment>();
  const shadowedIn = new Map<string, (ref: Reference) => boolean>();
  const calcSeen = new Set<string>();
  const outputsSeen: (readonly PathSegment[])[] = [];
  for (const column of model.columns) {
    // What a cell in this column can see: calc variables and outputs of the columns to its left (§2.5).
    const calcsLeft = new Set(calcSeen);
    const outputsLeft = [...outputsSeen];
    const shadowed = (ref: Reference): boolean =>
      (typeof ref.segments[0] === 'string' && calcsLeft.has(ref.segments[0])) || outputsLeft.some((path) => pathsOverlap(path, ref.segments));
    shadowedIn.set(column.id, shadowed);
    environments.set(column.id, {
      timeZone: zone,
      resolveStatic: staticResolver(variables, shadowed),
      expressionOptions: {
        associativity: options.arithmeticAssociativity,
        perSolve: { slots: perSolveSlots, fixed: (segments) => !shadowed({ path: '', segments, literal: '' }) },
      },
      compileExpression: tableOptions.compileExpression,
      warnings,
    });
    if (column.kind === 'input') conditionColumns.push(conditionColumn(column, conditionColumns.length, calcsLeft, calcIndex, variables));
    else if (column.kind === 'calc') calcSeen.add(column.target);
    else outputsSeen.push(parsePath(column.target));
  }
  const conditionOf = new Map(conditionColumns.map((column) => [column.id, column]));

  // Identical cells of a column compile once and share one step object: large tables repeat a handful of
  // conditions and results thousands of times (docs/decisions/tables-column-index.md).
  const shared = model.columns.map(() => new SharedCells<TableStep>());
  // The shared subexpressions of each compiled cell: a row that reuses the cell evaluates them at one more place.
  const slotsOfStep = new Map<TableStep, readonly SlotRef[]>();
  const dependencies = new Map<string, RuleRef>();
  let memoCount = 0;
  const rows: TableRow[] = [];
  // Loops over rows and cells are indexed: they run once per cell of a large table, much of it before the code is
  // optimised, where iterators cost an allocation per step.
  for (let r = 0; r < model.rows.length; r++) {
    const rowModel = model.rows[r]!;
    if (!rowModel.active) continue;
    const window =
      rowModel.timeValidation === undefined ? undefined : compileTimeWindow(rowModel.timeValidation, `${rowPath(rowModel)}.timeValidation`, zone, problems);
    const steps = new Array<TableStep>(model.columns.length);
    for (let c = 0; c < model.columns.length; c++) {
      const column = model.columns[c]!;
      const cell = rowModel.cells[c];
      const stored = column.kind === 'input' ? cell?.scalarCondition : cell?.outputScalarValue;
      let step = shared[c]!.get(stored);
      if (step !== undefined) {
        // (Tables without shared subexpressions, most large ones, skip the lookup.)
        const refs = slotsOfStep.size === 0 ? undefined : slotsOfStep.get(step);
        if (refs !== undefined) perSolveSlots.reuse(refs);
      } else {
        const mark = perSolveSlots.mark();
        const cellWhere = cell ? `${rowPath(rowModel)}.cells[${cellPosition(rowModel, cell)}]` : rowPath(rowModel);
        const env = environments.get(column.id)!;
        const problemsBefore = problems.length + warnings.length;
        if (column.kind === 'input') {
          const conditionColumn = conditionOf.get(column.id)!;
          const condition = stored === undefined ? anythingCondition() : compileCondition(stored, `${cellWhere}.scalarCondition`, env, problems);
          const memo = isRepeatable(condition, shadowedIn.get(column.id)!) ? memoCount++ : -1;
          step = conditionStep(conditionColumn, condition, memo);
        } else {
          const value = compileResultValue(stored, `${cellWhere}.outputScalarValue`, env, problems);
          step =
            column.kind === 'calc'
              ? { kind: STEP_CALC, calcIndex: calcIndex.get(column.target)!, value }
              : { kind: STEP_OUTPUT, slot: slotOfColumn.get(column.id)!, value, expression: value.expression };
        }
        const ruleRefs = step.kind === STEP_CONDITION ? step.condition.ruleRefs : step.value.ruleRefs;
        for (let i = 0; i < ruleRefs.length; i++) {
          const ref = ruleRefs[i]!;
          dependencies.set(`${ref.idOrAlias}\u0000${ref.version ?? ''}`, ref);
        }
        // A cell with problems is compiled again wherever it repeats, so every place is reported.
        if (problems.length + warnings.length === problemsBefore) shared[c]!.set(stored, step);
        const refs = perSolveSlots.since(mark);
        if (refs.length > 0) slotsOfStep.set(step, refs);
      }
      steps[c] = step;
    }
    rows.push(compileRow(rowModel.position + 1, window, steps, layout.slotCount));
  }
  if (problems.length > 0) throw new ValidationError(problems);
  if (tableOptions.keepEverySlot !== true) perSolveSlots.finish();

  const indexMode = tableOptions.index ?? 'auto';
  const positionOf = new Map(model.columns.map((column, position) => [column.id, position]));
  const indexable = conditionColumns
    .filter((column) => column.left.kind === 'input')
    .map((column) => ({ condIndex: column.condIndex, position: positionOf.get(column.id)! }));
  const index =
    indexMode === 'off' || indexable.length === 0 || (indexMode === 'auto' && rows.length < INDEX_MIN_ROWS)
      ? undefined
      : TableIndex.build(rows, indexable);

  return new DecisionTable({
    ...ruleIdentity(document),
    // Only memoised cells can be grouped: a table without any (most large ones) skips the walk over every cell.
    comparisons: memoCount === 0 ? [] : comparisonGroups(rows),
    conditionColumns,
    calcCount: calcIndex.size,
    layout,
    rows,
    index,
    variables,
    calcIndex,
    dependencies: [...dependencies.values()],
    memoCount,
    perSolveCount: perSolveSlots.size,
    warnings,
    timeZone: zone,
  });
}

/** The left operand's source (§2.6, §11 F1): a calc variable to the left, else a rule variable, else the input. */
function conditionColumn(
  column: ColumnModel,
  condIndex: number,
  calcsLeft: ReadonlySet<string>,
  calcIndex: ReadonlyMap<string, number>,
  variables: ReadonlyMap<string, unknown>,
): ConditionColumn {
  const segments = parsePath(column.target);
  const head = segments[0];
  let left: LeftBinding;
  if (typeof head === 'string' && calcsLeft.has(head)) left = { kind: 'calc', calcIndex: calcIndex.get(head)!, segments };
  else if (typeof head === 'string' && variables.has(head) && getBelow(variables.get(head), segments, 1) !== undefined) {
    left = { kind: 'variable', value: getBelow(variables.get(head), segments, 1) };
  } else left = { kind: 'input', read: inputReader(column.target) };
  return { id: column.id, alias: column.alias, path: column.target, condIndex, left };
}

/** compilePathGetter, with the two-level path (`client.age`) unrolled: it is the most common binding. */
function inputReader(path: string): (input: unknown) => unknown {
  const segments = parsePath(path);
  const [first, second] = segments;
  if (segments.length === 2 && typeof first === 'string' && typeof second === 'string') {
    return (input) => {
      if (input === null || typeof input !== 'object' || !Object.hasOwn(input, first)) return undefined;
      const parent = (input as Record<string, unknown>)[first];
      if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, second)) return undefined;
      return (parent as Record<string, unknown>)[second];
    };
  }
  return compilePathGetter(path);
}

/** Built only for messages and on first sight of a cell: a large table has tens of thousands of rows. */
function rowPath(row: RowModel): string {
  return `decisionTable.rows[${row.position}]`;
}

function conditionStep(column: ConditionColumn, condition: CompiledCondition, memo: number): ConditionStep {
  const isElse = condition.kind === 'else';
  const test = condition.kind === 'static' && column.left.kind !== 'calc' ? condition.leftTest : undefined;
  return { kind: STEP_CONDITION, column, condition, condIndex: column.condIndex, isElse, test, memo };
}

/**
 * A function cell whose outcome cannot differ between the rows of one solve: a repeatable, synchronous
 * expression none of whose references a calc variable or an output to the left of its column can answer (they
 * change per row). Its outcome is evaluated once per solve and shared (TableScope.passes).
 */
function isRepeatable(condition: CompiledCondition, shadowed: (ref: Reference) => boolean): boolean {
  const footprint = condition.footprint;
  if (condition.kind !== 'function' || condition.async || footprint === undefined || !footprint.repeatable) return false;
  return footprint.references.every((segments) => !shadowed({ path: '', segments, literal: '' }));
}

/**
 * Memoised function cells that compare one shared subexpression with a constant number (`GTE({price} *
 * {quantity}, 900)` in every row, each with its own threshold), grouped by that subexpression: a solve evaluates
 * it once and sets the outcome of every cell of the group (TableScope.prefill) instead of running them one by one.
 * Groups of one cell are left out.
 */
function comparisonGroups(rows: readonly TableRow[]): ComparisonGroup[] {
  const bySlot = new Map<SlotRef, { expression: CompiledExpression; cells: ComparisonCell[]; seen: Set<number> }>();
  for (const row of rows) {
    for (const step of row.steps) {
      if (step.kind !== STEP_CONDITION || step.memo < 0) continue;
      const expression = step.condition.expression;
      const comparison = expression?.comparison;
      if (expression === undefined || comparison === undefined || expression.comparedOperand === undefined) continue;
      let group = bySlot.get(comparison.operand.ref);
      if (group === undefined) bySlot.set(comparison.operand.ref, (group = { expression, cells: [], seen: new Set() }));
      if (group.seen.has(step.memo)) continue;
      group.seen.add(step.memo);
      group.cells.push({ memo: step.memo, name: comparison.name, constant: comparison.constant });
    }
  }
  return [...bySlot.values()].filter((group) => group.cells.length > 1).map(({ expression, cells }) => ({ expression, cells }));
}

function compileRow(number: number, window: TableRow['window'], steps: TableStep[], slotCount: number): TableRow {
  // First what kind of row it is, then the checked conditions and the fast rows' constants at their final size
  // (a large table has many rows).
  let fast = true;
  let direct = true;
  let async = false;
  let checked = 0;
  let outputCount = 0;
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    if (step.kind === STEP_CONDITION) {
      const condition = step.condition;
      if (condition.async) async = true;
      if (outputCount > 0) direct = false;
      if (condition.kind === 'else' || (condition.kind === 'static' && step.column.left.kind !== 'calc')) {
        if (condition.operator !== 'anything') checked++;
      } else {
        fast = false;
        if (step.memo >= 0) checked++;
        else direct = false;
      }
    } else {
      if (step.value.async) async = true;
      if (step.kind === STEP_CALC) direct = false;
      else outputCount++;
      if (step.kind === STEP_CALC || !step.value.isConstant) fast = false;
    }
  }
  if (async) direct = false;
  if (!direct) return { number, window, steps, fast, direct, async, constValues: NO_VALUES, hasObjectConstants: false, fastConditions: NO_STEPS, firstMemo: -1, outputs: NO_OUTPUTS };
  const constValues = fast ? new Array<unknown>(slotCount) : NO_VALUES;
  const fastConditions = new Array<ConditionStep>(checked);
  const outputs = new Array<OutputStep>(outputCount);
  let hasObjectConstants = false;
  let c = 0;
  let o = 0;
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    if (step.kind === STEP_CONDITION) {
      if (step.condition.operator !== 'anything') fastConditions[c++] = step;
    } else if (step.kind === STEP_OUTPUT) {
      outputs[o++] = step;
      if (!fast) continue;
      const constant = step.value.constant;
      (constValues as unknown[])[step.slot] = constant;
      if (constant !== null && typeof constant === 'object') hasObjectConstants = true;
    }
  }
  const firstMemo = !fast && checked > 0 ? fastConditions[0]!.memo : -1;
  return { number, window, steps, fast, direct, async, constValues, hasObjectConstants, fastConditions, firstMemo, outputs };
}

const NO_VALUES: readonly unknown[] = [];
const NO_STEPS: readonly ConditionStep[] = [];
const NO_OUTPUTS: readonly OutputStep[] = [];


