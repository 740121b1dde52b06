// How a function of the library is described. Most functions are eager (arguments evaluated first, then
// `impl`); special forms (IF, AND, OR, NVL, RAW_VALUE, ARRAY_MAP, ...) compile their arguments themselves.
import type { CallNode } from '../ast.ts';
import type { CNode, CompileApi, CompileOptionsForNode } from '../nodes.ts';
import type { Frame } from '../runtime.ts';

interface Common {
  name: string;
  /** Other names the function is called by (internal AST names, deprecated names). */
  aliases?: readonly string[];
  /** Parameter names for editors' signatures, e.g. `number, [places]`; `…` marks a repeatable one. */
  params?: string;
  /** Argument count; a call outside it is invalid at run time (§4.8), not a compile error. */
  min: number;
  max: number;
}

export interface EagerFunction extends Common {
  kind: 'eager';
  /** Arguments may be unresolved references (undefined): IS_NULL, NVL, EQ, ARRAY_INCLUDES, ... */
  lenient?: boolean;
  /** Reads the context (clock, zone, resolver, randomness, scope): never folded at compile time. */
  contextual?: boolean;
  /**
   * A contextual function that reads only what is fixed for a whole solve (ctx.now, ctx.timeZone): the same
   * arguments give the same value anywhere in one solve. Other contextual functions (RANDOM, SOLVE, LOOKUP_*,
   * HTTP_*, STRINGFORMAT's run-time references) make an expression unrepeatable.
   */
  fixedPerSolve?: boolean;
  /** The value; a promise only for a function marked `waits`. */
  impl(args: unknown[], f: Frame): unknown;
  /** Optional allocation-free form for calls with exactly two arguments (hot comparisons). */
  impl2?(a: unknown, b: unknown): unknown;
  /** `impl` may return a promise (HTTP_*, SOLVE): the expression then waits (CompiledExpression.async). */
  waits?: boolean;
  /** Records literal rule references (SOLVE, LOOKUP_*) for dependency resolution. */
  collectRefs?(args: readonly CNode[], api: CompileApi): void;
}

export interface SpecialFunction extends Common {
  kind: 'special';
  compile(call: CallNode, api: CompileApi, position: CompileOptionsForNode): CNode;
}

export type FunctionDef = EagerFunction | SpecialFunction;
