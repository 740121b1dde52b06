// Builders for decision-table documents in the stored format, and a test double of the expression compiler.
import { createContext } from '../../src/engine/context.ts';
import type { CompiledExpression, Scope, StoredExpression } from '../../src/engine/expression/index.ts';
import { compileDecisionTableWith, type TableCompileOptions } from '../../src/engine/table/compile.ts';
import type { CompileOptions, CompiledRule, EvaluationContext, RuleRef, SolveOptions, SolveResult } from '../../src/engine/types.ts';
import type { MaybePromise } from '../../src/engine/maybe-promise.ts';
import { ValidationError } from '../../src/engine/errors.ts';
import { readRule } from '../../src/rules/validate.ts';
import type { RuleModelOf, RuleType } from '../../src/rules/rule-types.ts';

export interface ColumnSpec {
  id: string;
  kind: 'input' | 'output' | 'calc';
  /** input path, output path or calc variable */
  target: string;
  alias?: string;
  /** `old`: condition.inputVariable (≤1.18); `new`: condition.definition.content */
  form?: 'old' | 'new';
}

export interface RowSpec {
  cells: Record<string, unknown>;
  active?: boolean;
  timeValidation?: unknown;
}

export function cond(operator: string, value: unknown = '', type = 'general'): Record<string, unknown> {
  return { operator, value, type };
}

export function common(value: unknown): Record<string, unknown> {
  return { type: 'common', value };
}

export function fn(stringValue: string): Record<string, unknown> {
  return { type: 'function', stringValue, value: stringValue };
}

export function fnCondition(stringValue: string): Record<string, unknown> {
  return { operator: 'function', type: 'function', stringValue, value: stringValue };
}

export function tableDoc(spec: {
  columns: ColumnSpec[];
  rows: RowSpec[];
  outputSchema?: unknown;
  userVariables?: unknown[];
}): Record<string, unknown> {
  const columns = spec.columns.map((column) => {
    const base: Record<string, unknown> = { columnId: column.id, type: column.kind };
    if (column.alias) base.alias = column.alias;
    if (column.kind === 'input') {
      base.condition =
        column.form === 'old'
          ? { type: 'simple', name: column.id, inputVariable: column.target }
          : { type: 'simple', name: column.id, definition: { content: column.target, type: 'INPUT_VARIABLE', valid: true } };
    } else if (column.kind === 'output') {
      base.columnOutput = { type: 'simple', name: column.id, outputVariable: column.target };
    } else {
      base.calculation = { name: column.id, variable: column.target };
    }
    return base;
  });
  const kindOf = new Map(spec.columns.map((column) => [column.id, column.kind]));
  const rows = spec.rows.map((row) => {
    const cells = Object.entries(row.cells).map(([column, content]) => {
      const kind = kindOf.get(column);
      if (kind === 'input') return { column, type: 'input', scalarCondition: content };
      return { column, type: kind, outputScalarValue: content };
    });
    const stored: Record<string, unknown> = { active: row.active ?? true, cells };
    if (row.timeValidation !== undefined) stored.timeValidation = row.timeValidation;
    return stored;
  });
  const doc: Record<string, unknown> = {
    type: 'decision-table',
    name: 'test table',
    status: 'published',
    inputSchema: {},
    outputSchema: spec.outputSchema ?? {},
    decisionTable: { columns, rows },
  };
  if (spec.userVariables) doc.userVariables = spec.userVariables;
  return doc;
}

/** Engine compile options with their defaults, as compileRule passes them to a rule compiler. */
export function compileOptions(overrides: CompileOptions = {}): Required<CompileOptions> {
  return { timeZone: 'UTC', arithmeticAssociativity: 'left', ...overrides } as Required<CompileOptions>;
}

/** Reads `doc` into its model as compileRule does: a malformed one throws ValidationError. */
export function modelOf<T extends RuleType>(doc: unknown, type: T): RuleModelOf<T> {
  const { problems, model } = readRule(doc);
  if (model === undefined) throw new ValidationError(problems);
  if (model.type !== type) throw new Error(`expected a ${type}, read a ${model.type}`);
  return model as RuleModelOf<T>;
}

/** Reads `doc` into its model (modelOf), then compiles it with `options`. */
export function compileTable(doc: Record<string, unknown>, options: TableCompileOptions & { timeZone?: string } = {}): CompiledRule {
  return compileDecisionTableWith(modelOf(doc, 'decision-table'), compileOptions(options.timeZone ? { timeZone: options.timeZone } : {}), options);
}

export const FIXED_NOW = Date.UTC(2024, 8, 20, 12, 0, 0);

export function context(options: SolveOptions = {}): EvaluationContext {
  return createContext({ ...options, now: options.now ?? FIXED_NOW });
}

export function run(rule: CompiledRule, input: unknown, options: SolveOptions = {}): SolveResult {
  const result = rule.evaluate(input, context(options));
  if (result instanceof Promise) throw new Error('expected a synchronous rule');
  return result;
}

/** Result values only, as plain JSON (drops undefined, checks the result is serialisable). */
export function solveJson(rule: CompiledRule, input: unknown, options: SolveOptions = {}): unknown {
  return JSON.parse(JSON.stringify(run(rule, input, options).result));
}

type StubBody = (scope: Scope, ctx: EvaluationContext) => unknown;

/**
 * A test double of the expression compiler: each known `stringValue` maps to a function of the scope. Calls are
 * counted per source so tests can see which cells were evaluated.
 */
export function stubExpressions(
  bodies: Record<string, StubBody>,
  options: { async?: readonly string[]; ruleRefs?: Record<string, RuleRef[]> } = {},
): { compileExpression: (stored: StoredExpression, where: string) => CompiledExpression; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const compileExpression = (stored: StoredExpression, where: string): CompiledExpression => {
    const source = String(stored.stringValue ?? stored.value);
    const body = bodies[source];
    if (!body) throw new Error(`no stub for expression ${JSON.stringify(source)} at ${where}`);
    const evaluate = (scope: Scope, ctx: EvaluationContext): unknown => {
      calls.set(source, (calls.get(source) ?? 0) + 1);
      return body(scope, ctx);
    };
    // An asynchronous stub answers with a promise, as an expression that waits does.
    const waits = options.async?.includes(source) ?? false;
    const answer = <T>(value: T): MaybePromise<T> => (waits ? Promise.resolve(value) : value);
    return {
      source,
      async: waits,
      ruleRefs: options.ruleRefs?.[source] ?? [],
      evaluateOutput: (scope, ctx) => answer(evaluate(scope, ctx)),
      evaluateCondition: (scope, ctx) => {
        const value = evaluate(scope, ctx);
        return answer(value === true ? { matched: true } : { matched: false, error: typeof value === 'boolean' ? undefined : `not a boolean: ${JSON.stringify(value)}` });
      },
      evaluateRaw: (scope, ctx) => answer(evaluate(scope, ctx)),
    };
  };
  return { compileExpression, calls };
}

/** Reads `{path}` through a scope as an expression would. */
export function ref(scope: Scope, path: string): unknown {
  return scope.resolve(path.split('.'), path);
}
