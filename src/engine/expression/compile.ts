// AST -> closures. No user text ever becomes code: every node is a closure over values fixed at compile time.
// Constants are folded, variable paths are pre-parsed, lambda parameters become local slots. Each node is one
// closure returning its value, or a promise of it when a call below it waits (engine/maybe-promise.ts).
import type { Node, VarRef } from './ast.ts';
import type { CompiledExpression, ConditionOutcome, ExpressionFootprint, PerSolveSharing, Scope } from './contract.ts';
import type { CNode, CompileApi, CompileOptionsForNode, Comparison, ComparisonName } from './nodes.ts';
import type { SharedRead } from './per-solve.ts';
import type { Evaluator, Frame } from './runtime.ts';
import type { EvaluationContext, RuleRef } from '../types.ts';
import { getAt, type PathSegment } from '../path.ts';
import { SyntaxProblem } from './lexer.ts';
import { binaryEvaluator, constantNode, failingNode, combineNode } from './nodes.ts';
import { Invalid, cloneJson, defineKey, describe, invalidReason, mustPropagate, toNum, toText } from './runtime.ts';
import { castExpressionOutput, rawOutput } from './cast.ts';
import { findFunction } from './functions/index.ts';
import { OPERATOR_IMPLS, negate } from './arithmetic.ts';
import { knownValue, NOT_KNOWN, operandValue, sharedEvaluator, subexpressionKey } from './per-solve.ts';

/** The evaluation of an expression was invalid (evaluateRaw only; the other methods turn it into null/false). */
export class ExpressionError extends Error {
  readonly source: string;
  constructor(message: string, source: string) {
    super(message);
    this.name = 'ExpressionError';
    this.source = source;
  }
}

function arity(min: number, max: number): string {
  if (min === max) return `${min} argument${min === 1 ? '' : 's'}`;
  if (max === Infinity) return `at least ${min} argument${min === 1 ? '' : 's'}`;
  return `${min} to ${max} arguments`;
}

function keyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  return toText(value);
}

class Compiler implements CompileApi {
  private readonly env = new Map<string, number>();
  slots = 0;
  sharedConstants = false;
  readonly ruleRefs: RuleRef[] = [];
  /** Scope references met while compiling, and whether a function makes the expression unrepeatable. */
  readonly references: (readonly PathSegment[])[] = [];
  repeatable = true;
  /** Sharing of subexpressions fixed per solve (tables); undefined: every node evaluates each time. */
  private readonly sharing: PerSolveSharing | undefined;
  /** Count of things met that may differ between evaluations within one solve (see compile()). */
  private perEvaluation = 0;
  /** Lambda bodies being compiled: their nodes run once per element (PerSolveSlotRegistry.slotOf `repeated`). */
  private lambdaDepth = 0;

  constructor(sharing: PerSolveSharing | undefined) {
    this.sharing = sharing;
  }

  compile(node: Node, options: CompileOptionsForNode = {}): CNode {
    const sharing = this.sharing;
    if (sharing === undefined) return this.compileNode(node, options);
    const before = this.perEvaluation;
    const compiled = this.compileNode(node, options);
    // Fixed for the solve (nothing below reads a lambda parameter, a shadowable reference or a per-call
    // function): computed once per solve and shared, unless it is a constant already or may wait.
    if (this.perEvaluation !== before || compiled.isConst || compiled.waits) return compiled;
    const ref = sharing.slots.slotOf(subexpressionKey(node, options.lenient === true), this.lambdaDepth > 0);
    const shared: CNode = { ev: sharedEvaluator(compiled.ev, ref), waits: false, isConst: false, value: undefined, shared: { ref, ev: compiled.ev } };
    if (compiled.comparison !== undefined) shared.comparison = compiled.comparison;
    return shared;
  }

  markPerEvaluation(): void {
    this.perEvaluation++;
  }

  private compileNode(node: Node, options: CompileOptionsForNode): CNode {
    switch (node.kind) {
      case 'literal':
        return constantNode(node.value);
      case 'text':
        return constantNode(node.raw);
      case 'interpolated':
        return this.interpolated(node.parts);
      case 'var':
        return this.variable(node, options.lenient === true);
      case 'array':
        return combineNode(
          node.items.map((item) => this.compile(item)),
          (values) => values,
          { foldable: true, api: this },
        );
      case 'object':
        return this.object(node.members.flatMap((m) => [m.key, m.value]));
      case 'unary': {
        const operand = this.compile(node.operand);
        const op = node.op === '-' ? negate : (v: unknown) => toNum(v, "operator '+'");
        return combineNode([operand], (values) => op(values[0]), { foldable: true, api: this });
      }
      case 'binary':
        return this.binary(node.op, this.compile(node.left), this.compile(node.right));
      case 'call':
        return this.call(node, options);
    }
  }

  withLocals<T>(names: readonly string[], body: () => T): { slots: number[]; result: T } {
    const saved = names.map((name) => this.env.get(name));
    const slots = names.map((name) => {
      const slot = this.slots++;
      this.env.set(name, slot);
      return slot;
    });
    this.lambdaDepth++;
    try {
      return { slots, result: body() };
    } finally {
      this.lambdaDepth--;
      for (let i = names.length - 1; i >= 0; i--) {
        const previous = saved[i];
        if (previous === undefined) this.env.delete(names[i]!);
        else this.env.set(names[i]!, previous);
      }
    }
  }

  fail(reason: string, node: Node): never {
    throw new SyntaxProblem(reason, node.pos);
  }

  markSharedConstant(): void {
    this.sharedConstants = true;
  }

  addRuleRef(ref: RuleRef): void {
    if (!this.ruleRefs.some((r) => r.idOrAlias === ref.idOrAlias && r.version === ref.version)) this.ruleRefs.push(ref);
  }

  /** Reads a reference: a lambda slot when the first segment names a bound parameter, else the scope. */
  private reader(ref: VarRef): Evaluator {
    const first = ref.segments[0];
    const slot = typeof first === 'string' ? this.env.get(first) : undefined;
    if (slot !== undefined || (this.sharing !== undefined && !this.sharing.fixed(ref.segments))) this.perEvaluation++;
    if (slot !== undefined) {
      const rest = ref.segments.slice(1);
      return rest.length === 0 ? (f) => f.locals[slot] : (f) => getAt(f.locals[slot], rest);
    }
    this.references.push(ref.segments);
    const { segments, path } = ref;
    return (f) => f.scope.resolve(segments, path);
  }

  private variable(ref: VarRef, lenient: boolean): CNode {
    const read = this.reader(ref);
    if (lenient) return { ev: read, waits: false, isConst: false, value: undefined };
    const signal = new Invalid(`{${ref.path}} is not defined`);
    const first = ref.segments[0];
    let ev: Evaluator;
    if (typeof first === 'string' && this.env.has(first)) {
      ev = (f) => {
        const value = read(f);
        if (value === undefined) throw signal;
        return value;
      };
    } else {
      // the common case, inlined: one closure call per reference
      const { segments, path } = ref;
      ev = (f) => {
        const value = f.scope.resolve(segments, path);
        if (value === undefined) throw signal;
        return value;
      };
    }
    return { ev, waits: false, isConst: false, value: undefined };
  }

  /** A quoted string with `{var}` references; an unresolved reference stays as written (regex `{2,3}` etc.). */
  private interpolated(parts: readonly (string | VarRef)[]): CNode {
    const compiled = parts.map((p) => (typeof p === 'string' ? p : { read: this.reader(p), literal: `{${p.path}}` }));
    return {
      ev: (f) => {
        let out = '';
        for (const part of compiled) {
          if (typeof part === 'string') out += part;
          else {
            const value = part.read(f);
            out += value === undefined ? part.literal : toText(value);
          }
        }
        return out;
      },
      waits: false,
      isConst: false,
      value: undefined,
    };
  }

  private object(parts: readonly Node[]): CNode {
    const children = parts.map((p) => this.compile(p));
    return combineNode(
      children,
      (values) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < values.length; i += 2) defineKey(out, keyText(values[i]), values[i + 1]);
        return out;
      },
      { foldable: true, api: this },
    );
  }

  private binary(op: keyof typeof OPERATOR_IMPLS, left: CNode, right: CNode): CNode {
    const impl = OPERATOR_IMPLS[op];
    if ((left.isConst && right.isConst) || left.waits || right.waits) {
      return combineNode([left, right], (values) => impl(values[0], values[1]), { foldable: true, api: this });
    }
    return { ev: binaryEvaluator(left, right, impl, op), waits: false, isConst: false, value: undefined };
  }

  private call(node: Extract<Node, { kind: 'call' }>, options: CompileOptionsForNode): CNode {
    const def = findFunction(node.name);
    if (!def) return this.fail(`unknown function ${node.name}`, node);
    if (def.kind === 'eager' && ((def.contextual === true && def.fixedPerSolve !== true) || def.waits === true)) {
      this.repeatable = false;
      this.perEvaluation++;
    }
    const count = node.args.length;
    if (count < def.min || count > def.max) {
      return failingNode(`${node.name} expects ${arity(def.min, def.max)}, got ${count}`);
    }
    if (def.kind === 'special') return def.compile(node, this, { tail: options.tail === true });
    const children = node.args.map((arg) => this.compile(arg, { lenient: def.lenient === true }));
    def.collectRefs?.(children, this);
    const compiled = combineNode(children, def.impl, {
      foldable: def.contextual !== true,
      api: this,
      waits: def.waits,
      binary: count === 2 ? def.impl2 : undefined,
      name: def.name,
    });
    const [operand, constant] = children;
    if (COMPARISONS.has(def.name) && count === 2 && operand!.shared !== undefined && constant!.isConst && !compiled.isConst) {
      const value = constant!.value;
      if (typeof value === 'number' && Number.isFinite(value)) compiled.comparison = { name: def.name as ComparisonName, operand: operand!.shared, constant: value };
    }
    return compiled;
  }
}

const COMPARISONS: ReadonlySet<string> = new Set<ComparisonName>(['GT', 'GTE', 'LT', 'LTE']);

const MATCHED: ConditionOutcome = Object.freeze({ matched: true });
const NOT_MATCHED: ConditionOutcome = Object.freeze({ matched: false });
const NO_LOCALS: unknown[] = [];

/** A compiled expression; one per cell, shared by every solve. */
class Program implements CompiledExpression {
  readonly source: string;
  readonly async: boolean;
  readonly ruleRefs: readonly RuleRef[];
  readonly footprint: ExpressionFootprint;
  private readonly ev: Evaluator;
  /** The root is a subexpression shared per solve (a whole cell fixed for the solve): its slot, read directly. */
  private readonly shared: SharedRead | undefined;
  readonly comparison: Comparison | undefined;
  private readonly slots: number;
  private readonly sharedConstants: boolean;

  constructor(source: string, root: CNode, compiler: Compiler, reference: readonly PathSegment[] | undefined) {
    this.source = source;
    this.ev = root.ev;
    this.shared = root.shared;
    this.comparison = root.comparison;
    this.async = root.waits;
    this.slots = compiler.slots;
    this.ruleRefs = compiler.ruleRefs;
    const repeatable = compiler.repeatable && !this.async;
    this.footprint = reference === undefined ? { references: compiler.references, repeatable } : { references: compiler.references, repeatable, reference };
    // a folded object may be returned more than once; copy it so callers can never alter the constant
    this.sharedConstants = compiler.sharedConstants;
  }

  private frame(scope: Scope, ctx: EvaluationContext): Frame {
    return { scope, ctx, locals: this.slots === 0 ? NO_LOCALS : new Array<unknown>(this.slots), raw: false };
  }

  /** The root's value: `ev`, or for a shared root its slot read without the call (per-solve.ts sharedValue). */
  private run(f: Frame): unknown {
    const shared = this.shared;
    return shared === undefined ? this.ev(f) : operandValue(f, shared.ref, shared.ev);
  }

  private result(value: unknown): unknown {
    return this.sharedConstants && value !== null && typeof value === 'object' ? cloneJson(value) : value;
  }

  // Each method runs the root closure once; only an expression that waits (`async`, known at compile time) can
  // give a promise, so only then is the answer tested for one and the same ending chained to it.

  evaluateOutput(scope: Scope, ctx: EvaluationContext): unknown {
    if (this.shared !== undefined) {
      // Another cell of this solve computed the same value: a scalar, so no copy, and never RAW_VALUE's (a
      // result-position RAW_VALUE is never shared).
      const known = knownValue(scope.perSolve, this.shared.ref.slot);
      if (known !== NOT_KNOWN) return castExpressionOutput(known);
    }
    const f = this.frame(scope, ctx);
    let value: unknown;
    try {
      value = this.run(f);
    } catch (error) {
      return invalidOutput(error);
    }
    if (this.async && value instanceof Promise) return this.outputLater(value, f);
    return this.output(f, value);
  }

  private outputLater(pending: Promise<unknown>, f: Frame): Promise<unknown> {
    return pending.then((settled) => this.output(f, settled), invalidOutput);
  }

  private output(f: Frame, value: unknown): unknown {
    let owned: unknown;
    try {
      owned = this.result(value);
    } catch (error) {
      return invalidOutput(error);
    }
    return f.raw ? rawOutput(owned) : castExpressionOutput(owned);
  }

  evaluateCondition(scope: Scope, ctx: EvaluationContext): ConditionOutcome | Promise<ConditionOutcome> {
    let value: unknown;
    try {
      value = this.run(this.frame(scope, ctx));
    } catch (error) {
      return invalidCondition(error);
    }
    if (this.async && value instanceof Promise) return value.then(conditionOutcome, invalidCondition);
    return conditionOutcome(value);
  }

  matches(scope: Scope, ctx: EvaluationContext): boolean {
    let value: unknown;
    try {
      value = (this.shared === undefined ? this.ev : this.shared.ev)(this.frame(scope, ctx));
    } catch (error) {
      if (mustPropagate(error)) throw error;
      return false;
    }
    return value === true;
  }

  comparedOperand(scope: Scope, ctx: EvaluationContext): unknown {
    const comparison = this.comparison;
    if (comparison === undefined) return undefined;
    try {
      return operandValue(this.frame(scope, ctx), comparison.operand.ref, comparison.operand.ev);
    } catch {
      // The cells themselves meet the failure again when they run.
      return undefined;
    }
  }

  evaluateRaw(scope: Scope, ctx: EvaluationContext): unknown {
    let value: unknown;
    try {
      value = this.run(this.frame(scope, ctx));
    } catch (error) {
      return this.invalidRaw(error);
    }
    if (this.async && value instanceof Promise) return this.rawLater(value);
    return this.raw(value);
  }

  private rawLater(pending: Promise<unknown>): Promise<unknown> {
    return pending.then((settled) => this.raw(settled), (error: unknown) => this.invalidRaw(error));
  }

  private raw(value: unknown): unknown {
    try {
      return this.result(value);
    } catch (error) {
      return this.invalidRaw(error);
    }
  }

  private invalidRaw(error: unknown): never {
    if (mustPropagate(error)) throw error;
    throw new ExpressionError(invalidReason(error), this.source);
  }
}

/** An output whose evaluation failed: null, unless the failure must stop the solve. */
function invalidOutput(error: unknown): null {
  if (mustPropagate(error)) throw error;
  return null;
}

function invalidCondition(error: unknown): ConditionOutcome {
  if (mustPropagate(error)) throw error;
  return { matched: false, error: invalidReason(error) };
}

function conditionOutcome(value: unknown): ConditionOutcome {
  if (value === true) return MATCHED;
  if (value === false) return NOT_MATCHED;
  return { matched: false, error: `the condition gave ${describe(value)}, not a boolean` };
}

/** Compiles an AST. Throws SyntaxProblem for compile errors (unknown functions, malformed lambdas). */
export function compileAst(ast: Node, source: string, sharing?: PerSolveSharing): CompiledExpression {
  const compiler = new Compiler(sharing);
  const root = compiler.compile(ast, { tail: true });
  // A top-level reference is strict (undefined throws, giving null) and binds no lambda parameter: see footprint.reference.
  return new Program(source, root, compiler, ast.kind === 'var' ? ast.segments : undefined);
}
