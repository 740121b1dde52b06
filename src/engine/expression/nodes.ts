// Compiled nodes: each AST node becomes a closure (`ev`), plus an async twin (`aev`) only where the subtree
// may await. Function modules build their special forms from these helpers.
import type { Node } from './ast.ts';
import type { RuleRef } from '../types.ts';
import type { AsyncEvaluator, Evaluator, Frame } from './runtime.ts';
import { Invalid, mustPropagate } from './runtime.ts';

export interface CNode {
  ev: Evaluator;
  /** Present when the subtree may await; then evaluate through it in async mode. */
  aev: AsyncEvaluator | undefined;
  isConst: boolean;
  /** The value when isConst. */
  value: unknown;
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
}

export function constantNode(value: unknown): CNode {
  return { ev: () => value, aev: undefined, isConst: true, value };
}

/** A node that is invalid whatever the input (e.g. a wrong argument count): fails at run time, never at compile time. */
export function failingNode(message: string): CNode {
  const signal = new Invalid(message);
  return {
    ev: () => {
      throw signal;
    },
    aev: undefined,
    isConst: false,
    value: undefined,
  };
}

/**
 * A node evaluated at run time: `ev` always, the async twin `aev` only when one of `children` may await, so
 * rules that never wait never pay for promises.
 */
export function runtimeNode(children: readonly (CNode | undefined)[], ev: Evaluator, aev: AsyncEvaluator): CNode {
  return { ev, aev: children.some((child) => child?.aev) ? aev : undefined, isConst: false, value: undefined };
}

/** Evaluates a child in async mode. */
export function evalAsync(node: CNode, f: Frame): unknown {
  return node.aev ? node.aev(f) : node.ev(f);
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
    combineAsync?: (values: unknown[], f: Frame) => Promise<unknown>;
    /** Used instead of `combine` for two children, without allocating an argument array. */
    binary?: (a: unknown, b: unknown) => unknown;
  },
): CNode {
  const { foldable, api, combineAsync, binary } = options;
  if (foldable && !combineAsync && children.every((c) => c.isConst)) {
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
  let ev: Evaluator;
  if (n === 0) ev = (f) => combine([], f);
  else if (n === 1) {
    const a = children[0]!.ev;
    ev = (f) => combine([a(f)], f);
  } else if (n === 2) {
    const a = children[0]!.ev;
    const b = children[1]!.ev;
    ev = binary ? (f) => binary(a(f), b(f)) : (f) => combine([a(f), b(f)], f);
  } else if (n === 3) {
    const a = children[0]!.ev;
    const b = children[1]!.ev;
    const c = children[2]!.ev;
    ev = (f) => combine([a(f), b(f), c(f)], f);
  } else {
    const evs = children.map((c) => c.ev);
    ev = (f) => {
      const values = new Array<unknown>(n);
      for (let i = 0; i < n; i++) values[i] = evs[i]!(f);
      return combine(values, f);
    };
  }
  let aev: AsyncEvaluator | undefined;
  if (combineAsync || children.some((c) => c.aev)) {
    const finish = combineAsync ?? ((values: unknown[], f: Frame) => Promise.resolve(combine(values, f)));
    aev = async (f) => {
      const values = new Array<unknown>(n);
      for (let i = 0; i < n; i++) values[i] = await evalAsync(children[i]!, f);
      return finish(values, f);
    };
  }
  return { ev, aev, isConst: false, value: undefined };
}
