// Compiles one condition (`scalarCondition` of a table cell, a tree condition node, or a flow Switch condition)
// into a test of the left operand. Constant cells are coerced once; cells with `{var}` references resolve them
// from the Scope per solve; function cells go through the expression language.
import type { Problem } from '../errors.ts';
import { ValidationError } from '../errors.ts';
import {
  compileStoredExpression,
  invalidExpression,
  type CompiledExpression,
  type ConditionOutcome,
  type ExpressionCompileOptions,
  type ExpressionFootprint,
  type Scope,
  type StoredExpression,
} from '../expression/index.ts';
import type { EvaluationContext, RuleRef } from '../types.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import { compileGeneralTest, type LeftTest } from './general.ts';
import { compileDateTest, dateOperandValues, parseDateOperand, type DateTest } from './date-conditions.ts';
import type { DateParts } from './dates.ts';
import { parseDateValue } from './dates.ts';
import { cellText, setMembers } from './operands.ts';
import { DATE_OPERATORS, normaliseOperator, OPERAND_SHAPE, type Operator } from '../../rules/operators.ts';
import { compileTemplate, constantTemplate, type CompiledTemplate, type StaticResolver } from './references.ts';

/** What a cell compiler needs to know about where the cell sits. */
export interface CellEnvironment {
  /** Zone assumed for date values that name none (§11 D3). */
  readonly timeZone: string;
  /** Compile-time resolution of `{x}` references; DYNAMIC when the Scope must answer per solve. */
  readonly resolveStatic: StaticResolver;
  /** Options for compiling function cells (arithmetic grouping of expression text). */
  readonly expressionOptions?: ExpressionCompileOptions;
  /** The expression compiler for function cells; compileStoredExpression unless a test supplies a double. */
  readonly compileExpression?: (stored: StoredExpression, where: string, options?: ExpressionCompileOptions) => CompiledExpression;
  /**
   * Where function cells that do not compile are reported when the rule should load anyway: such a cell then
   * evaluates as invalid (docs/decisions/tables-invalid-cells.md). Without it they are problems of the rule.
   */
  readonly warnings?: Problem[];
}

/** A function cell that did not compile: a warning and an invalid expression, or (without warnings) problems. */
export function uncompiledCell(error: unknown, stored: Record<string, unknown>, where: string, env: CellEnvironment, problems: Problem[]): CompiledExpression | undefined {
  const found = error instanceof ValidationError ? error.problems : [{ path: where, message: error instanceof Error ? error.message : String(error) }];
  if (!env.warnings) {
    problems.push(...found);
    return undefined;
  }
  env.warnings.push(...found);
  const source = typeof stored.stringValue === 'string' ? stored.stringValue : JSON.stringify(stored.value ?? null);
  return invalidExpression(source, `does not compile: ${found.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
}

/** One evaluation, explained for the debug trace (§10.1). */
export interface ConditionExplanation {
  result: boolean;
  /** The right operand after variable resolution (text, list, or the expression's source). */
  value: unknown;
  error?: string;
}

export type ConditionKind = 'else' | 'static' | 'dynamic' | 'function';

export interface CompiledCondition {
  readonly operator: Operator;
  /**
   * `else`: the caller decides (passes when no earlier row matched). `static`: `test` needs neither scope nor
   * context beyond `ctx.now` for partial dates. `dynamic`: operands come from the scope. `function`: an expression.
   */
  readonly kind: ConditionKind;
  readonly isDate: boolean;
  /** True when `test` and `explain` may answer with a promise (a function cell whose expression waits). */
  readonly async: boolean;
  readonly ruleRefs: readonly RuleRef[];
  /** Static general cells: the resolved operand (text, member list, or [lo, hi]). Used by the table index. */
  readonly operand: unknown;
  /** Static general cells: the test of the left operand alone (no scope, no context), for hot loops. */
  readonly leftTest: LeftTest | undefined;
  /** Function cells compiled by the expression language: what the expression reads (see ExpressionFootprint). */
  readonly footprint: ExpressionFootprint | undefined;
  /** A boolean, or a promise of one when `async`. */
  test(left: unknown, scope: Scope | undefined, ctx: EvaluationContext): MaybePromise<boolean>;
  /** Function cells that do not wait: `test`, for a caller that remembers the outcome for the solve. */
  matches?(scope: Scope, ctx: EvaluationContext): boolean;
  /** Function cells: the compiled expression. */
  readonly expression?: CompiledExpression;
  explain(left: unknown, scope: Scope | undefined, ctx: EvaluationContext): MaybePromise<ConditionExplanation>;
}

const NO_REFS: readonly RuleRef[] = [];

/** A missing condition (no cell for the column) is `anything` (§2.3). One shared object: it holds no state. */
export function anythingCondition(): CompiledCondition {
  return ANYTHING;
}

/**
 * Compiles a stored condition. `where` is the JSON path of the `scalarCondition` object, used in messages.
 * Problems are appended to `problems` (so a rule reports all of them at once); the returned condition is then a
 * placeholder that never matches.
 */
export function compileCondition(stored: unknown, where: string, env: CellEnvironment, problems: Problem[]): CompiledCondition {
  if (stored === undefined || stored === null) return anythingCondition();
  if (typeof stored !== 'object' || Array.isArray(stored)) {
    problems.push({ path: where, message: 'a condition must be an object with operator and value' });
    return neverCondition();
  }
  const cell = stored as Record<string, unknown>;
  const type = typeof cell.type === 'string' ? cell.type.toLowerCase() : 'general';
  const operator = normaliseOperator(cell.operator ?? (type === 'function' ? 'function' : 'anything'));
  if (operator === undefined) {
    problems.push({ path: `${where}.operator`, message: `unknown operator ${JSON.stringify(cell.operator)}` });
    return neverCondition();
  }
  if (operator === 'function' || type === 'function') return functionCondition(cell, where, env, problems);
  if (operator === 'ELSE') return elseCondition();
  if (type === 'date') return dateCondition(operator, cell.value, where, env, problems);
  if (type !== 'general') {
    problems.push({ path: `${where}.type`, message: `unknown condition type ${JSON.stringify(cell.type)} (expected general, date or function)` });
    return neverCondition();
  }
  return generalCondition(operator, cell.value, where, env, problems);
}

function generalCondition(operator: Operator, value: unknown, where: string, env: CellEnvironment, problems: Problem[]): CompiledCondition {
  const shape = OPERAND_SHAPE[operator];
  if (shape === 'none') return staticCondition(operator, false, undefined, compileGeneralTest(operator, undefined));
  const operand = compileOperand(operator, value, `${where}.value`, env, problems);
  if (operand === undefined) return neverCondition(operator);
  if (operand.constant) {
    const resolved = operand.value;
    if (shape === 'range' && (resolved as unknown[]).length !== 2) {
      problems.push({ path: `${where}.value`, message: `operator ${operator} needs two bounds [from, to], got ${(resolved as unknown[]).length}` });
      return neverCondition(operator);
    }
    return staticCondition(operator, false, resolved, compileGeneralTest(operator, resolved));
  }
  const testWith = (left: unknown, scope: Scope | undefined): { result: boolean; value: unknown } => {
    const resolved = operand.evaluate(requireScope(scope));
    return { result: compileGeneralTest(operator, resolved)(left), value: resolved };
  };
  return dynamicCondition(operator, false, testWith);
}

function dateCondition(operator: Operator, value: unknown, where: string, env: CellEnvironment, problems: Problem[]): CompiledCondition {
  if (!DATE_OPERATORS.has(operator)) {
    problems.push({ path: `${where}.operator`, message: `operator ${operator} cannot be used in a date cell` });
    return neverCondition(operator);
  }
  const zone = env.timeZone;
  const shape = OPERAND_SHAPE[operator];
  if (shape === 'none') {
    const test = compileDateTest(operator, [], zone);
    return staticCondition(operator, true, undefined, (left: unknown) => test(left, 0));
  }
  const members = dateOperandValues(operator, value).map((member) =>
    typeof member === 'string' ? compileTemplate(cellText(member), env.resolveStatic) : constantTemplate(member),
  );
  const expected = shape === 'range' ? 2 : shape === 'scalar' ? 1 : undefined;
  if (expected !== undefined && members.length !== expected) {
    problems.push({ path: `${where}.value`, message: `operator ${operator} in a date cell needs ${expected === 2 ? 'two dates [from, to]' : 'one date'}, got ${members.length}` });
    return neverCondition(operator);
  }
  if (members.every((member) => member.constant)) {
    const parsed: (DateParts | number)[] = [];
    members.forEach((member, index) => {
      const result = parseDateOperand(member.value);
      if (result.ok) parsed.push(result.parts);
      else problems.push({ path: members.length === 1 && !Array.isArray(value) ? `${where}.value` : `${where}.value[${index}]`, message: `${JSON.stringify(result.text)} is not a date (expected e.g. "2024-05-15 01:25 +00:00")` });
    });
    if (parsed.length !== members.length) return neverCondition(operator);
    const test = compileDateTest(operator, parsed, zone);
    const shown = shape === 'scalar' ? members[0]!.value : members.map((member) => member.value);
    return staticCondition(operator, true, shown, (left: unknown, ctx: EvaluationContext) => test(left, ctx.now));
  }
  const testWith = (left: unknown, scope: Scope | undefined, ctx: EvaluationContext): { result: boolean; value: unknown } => {
    const values = members.map((member) => member.evaluate(requireScope(scope)));
    const parsed: (DateParts | number)[] = [];
    for (const resolved of values) {
      const parts = parseDateValue(typeof resolved === 'string' ? cellText(resolved) : resolved);
      if (parts === undefined) return { result: false, value: shape === 'scalar' ? values[0] : values };
      parsed.push(parts);
    }
    const test: DateTest = compileDateTest(operator, parsed, zone);
    return { result: test(left, ctx.now), value: shape === 'scalar' ? values[0] : values };
  };
  return dynamicCondition(operator, true, testWith);
}

interface CompiledOperand {
  readonly constant: boolean;
  readonly value: unknown;
  evaluate(scope: Scope): unknown;
}

/** The operand of a general cell, with references compiled (§2.9 "Variables inside set members"). */
function compileOperand(operator: Operator, value: unknown, where: string, env: CellEnvironment, problems: Problem[]): CompiledOperand | undefined {
  const shape = OPERAND_SHAPE[operator];
  if (shape === 'scalar' || shape === 'text') {
    let scalar = value;
    if (Array.isArray(scalar)) {
      if (shape === 'text') return compileList(scalar, env, false);
      if (scalar.length > 1) {
        problems.push({ path: where, message: `operator ${operator} needs one value, got a list of ${scalar.length}` });
        return undefined;
      }
      scalar = scalar.length === 1 ? scalar[0] : '';
    }
    return compileMember(scalar, env);
  }
  return compileList(setMembers(value), env, true);
}

function compileMember(value: unknown, env: CellEnvironment): CompiledTemplate {
  if (typeof value === 'string') return compileTemplate(cellText(value), env.resolveStatic);
  if (value === null || value === undefined) return constantTemplate('');
  return constantTemplate(value);
}

/** A list operand; a member that resolves to an array contributes its elements (a variable holding a set). */
function compileList(members: readonly unknown[], env: CellEnvironment, flatten: boolean): CompiledOperand {
  const compiled = members.map((member) => compileMember(member, env));
  if (compiled.every((member) => member.constant)) return constantTemplate(spread(compiled.map((member) => member.value), flatten));
  return { constant: false, value: undefined, evaluate: (scope) => spread(compiled.map((member) => member.evaluate(scope)), flatten) };
}

/** With `flatten`, members that are arrays contribute their elements. */
function spread(values: unknown[], flatten: boolean): unknown[] {
  if (!flatten || !values.some(Array.isArray)) return values;
  return values.flatMap((v) => (Array.isArray(v) ? v : [v]));
}


function functionCondition(cell: Record<string, unknown>, where: string, env: CellEnvironment, problems: Problem[]): CompiledCondition {
  let expression: CompiledExpression;
  try {
    expression = (env.compileExpression ?? compileStoredExpression)({ stringValue: cell.stringValue, value: cell.value }, where, env.expressionOptions);
  } catch (error) {
    const invalid = uncompiledCell(error, cell, where, env, problems);
    return invalid ? new FunctionCondition(invalid) : neverCondition('function');
  }
  return new FunctionCondition(expression);
}

// The condition kinds are classes rather than object literals of closures: a large table holds one object per
// distinct cell, and methods on a prototype cost nothing per cell.

class FunctionCondition implements CompiledCondition {
  readonly operator = 'function';
  readonly kind = 'function';
  readonly isDate = false;
  readonly async: boolean;
  readonly ruleRefs: readonly RuleRef[];
  readonly operand = undefined;
  readonly leftTest = undefined;
  readonly footprint: ExpressionFootprint | undefined;
  readonly expression: CompiledExpression;

  constructor(expression: CompiledExpression) {
    this.expression = expression;
    this.async = expression.async;
    this.ruleRefs = expression.ruleRefs;
    this.footprint = expression.footprint;
  }

  test(_left: unknown, scope: Scope | undefined, ctx: EvaluationContext): MaybePromise<boolean> {
    const outcome = this.expression.evaluateCondition(requireScope(scope), ctx);
    return outcome instanceof Promise ? outcome.then(matchedOf) : outcome.matched;
  }

  explain(_left: unknown, scope: Scope | undefined, ctx: EvaluationContext): MaybePromise<ConditionExplanation> {
    const outcome = this.expression.evaluateCondition(requireScope(scope), ctx);
    return outcome instanceof Promise ? this.explainLater(outcome) : this.explained(outcome);
  }

  /** `test` of a cell that does not wait, for a caller that remembers the outcome (CompiledExpression.matches). */
  matches(scope: Scope, ctx: EvaluationContext): boolean {
    const expression = this.expression;
    return expression.matches !== undefined ? expression.matches(scope, ctx) : (this.test(undefined, scope, ctx) as boolean);
  }

  private explainLater(pending: Promise<ConditionOutcome>): Promise<ConditionExplanation> {
    return pending.then((settled) => this.explained(settled));
  }

  private explained(outcome: ConditionOutcome): ConditionExplanation {
    const source = this.expression.source;
    return outcome.error === undefined ? { result: outcome.matched, value: source } : { result: outcome.matched, value: source, error: outcome.error };
  }
}

class StaticCondition implements CompiledCondition {
  readonly kind = 'static';
  readonly async = false;
  readonly ruleRefs = NO_REFS;
  readonly footprint = undefined;
  readonly operator: Operator;
  readonly isDate: boolean;
  readonly operand: unknown;
  readonly leftTest: LeftTest | undefined;
  private readonly run: (left: unknown, ctx: EvaluationContext) => boolean;

  constructor(operator: Operator, isDate: boolean, operand: unknown, test: LeftTest | ((left: unknown, ctx: EvaluationContext) => boolean)) {
    this.operator = operator;
    this.isDate = isDate;
    this.operand = operand;
    this.run = test as (left: unknown, ctx: EvaluationContext) => boolean;
    this.leftTest = isDate ? undefined : (test as LeftTest);
  }

  test(left: unknown, _scope: Scope | undefined, ctx: EvaluationContext): boolean {
    return this.run(left, ctx);
  }

  explain(left: unknown, _scope: Scope | undefined, ctx: EvaluationContext): ConditionExplanation {
    return { result: this.run(left, ctx), value: this.operand ?? '' };
  }
}

function staticCondition(
  operator: Operator,
  isDate: boolean,
  operand: unknown,
  test: LeftTest | ((left: unknown, ctx: EvaluationContext) => boolean),
): CompiledCondition {
  return new StaticCondition(operator, isDate, operand, test);
}

type DynamicTest = (left: unknown, scope: Scope | undefined, ctx: EvaluationContext) => { result: boolean; value: unknown };

class DynamicCondition implements CompiledCondition {
  readonly kind = 'dynamic';
  readonly async = false;
  readonly ruleRefs = NO_REFS;
  readonly operand = undefined;
  readonly leftTest = undefined;
  readonly footprint = undefined;
  readonly operator: Operator;
  readonly isDate: boolean;
  private readonly testWith: DynamicTest;

  constructor(operator: Operator, isDate: boolean, testWith: DynamicTest) {
    this.operator = operator;
    this.isDate = isDate;
    this.testWith = testWith;
  }

  test(left: unknown, scope: Scope | undefined, ctx: EvaluationContext): boolean {
    return this.testWith(left, scope, ctx).result;
  }

  explain(left: unknown, scope: Scope | undefined, ctx: EvaluationContext): ConditionExplanation {
    return this.testWith(left, scope, ctx);
  }
}

function dynamicCondition(operator: Operator, isDate: boolean, testWith: DynamicTest): CompiledCondition {
  return new DynamicCondition(operator, isDate, testWith);
}

const ELSE_CONDITION: CompiledCondition = {
  operator: 'ELSE',
  kind: 'else',
  isDate: false,
  async: false,
  ruleRefs: NO_REFS,
  operand: undefined,
  leftTest: undefined,
  footprint: undefined,
  test: () => false,
  explain: () => ({ result: false, value: '' }),
};

function elseCondition(): CompiledCondition {
  return ELSE_CONDITION;
}

/** Stands in for a condition that failed to compile; compilation then throws, so it is never evaluated. */
function neverCondition(operator: Operator = 'anything'): CompiledCondition {
  return staticCondition(operator, false, undefined, () => false);
}

function matchedOf(outcome: ConditionOutcome): boolean {
  return outcome.matched;
}

function requireScope(scope: Scope | undefined): Scope {
  if (scope === undefined) throw new Error('internal: a dynamic condition was evaluated without a scope');
  return scope;
}

const ANYTHING: CompiledCondition = staticCondition('anything', false, undefined, () => true);
