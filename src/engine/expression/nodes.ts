// Compiled nodes: each AST node becomes one closure (`ev`) that returns its value, or a promise of it when a
// call below it waits (see engine/maybe-promise.ts). Function modules build their special forms from these helpers.
import type { Node } from './ast.ts';
import type { RuleRef } from '../types.ts';
import type { Evaluator, Frame } from './runtime.ts';
import { Invalid, mustPropagate } from './runtime.ts';
import { operandValue, UNSHARED } from './per-solve.ts';
import type { SharedRead } from './per-solve.ts';
import type { SlotRef } from './contract.ts';
import { constantOperandEvaluator } from './constant-operand.ts';

export interface CNode {
  /** The value, or a promise of it; a promise only when `waits`. */
  ev: Evaluator;
  /** Fixed at compile time: a call below this node may wait (HTTP_*, SOLVE), so `ev` may return a promise. */
  waits: boolean;
  isConst: boolean;
  /** The value when isConst. */
  value: unknown;
  /** Set when `ev` is a subexpression shared per solve (per-solve.ts): its slot and unshared evaluator. */
  shared?: SharedRead;
  /** Set when this node is GT/GTE/LT/LTE of a shared subexpression and a constant number (compile.ts call). */
  comparison?: Comparison;
}

/** `name(operand, constant)`: how a table compares many cells against one shared value (table/compile.ts). */
export interface Comparison {
  readonly name: ComparisonName;
  readonly operand: SharedRead;
  readonly constant: number;
}

export type ComparisonName = 'GT' | 'GTE' | 'LT' | 'LTE';

/**
 * How a parent reads `node` without calling its closure when it is shared per solve: pass both to
 * per-solve.ts operandValue (UNSHARED and `node.ev` when it is not shared).
 */
export function sharedSlot(node: CNode): SlotRef {
  return node.shared === undefined ? UNSHARED : node.shared.ref;
}

export function unsharedEvaluator(node: CNode): Evaluator {
  return node.shared === undefined ? node.ev : node.shared.ev;
}

export interface CompileOptionsForNode {
  /** The value of this node may become the expression's result (IF branches, NVL, RAW_VALUE's argument). */
  tail?: boolean;
  /** An unresolved reference gives undefined instead of making the expression invalid (IS_NULL, EQ, ...). */
  lenient?: boolean;
}

/** What special forms (IF, AND, ARRAY_MAP, SOLVE, ...) get from the compiler. */
export interface CompileApi {
  compile(node: Node, options?: CompileOptionsForNode): CNode;
  /** Compiles `body` with lambda parameters bound to fresh local slots (shadowing outer ones of the same name). */
  withLocals<T>(names: readonly string[], body: () => T): { slots: number[]; result: T };
  /** A compile error at `node`. */
  fail(reason: string, node: Node): never;
  /** A folded constant object/array may reach the result: results are then copied per evaluation. */
  markSharedConstant(): void;
  addRuleRef(ref: RuleRef): void;
  /** The node being compiled may give different values within one solve (it writes the frame: RAW_VALUE). */
  markPerEvaluation(): void;
}

export function constantNode(value: unknown): CNode {
  return { ev: () => value, waits: false, isConst: true, value };
}

/** A node that is invalid whatever the input (e.g. a wrong argument count): fails at run time, never at compile time. */
export function failingNode(message: string): CNode {
  const signal = new Invalid(message);
  return {
    ev: () => {
      throw signal;
    },
    waits: false,
    isConst: false,
    value: undefined,
  };
}

/**
 * A node evaluated at run time by `ev`, which must accept a promise from any child that waits (test with
 * isPromise, chain with andThen); it waits when one of `children` does.
 */
export function runtimeNode(children: readonly (CNode | undefined)[], ev: Evaluator): CNode {
  return { ev, waits: children.some((child) => child?.waits === true), isConst: false, value: undefined };
}

/**
 * Evaluates `evs[from..]` into `values` in order, then `done(values)`. A child's promise is waited for before the
 * next child runs, as written order demands; while no child returns one, this is a plain loop.
 */
export function evaluateInOrder(
  evs: readonly Evaluator[],
  f: Frame,
  values: unknown[],
  from: number,
  done: (values: unknown[], f: Frame) => unknown,
): unknown {
  for (let i = from; i < evs.length; i++) {
    const value = evs[i]!(f);
    if (value instanceof Promise) return resumeInOrder(value, evs, f, values, i, done);
    values[i] = value;
  }
  return done(values, f);
}

function resumeInOrder(
  pending: Promise<unknown>,
  evs: readonly Evaluator[],
  f: Frame,
  values: unknown[],
  i: number,
  done: (values: unknown[], f: Frame) => unknown,
): Promise<unknown> {
  return pending.then((settled) => {
    values[i] = settled;
    return evaluateInOrder(evs, f, values, i + 1, done);
  });
}

/**
 * `next(value, f)` once `pending` settles: the continuation of a node whose child answered with a promise. A
 * function of its own, so that the node's closure captures nothing (engine/maybe-promise.ts).
 */
export function resume(pending: Promise<unknown>, f: Frame, next: (settled: unknown, f: Frame) => unknown): Promise<unknown> {
  return pending.then((settled) => next(settled, f));
}

/** A frame for folding constants at compile time: pure functions never look at scope or context. */
const FOLD_FRAME = {
  scope: { resolve: () => undefined },
  ctx: undefined,
  locals: [],
  raw: false,
} as unknown as Frame;

/**
 * A node computing `combine` over already evaluated children. Folded at compile time when `foldable` and every
 * child is constant; an invalid fold becomes a failing node (the error shows at run time, as the spec wants).
 */
export function combineNode(
  children: readonly CNode[],
  combine: (values: unknown[], f: Frame) => unknown,
  options: {
    foldable: boolean;
    api: CompileApi;
    /** `combine` may return a promise (HTTP_*, SOLVE): never folded, and the node waits. */
    waits?: boolean;
    /** Used instead of `combine` for two children, without allocating an argument array. */
    binary?: (a: unknown, b: unknown) => unknown;
    /** The function's name, for nodes compiled by argument shape (binaryEvaluator). */
    name?: string;
  },
): CNode {
  const { foldable, api, binary } = options;
  const waits = options.waits === true;
  if (foldable && !waits && children.every((c) => c.isConst)) {
    try {
      const value = combine(
        children.map((c) => c.value),
        FOLD_FRAME,
      );
      if (value !== null && typeof value === 'object') api.markSharedConstant();
      return constantNode(value);
    } catch (error) {
      if (error instanceof Invalid) return failingNode(error.message);
      if (mustPropagate(error)) throw error;
      // anything else is left to run time, where it is reported per evaluation
    }
  }
  const n = children.length;
  const childWaits = children.some((c) => c.waits);
  let ev: Evaluator;
  // Unrolled forms for the common argument counts of children that never wait (the hot path); the general form
  // handles any count and waits for a child's promise.
  if (childWaits || n > 3) {
    const evs = children.map((c) => c.ev);
    ev = (f) => evaluateInOrder(evs, f, new Array<unknown>(n), 0, combine);
  } else if (n === 0) ev = (f) => combine([], f);
  else if (n === 1) {
    const a = children[0]!.ev;
    ev = (f) => combine([a(f)], f);
  } else if (n === 2) {
    const a = children[0]!.ev;
    const b = children[1]!.ev;
    ev = binary ? binaryEvaluator(children[0]!, children[1]!, binary, options.name) : (f) => combine([a(f), b(f)], f);
  } else {
    const a = children[0]!.ev;
    const b = children[1]!.ev;
    const c = children[2]!.ev;
    ev = (f) => combine([a(f), b(f), c(f)], f);
  }
  return { ev, waits: waits || childWaits, isConst: false, value: undefined };
}

/**
 * `binary` of two children that never wait: by argument shape when `name` has such a form (constant-operand.ts). A constant child is captured rather than called, and a shared left
 * child is read from its slot (comparisons and arithmetic against a literal are the usual cells): every closure
 * call saved is an indirect call, as every node's closure is called from many sites.
 */
export function binaryEvaluator(left: CNode, right: CNode, binary: (a: unknown, b: unknown) => unknown, name?: string): Evaluator {
  const byShape = name === undefined ? undefined : constantOperandEvaluator(name, left, right, binary);
  if (byShape !== undefined) return byShape;
  if (right.isConst) {
    const rv = right.value;
    const shared = left.shared;
    if (shared !== undefined) {
      const { ref, ev } = shared;
      return (f) => binary(operandValue(f, ref, ev), rv);
    }
    const a = left.ev;
    return (f) => binary(a(f), rv);
  }
  const b = right.ev;
  if (left.isConst) {
    const lv = left.value;
    return (f) => binary(lv, b(f));
  }
  const a = left.ev;
  return (f) => binary(a(f), b(f));
}
