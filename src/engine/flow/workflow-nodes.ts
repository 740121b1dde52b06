// What each decision-flow node type does (spec/rule-format.md §8.2 "Node types"), compiled once per rule version:
// expressions, conditions and paths are prepared here, so a solve only evaluates.
import { RuleError } from '../errors.ts';
import { DYNAMIC, cloneJson, compileCondition, compileResultValue } from '../cells/index.ts';
import type { CellEnvironment, CompiledCondition, CompiledValue } from '../cells/index.ts';
import { setAt } from '../path.ts';
import type { PathSegment } from '../path.ts';
import type { CompileOptions, CompiledRule, EvaluationContext, Json, RuleRef, Strategy } from '../types.ts';
import { normaliseStrategy } from '../context.ts';
import { castExpressionOutput, compileStoredExpression } from '../expression/index.ts';
import { callColumns, callFirstColumns, callRule, resolveRule } from './call-rule.ts';
import { ColumnPlan } from './column-call.ts';
import { INPUT_SLOT, OUTPUT_SLOT, flowPath } from './flow-scope.ts';
import { buildOutput, outputShape } from './output-layout.ts';
import type { OutputShape } from './output-layout.ts';
import type { FlowNode, FlowNodeOf } from './workflow-graph.ts';
import type { FlowExpression } from '../../rules/model/workflow.ts';
import { compileHttpNode } from './http-node.ts';
import { NO_REFS, nodeKey, textField } from './node-helpers.ts';
import type { NodeCompileContext, NodeExecutor, NodeOutcome } from './node-executor.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import type { FlowPath, FlowScope } from './flow-scope.ts';

/** Node types whose named value is written by the node itself; Assign cannot target them (§8.2). */
const READ_ONLY_NODE_TYPES: ReadonlySet<string> = new Set(['FOREACH', 'BUSINESS_RULE', 'HTTP_CLIENT', 'ARRAY_APPEND', 'IF_STATEMENT', 'START']);

/** Flow values change while the flow runs, so no reference is resolved at compile time. */
export function flowCellEnvironment(options: Required<CompileOptions>): CellEnvironment {
  return {
    timeZone: options.timeZone,
    resolveStatic: () => DYNAMIC,
    compileExpression: (stored, where) => compileStoredExpression(stored, where, { associativity: options.arithmeticAssociativity }),
  };
}

export function compileNode(node: FlowNode, cc: NodeCompileContext): NodeExecutor {
  switch (node.type) {
    case 'START':
      return { ruleRefs: NO_REFS, run: (scope) => ({ output: scope.get(INPUT_SLOT) }) };
    case 'VARIABLES':
      return compileVariables(node, cc);
    case 'DATA_MANIPULATION':
      return compileAssign(node, cc);
    case 'FOREACH':
      return compileForeach(node, cc);
    case 'BUSINESS_RULE':
      return compileBusinessRule(node, cc);
    case 'IF_STATEMENT':
      return compileSwitch(node, cc);
    case 'ARRAY_APPEND':
      return compileAppend(node, cc);
    case 'HTTP_CLIENT':
      return compileHttpNode(node, cc);
  }
}

function expressionOf(stored: FlowExpression, where: string, cc: NodeCompileContext): CompiledValue {
  return compileResultValue(stored.outputScalarValue, `${where}.outputScalarValue`, cc.env, cc.problems);
}

function refsOf(values: readonly { ruleRefs: readonly RuleRef[] }[]): RuleRef[] {
  return values.flatMap((value) => value.ruleRefs);
}

/** A path a node writes to: not the input, and not a value another node owns. */
function targetPath(text: unknown, where: string, cc: NodeCompileContext): FlowPath | undefined {
  const path = textField(text);
  if (path === undefined) {
    cc.problems.push({ path: where, message: 'needs the path to write to' });
    return undefined;
  }
  const target = cc.layout.path(path);
  const head = target.segments[0];
  if (typeof head !== 'string') {
    cc.problems.push({ path: where, message: `${JSON.stringify(path)} is not a variable path` });
    return undefined;
  }
  if (head === 'input') {
    cc.problems.push({ path: where, message: `${JSON.stringify(path)} would change the flow input, which is read-only` });
    return undefined;
  }
  const owner = cc.nodeTypes.get(head);
  if (owner !== undefined && READ_ONLY_NODE_TYPES.has(owner)) {
    cc.problems.push({ path: where, message: `${JSON.stringify(path)} would change the value of ${owner} node "${head}", which only that node writes` });
    return undefined;
  }
  return target;
}

function compileVariables(node: FlowNodeOf<'VARIABLES'>, cc: NodeCompileContext): NodeExecutor {
  const where = `${node.path}.data.variables`;
  const variables = node.data.variables.flatMap((entry, i) => {
    const name = textField(entry.name);
    if (name === undefined) {
      cc.problems.push({ path: `${where}[${i}].name`, message: 'a declared variable needs a name' });
      return [];
    }
    return [{ name, value: expressionOf(entry.expression, `${where}[${i}].expression`, cc) }];
  });
  const slot = cc.layout.slotOf(nodeKey(node));
  const values = variables.map((variable) => variable.value);
  const names = variables.map((variable) => variable.name);
  return {
    ruleRefs: refsOf(values),
    run: (scope, ctx) => eachValue<Declaring>(values, scope, ctx, { names, declared: scope.nodeObject(slot) }, declareValue, declaredOutcome),
  };
}

/** One run of a Variables node: the node's object and the names it declares, in order. */
interface Declaring {
  readonly names: readonly string[];
  readonly declared: Record<string, unknown>;
}

function declareValue(run: Declaring, i: number, value: unknown): void {
  Object.defineProperty(run.declared, run.names[i]!, { value: cloneJson(value), enumerable: true, writable: true, configurable: true });
}

function declaredOutcome(run: Declaring): NodeOutcome {
  return { output: run.declared };
}

/**
 * Evaluates `values` in order, handing each to `use(run, i, value)` before the next one runs (a later value may
 * read what an earlier one wrote), then gives `done(run)`. A value that waits makes the rest wait for it; while
 * none does, this is a plain loop. `use` and `done` are plain functions and `run` carries the node's state, so a
 * run allocates no closures (engine/maybe-promise.ts).
 */
function eachValue<R>(
  values: readonly CompiledValue[],
  scope: FlowScope,
  ctx: EvaluationContext,
  run: R,
  use: (run: R, i: number, value: unknown) => void,
  done: (run: R) => NodeOutcome,
  from = 0,
): MaybePromise<NodeOutcome> {
  for (let i = from; i < values.length; i++) {
    const value = values[i]!.evaluate(scope, ctx);
    if (value instanceof Promise) return resumeValues(value, values, scope, ctx, run, use, done, i);
    use(run, i, value);
  }
  return done(run);
}

function resumeValues<R>(
  pending: Promise<unknown>,
  values: readonly CompiledValue[],
  scope: FlowScope,
  ctx: EvaluationContext,
  run: R,
  use: (run: R, i: number, value: unknown) => void,
  done: (run: R) => NodeOutcome,
  i: number,
): Promise<NodeOutcome> {
  return pending.then((settled) => {
    use(run, i, settled);
    return eachValue(values, scope, ctx, run, use, done, i + 1);
  });
}

function compileAssign(node: FlowNodeOf<'DATA_MANIPULATION'>, cc: NodeCompileContext): NodeExecutor {
  const where = `${node.path}.data.mapping`;
  const assignments = node.data.mapping.flatMap((entry, i) => {
    const target = entry.target.path;
    const path = targetPath(target, `${where}[${i}].target.path`, cc);
    const value = expressionOf(entry.source.expression, `${where}[${i}].source.expression`, cc);
    return path ? [{ text: String(target), path, value, reads: value.reference === undefined ? undefined : cc.layout.resolved(value.reference) }] : [];
  });
  const values = assignments.map((assignment) => assignment.value);
  const waits = values.some((value) => value.async);
  const shape = outputOnly(assignments) ? outputShape(assignments.map((assignment) => assignment.path.segments)) : undefined;
  return {
    ruleRefs: refsOf(values),
    // What was written, by path, is kept only for the trace.
    run: (scope, ctx) => (ctx.trace || waits
      ? eachValue<Assigning>(values, scope, ctx, { scope, assignments, written: ctx.trace ? {} : undefined }, assignValue, assignedOutcome)
      : shape !== undefined && scope.outputFresh ? assignOutput(assignments, shape, scope, ctx) : assignNow(assignments, scope, ctx)),
  };
}

/**
 * True when the assignments write only below `output` and no value reads it (each value is one reference elsewhere
 * or a constant): computing every value first and writing them afterwards then gives what writing each in turn
 * gives.
 */
function outputOnly(assignments: readonly Assignment[]): boolean {
  return assignments.length > 0 && assignments.every((assignment) =>
    assignment.path.slot === OUTPUT_SLOT && (assignment.value.isConstant || (assignment.reads !== undefined && assignment.reads.slot !== OUTPUT_SLOT && assignment.reads.slot >= 0)));
}

/** assignNow into an `output` nothing wrote yet (FlowScope.outputFresh): the values, then the output built at once. */
function assignOutput(assignments: readonly Assignment[], shape: OutputShape, scope: FlowScope, ctx: EvaluationContext): NodeOutcome {
  const values = new Array<unknown>(assignments.length);
  for (let i = 0; i < assignments.length; i++) values[i] = cloneJson(valueNow(assignments[i]!, scope, ctx));
  scope.replaceOutput(buildOutput(shape, values));
  return NOTHING_TRACED;
}

/** An assignment's value when it does not wait; a single reference read by its slot (Assignment.reads). */
function valueNow(assignment: Assignment, scope: FlowScope, ctx: EvaluationContext): unknown {
  return assignment.reads === undefined ? assignment.value.evaluate(scope, ctx) : castExpressionOutput(scope.read(assignment.reads));
}

interface Assignment {
  readonly text: string;
  readonly path: FlowPath;
  readonly value: CompiledValue;
  /** The slot and path of a value that is one reference (CompiledValue.reference). */
  readonly reads: FlowPath | undefined;
}

/**
 * An untraced run of an Assign node none of whose values waits: eachValue's loop without its run state, and a
 * value that is one reference (`{rule.output.x}`, the usual Assign) read by its slot instead of through the
 * expression's frame and the scope's lookup by name, cast as the expression would cast it.
 */
function assignNow(assignments: readonly Assignment[], scope: FlowScope, ctx: EvaluationContext): NodeOutcome {
  for (let i = 0; i < assignments.length; i++) {
    const assignment = assignments[i]!;
    // Copies, as assignValue does.
    scope.write(assignment.path, cloneJson(valueNow(assignment, scope, ctx)));
  }
  return NOTHING_TRACED;
}

/** One run of an Assign node. */
interface Assigning {
  readonly scope: FlowScope;
  readonly assignments: readonly Assignment[];
  readonly written: Record<string, unknown> | undefined;
}

function assignValue(run: Assigning, i: number, computed: unknown): void {
  const assignment = run.assignments[i]!;
  // Copies, so that a later Assign into `output.x` never changes the input or a rule's result in place.
  const value = cloneJson(computed);
  run.scope.write(assignment.path, value);
  if (run.written !== undefined) run.written[assignment.text] = value;
}

function assignedOutcome(run: Assigning): NodeOutcome {
  return run.written === undefined ? NOTHING_TRACED : { output: run.written };
}

/** The outcome of a node whose trace entry is not wanted: nothing selected, no items, nothing to show. */
const NOTHING_TRACED: NodeOutcome = Object.freeze({});

function compileForeach(node: FlowNodeOf<'FOREACH'>, cc: NodeCompileContext): NodeExecutor {
  const listPath = textField(node.data.listPath) ?? '';
  const path = cc.layout.path(listPath);
  return {
    ruleRefs: NO_REFS,
    run: (scope) => {
      const list = scope.read(path);
      if (list === undefined || list === null) return { items: [], input: list ?? null, output: { length: 0 } };
      if (!Array.isArray(list)) {
        throw new RuleError(`the list to loop over, "${listPath}", is not an array (it is ${describe(list)})`);
      }
      return { items: list, input: list, output: { length: list.length } };
    },
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

interface Mapping {
  readonly target: readonly PathSegment[];
  readonly source: FlowPath;
}

function compileBusinessRule(node: FlowNodeOf<'BUSINESS_RULE'>, cc: NodeCompileContext): NodeExecutor {
  const where = `${node.path}.data`;
  const rule = node.data.rule;
  const alias = textField(rule.ruleAlias);
  const baseId = textField(rule.baseId);
  if (alias === undefined && baseId === undefined) cc.problems.push({ path: `${where}.rule`, message: 'needs the rule to solve (ruleAlias or baseId)' });
  const version = latestOr(rule.version);
  // Normalised once: the node's strategy is fixed (an unknown name is STANDARD, as callRule would read it).
  const strategy = normaliseStrategy(typeof node.data.strategy === 'string' ? node.data.strategy : 'STANDARD');
  const evaluationType = node.data.evaluationType;
  if (evaluationType !== undefined && evaluationType !== null && evaluationType !== 'STATIC') {
    cc.problems.push({ path: `${where}.evaluationType`, message: `${JSON.stringify(evaluationType)} is not supported; Verdict solves STATIC business-rule nodes` });
  }
  const mappings: Mapping[] = (node.data.mapping ?? []).flatMap((entry) => {
    const target = textField(entry.target.path);
    const source = entry.source !== null && typeof entry.source === 'object' ? entry.source : {};
    const sourcePath = textField(source.path);
    // `source: {}` or `disabled: true` leaves that input unmapped.
    if (target === undefined || sourcePath === undefined || source.disabled === true) return [];
    return [{ target: flowPath(target), source: cc.layout.path(sourcePath) }];
  });
  const slot = cc.layout.slotOf(nodeKey(node));
  const primary = alias ?? baseId ?? '';
  const call: RuleNodeCall = { alias, baseId, version, strategy, mappings, slot, nodeVersion: node.version, columns: new ColumnPlan(mappings.map((mapping) => mapping.target)) };
  return {
    ruleRefs: primary === '' ? NO_REFS : [version === undefined ? { idOrAlias: primary } : { idOrAlias: primary, version }],
    run: (scope, ctx) => (ctx.trace ? runRuleNodeTraced(call, scope, ctx) : runRuleNode(call, scope, ctx, false)),
    runAlone: (scope, ctx) => runRuleNode(call, scope, ctx, true),
  };
}

/** What a BUSINESS_RULE node calls and how, fixed at compile time. */
interface RuleNodeCall {
  readonly alias: string | undefined;
  readonly baseId: string | undefined;
  readonly version: number | undefined;
  readonly strategy: Strategy;
  readonly mappings: readonly Mapping[];
  /** The slot of the node's name. */
  readonly slot: number;
  readonly nodeVersion: number;
  /** Which mapping feeds each input column of the rule, when it needs no input object. */
  readonly columns: ColumnPlan;
}

/**
 * An untraced run: the outcome holds only the items the node loops over. A table reading only its columns gets
 * their values (flow/column-call.ts), and under FIRST_MATCH its matching row's shared output itself (the flow only
 * reads a node's output, and copies what it passes on); other rules get the node input object.
 */
function runRuleNode(call: RuleNodeCall, scope: FlowScope, ctx: EvaluationContext, alone: boolean): MaybePromise<NodeOutcome> {
  const target = findRule(ctx, call.alias, call.baseId, call.version);
  const sources = call.columns.sourcesFor(target);
  let result: MaybePromise<Json[]>;
  if (sources !== undefined) {
    const values = columnValues(call.mappings, sources, scope);
    if (call.strategy === 'FIRST_MATCH') {
      const output = callFirstColumns(target, values, ctx) ?? null;
      if (alone && scope.get(call.slot) === undefined && !Array.isArray(output)) {
        scope.set(call.slot, loneRuleState(output));
        return NOTHING_TRACED;
      }
      return { items: exposeOutput(scope, call.slot, output) };
    }
    result = callColumns(target, values, ctx, call.strategy);
  } else {
    result = callRule(target, nodeInput(call.mappings, scope), ctx, call.strategy) as MaybePromise<Json[]>;
  }
  return result instanceof Promise ? result.then((settled) => ruleNodeOutcome(call, scope, target, undefined, settled)) : ruleNodeOutcome(call, scope, target, undefined, result);
}

/** A traced run: the node input is always built (the trace shows it). */
function runRuleNodeTraced(call: RuleNodeCall, scope: FlowScope, ctx: EvaluationContext): MaybePromise<NodeOutcome> {
  const target = findRule(ctx, call.alias, call.baseId, call.version);
  const input = nodeInput(call.mappings, scope);
  const result = callRule(target, input, ctx, call.strategy) as MaybePromise<Json[]>;
  return result instanceof Promise ? result.then((settled) => ruleNodeOutcome(call, scope, target, input, settled)) : ruleNodeOutcome(call, scope, target, input, result);
}

/** The input object a rule node's mappings build (copies of the values they read). */
function nodeInput(mappings: readonly Mapping[], scope: FlowScope): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const mapping of mappings) {
    const value = scope.read(mapping.source);
    if (value !== undefined) setAt(input, mapping.target, cloneJson(value));
  }
  return input;
}

/** The values a rule node's input object would hold at its rule's column paths (`sources`: ColumnPlan.sourcesFor). */
function columnValues(mappings: readonly Mapping[], sources: readonly number[], scope: FlowScope): unknown[] {
  const values = new Array<unknown>(sources.length);
  for (let i = 0; i < sources.length; i++) {
    const m = sources[i]!;
    if (m >= 0) values[i] = scope.read(mappings[m]!.source);
  }
  return values;
}

/** What a BUSINESS_RULE node does with its rule's answer; `input` only when tracing. */
function ruleNodeOutcome(call: RuleNodeCall, scope: FlowScope, target: CompiledRule, input: Record<string, unknown> | undefined, result: Json[]): NodeOutcome {
  const output = nodeOutput(result, target, call.strategy, call.nodeVersion);
  const items = exposeOutput(scope, call.slot, output);
  return input === undefined ? { items } : { items, input, output };
}

/**
 * The object of a rule node that runs alone (NodeExecutor.runAlone) and answered one object or null, when nothing
 * exposed that name before: what exposeOutput and then a loop without a body (workflow.ts #loopState,
 * lastItemCurrent) leave, in the same key order, built as one literal instead of four property additions.
 */
function loneRuleState(output: Json): Record<string, unknown> {
  return output === null ? { output, length: 0 } : { output, length: 1, currentItem: output, index: 0 };
}

/** Sets `{node.output}`; the node's items (its loop runs once per item: the array, or the one object). */
function exposeOutput(scope: FlowScope, slot: number, output: Json): readonly unknown[] {
  // A new node object is a literal: `output` is then its own data property whatever Object.prototype holds, as
  // FlowPath.ruleOutput reads it (a later run assigns the property the object already has).
  const existing = scope.get(slot);
  if (existing !== null && typeof existing === 'object' && !Array.isArray(existing)) (existing as Record<string, unknown>).output = output;
  else scope.set(slot, { output });
  return Array.isArray(output) ? output : output === null ? [] : [output];
}

/** `rule.version`: a version number, or null / missing / -1 / "latest" for the latest published version (§11 F9). */
function latestOr(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 ? number : undefined;
}

/** By alias first, then by id (§11 W6): exports reference a flow's rules by alias, ids may change on import. */
function findRule(ctx: EvaluationContext, alias: string | undefined, baseId: string | undefined, version: number | undefined): CompiledRule {
  let aliasError: unknown;
  if (alias !== undefined) {
    try {
      const found = resolveRule(ctx, { idOrAlias: alias, version }, '');
      if (found) return found;
    } catch (error) {
      if (!(error instanceof RuleError) || baseId === undefined) throw error;
      aliasError = error;
    }
  }
  if (baseId !== undefined && baseId !== alias) {
    const found = resolveRule(ctx, { idOrAlias: baseId, version }, '');
    if (found) return found;
  }
  if (aliasError) throw aliasError;
  const names = [alias, baseId].filter((name) => name !== undefined).map((name) => `"${name}"`).join(' / ');
  throw new RuleError(`rule ${names}${version === undefined ? '' : ` version ${version}`} was not found`);
}

/**
 * What `{node.output}` holds (§8.2): STANDARD and EVALUATE_ALL give the result array, FIRST_MATCH and ARRAY one
 * object (null when nothing matched). Node version 2 also unwraps a scripting rule's single result.
 */
function nodeOutput(result: Json[], rule: CompiledRule, strategy: Strategy, nodeVersion: number): Json {
  const single = strategy === 'FIRST_MATCH' || strategy === 'ARRAY' || (nodeVersion >= 2 && rule.type === 'complex-rule');
  if (single) return result[0] ?? null;
  return result;
}

interface SwitchCase {
  readonly name: string;
  readonly isDefault: boolean;
  readonly connectorId: string;
  readonly conditions: readonly { variable: FlowPath; path: string; condition: CompiledCondition }[];
}

function compileSwitch(node: FlowNodeOf<'IF_STATEMENT'>, cc: NodeCompileContext): NodeExecutor {
  const where = `${node.path}.data`;
  const strategy = node.data.evaluationStrategy ?? 'ALL_WINNING';
  if (strategy !== 'ALL_WINNING' && strategy !== 'FIRST_WINNING') {
    cc.problems.push({ path: `${where}.evaluationStrategy`, message: `${JSON.stringify(strategy)} is not a Switch strategy (ALL_WINNING or FIRST_WINNING)` });
  }
  const cases: SwitchCase[] = node.data.cases.map((entry, i) => {
    const casePath = `${where}.cases[${i}]`;
    const conditions = (entry.conditions ?? []).map((condition, j) => {
      const conditionPath = `${casePath}.conditions[${j}]`;
      const variable = textField(condition.variable) ?? '';
      return {
        variable: cc.layout.path(variable),
        path: variable,
        condition: compileCondition(condition.decisionNode.scalarCondition, `${conditionPath}.decisionNode.scalarCondition`, cc.env, cc.problems),
      };
    });
    return {
      name: typeof entry.name === 'string' ? entry.name : `case ${i + 1}`,
      isDefault: entry.type === 'DEFAULT',
      connectorId: typeof entry.connectorId === 'string' ? entry.connectorId : '',
      conditions,
    };
  });
  for (const c of cases) {
    for (const { condition, path } of c.conditions) {
      if (condition.kind === 'else') cc.problems.push({ path: `${where}`, message: `case "${c.name}" tests "${path}" with ELSE, which only tables can use` });
    }
  }
  const firstOnly = strategy === 'FIRST_WINNING';
  return {
    ruleRefs: cases.flatMap((c) => c.conditions.flatMap((entry) => entry.condition.ruleRefs)),
    run: (scope, ctx) => runSwitch({ cases, firstOnly, scope, ctx, selected: new Set(), passed: [], tested: {} }, 0, 0, true),
  };
}

/** One run of a Switch node: the cases tested so far and what they selected. */
interface SwitchRun {
  readonly cases: readonly SwitchCase[];
  readonly firstOnly: boolean;
  readonly scope: FlowScope;
  readonly ctx: EvaluationContext;
  readonly selected: Set<string>;
  readonly passed: string[];
  readonly tested: Record<string, unknown>;
}

/**
 * Tests the cases from case `c`, condition `k` on (`all`: the conditions of case `c` before `k` held); continues
 * after a condition that waits once it settles.
 */
function runSwitch(run: SwitchRun, c: number, k: number, all: boolean): MaybePromise<NodeOutcome> {
  const { cases, scope, ctx } = run;
  for (; c < cases.length; c++, k = 0, all = true) {
    const current = cases[c]!;
    if (current.isDefault) continue;
    if (run.firstOnly && run.passed.length > 0) break;
    const conditions = current.conditions;
    for (; k < conditions.length; k++) {
      const { variable, path, condition } = conditions[k]!;
      const left = scope.read(variable);
      run.tested[path] = left ?? null;
      const ok = condition.test(left, scope, ctx);
      if (ok instanceof Promise) return resumeSwitch(ok, run, c, k);
      if (!ok) {
        all = false;
        break;
      }
    }
    if (all) {
      run.passed.push(current.name);
      run.selected.add(current.connectorId);
    }
  }
  if (run.passed.length === 0) {
    for (const current of cases) {
      if (current.isDefault) {
        run.passed.push(current.name);
        run.selected.add(current.connectorId);
      }
    }
  }
  return { selected: run.selected, input: run.tested, output: { cases: run.passed } };
}

function resumeSwitch(pending: Promise<boolean>, run: SwitchRun, c: number, k: number): Promise<NodeOutcome> {
  // A failed condition ends its case: continue with the next case; a passed one with the case's next condition.
  return pending.then((ok) => (ok ? runSwitch(run, c, k + 1, true) : runSwitch(run, c, pastConditions(run, c), false)));
}

/** The position just past the last condition of case `c` (resuming there records the case's outcome). */
function pastConditions(run: SwitchRun, c: number): number {
  return run.cases[c]!.conditions.length;
}

function compileAppend(node: FlowNodeOf<'ARRAY_APPEND'>, cc: NodeCompileContext): NodeExecutor {
  const where = `${node.path}.data`;
  const target = node.data.target;
  const targetSegments = targetPath(target.path, `${where}.target.path`, cc);
  const values = node.data.values.flatMap((entry) => {
    const path = textField(entry.path);
    return path === undefined ? [] : [cc.layout.path(path)];
  });
  const slot = cc.layout.slotOf(nodeKey(node));
  const targetText = String(target.path);
  return {
    ruleRefs: NO_REFS,
    run: (scope) => {
      if (!targetSegments) return {};
      let list = scope.read(targetSegments);
      if (list === undefined || list === null) {
        list = [];
        scope.write(targetSegments, list);
      } else if (!Array.isArray(list)) {
        throw new RuleError(`cannot append to "${targetText}": it holds ${describe(list)}, not an array`);
      }
      const appended: unknown[] = [];
      for (const segments of values) {
        const value = scope.read(segments);
        if (value === undefined) continue;
        const copy = cloneJson(value);
        (list as unknown[]).push(copy);
        appended.push(copy);
      }
      // `{appendNode}` is the target array itself (§11 W4).
      scope.set(slot, list);
      return { input: appended, output: list };
    },
  };
}
