// Result and calc cells (`outputScalarValue`, §2.4, §2.10): simple values are text with optional `{var}`
// references, cast by JSON parsing; function values go through the expression language, which applies its own
// output casting.
import type { Problem } from '../errors.ts';
import { castSimpleValueText, compileStoredExpression, type CompiledExpression, type Scope } from '../expression/index.ts';
import type { EvaluationContext, RuleRef } from '../types.ts';
import type { PathSegment } from '../path.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import { uncompiledCell, type CellEnvironment } from './condition.ts';
import { cloneJson } from './output-layout.ts';
import { compileTemplate, type CompiledTemplate } from './references.ts';

export interface CompiledValue {
  /** True when the value needs no evaluation: `constant` holds it (object constants must be cloned on output). */
  readonly isConstant: boolean;
  readonly constant: unknown;
  /** True when `evaluate` may answer with a promise (a function value whose expression waits). */
  readonly async: boolean;
  readonly ruleRefs: readonly RuleRef[];
  /** For traces: the cell's source text. */
  readonly source: string;
  /**
   * Set when the value is an expression that is one reference `{a.b}` (ExpressionFootprint.reference): its value
   * is castExpressionOutput of what the scope holds there (null for nothing).
   */
  readonly reference?: readonly PathSegment[];
  /**
   * Set for a function value: its expression, whose evaluateOutput is this value (with undefined as null). A caller
   * that knows the value never waits may call it directly, one call less per result (table/evaluate.ts direct rows).
   */
  readonly expression?: CompiledExpression;
  /** The value, or a promise of it when `async`. */
  evaluate(scope: Scope | undefined, ctx: EvaluationContext): MaybePromise<unknown>;
}

const NO_REFS: readonly RuleRef[] = [];

/** A value that is always the same. Objects and arrays are handed out as copies so callers may own them. */
export function constantValue(value: unknown, source = typeof value === 'string' ? value : JSON.stringify(value) ?? ''): CompiledValue {
  return new ConstantValue(value, source);
}

// Values are classes rather than object literals of closures: a large table holds one per distinct cell.
class ConstantValue implements CompiledValue {
  readonly isConstant = true;
  readonly async = false;
  readonly ruleRefs = NO_REFS;
  readonly constant: unknown;
  readonly source: string;
  private readonly isObject: boolean;

  constructor(value: unknown, source: string) {
    this.constant = value;
    this.source = source;
    this.isObject = value !== null && typeof value === 'object';
  }

  evaluate(): unknown {
    return this.isObject ? cloneJson(this.constant) : this.constant;
  }
}

/**
 * Compiles a stored `outputScalarValue`. A missing cell gives "" (§2.3). `where` is the path of the
 * outputScalarValue object. Problems are appended to `problems`; the returned value is then a placeholder.
 */
export function compileResultValue(stored: unknown, where: string, env: CellEnvironment, problems: Problem[]): CompiledValue {
  if (stored === undefined || stored === null) return constantValue('');
  if (typeof stored !== 'object' || Array.isArray(stored)) {
    problems.push({ path: where, message: 'a result value must be an object with type and value' });
    return constantValue(null);
  }
  const cell = stored as Record<string, unknown>;
  const type = typeof cell.type === 'string' ? cell.type.toLowerCase() : undefined;
  const isAst = cell.value !== null && typeof cell.value === 'object' && !Array.isArray(cell.value) && 'functionName' in cell.value;
  if (type === 'function' || (type === undefined && isAst)) return expressionValue(cell, where, env, problems);
  if (type !== undefined && type !== 'common') {
    problems.push({ path: `${where}.type`, message: `unknown value type ${JSON.stringify(cell.type)} (expected common or function)` });
    return constantValue(null);
  }
  return simpleValue(cell.value, env);
}

function simpleValue(value: unknown, env: CellEnvironment): CompiledValue {
  if (value === undefined || value === null) return constantValue('');
  if (typeof value !== 'string') return constantValue(value);
  const template = compileTemplate(value, env.resolveStatic);
  if (template.constant) {
    const resolved = template.value;
    return constantValue(typeof resolved === 'string' ? castSimpleValueText(resolved) : resolved, value);
  }
  return new TemplateValue(template, value);
}

class TemplateValue implements CompiledValue {
  readonly isConstant = false;
  readonly constant = undefined;
  readonly async = false;
  readonly ruleRefs = NO_REFS;
  readonly source: string;
  private readonly template: CompiledTemplate;

  constructor(template: CompiledTemplate, source: string) {
    this.template = template;
    this.source = source;
  }

  evaluate(scope: Scope | undefined): unknown {
    if (scope === undefined) throw new Error('internal: a value with variables was evaluated without a scope');
    const resolved = this.template.evaluate(scope);
    return typeof resolved === 'string' ? castSimpleValueText(resolved) : resolved;
  }
}

function expressionValue(cell: Record<string, unknown>, where: string, env: CellEnvironment, problems: Problem[]): CompiledValue {
  try {
    const compile = env.compileExpression ?? compileStoredExpression;
    return new ExpressionValue(compile({ stringValue: cell.stringValue, value: cell.value }, where, env.expressionOptions));
  } catch (error) {
    const invalid = uncompiledCell(error, cell, where, env, problems);
    return invalid ? new ExpressionValue(invalid) : constantValue(null);
  }
}

class ExpressionValue implements CompiledValue {
  readonly isConstant = false;
  readonly constant = undefined;
  readonly async: boolean;
  readonly ruleRefs: readonly RuleRef[];
  readonly source: string;
  readonly reference: readonly PathSegment[] | undefined;
  readonly expression: CompiledExpression;

  constructor(expression: CompiledExpression) {
    this.expression = expression;
    this.async = expression.async;
    this.ruleRefs = expression.ruleRefs;
    this.source = expression.source;
    this.reference = expression.footprint?.reference;
  }

  evaluate(scope: Scope | undefined, ctx: EvaluationContext): MaybePromise<unknown> {
    const value = this.expression.evaluateOutput(requireScope(scope), ctx);
    return value instanceof Promise ? value.then(normalise) : normalise(value);
  }
}

/** Slots use undefined for "not written", so an expression never yields undefined. */
function normalise(value: unknown): unknown {
  return value === undefined ? null : value;
}

function requireScope(scope: Scope | undefined): Scope {
  if (scope === undefined) throw new Error('internal: an expression was evaluated without a scope');
  return scope;
}
