// GoRules ZEN's expression language in Verdict's engine: standard expressions and unary tests (decision-table
// cells compared against `$`). Pure: the clock and the random source are passed in.
import type { Node } from './ast.ts';
import { compileNode } from './compile.ts';
import { parseStandard, parseUnary } from './parser.ts';
import { isObject, toJson } from './values.ts';

export { ZenEvaluationError, ZenSyntaxError } from './errors.ts';

export interface ZenEvaluateOptions {
  /** Epoch ms of "now" (d(), isToday(), ...). */
  now: number;
  /** Uniform in [0, 1) for rand(); Math.random when absent. */
  random?: () => number;
}

export interface ZenExpression {
  /** Evaluates against `input` (a JSON object; unary tests read `$` from it) and answers JSON. */
  evaluate(input: unknown, options: ZenEvaluateOptions): unknown;
}

function build(evaluate: ReturnType<typeof compileNode>, writes: boolean): ZenExpression {
  return {
    evaluate(input, options) {
      const source = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
      // Assignments write into the environment: they get their own copy of the input.
      const env = (writes ? structuredClone(source) : source) as Record<string, unknown>;
      const clock = { now: options.now, random: options.random ?? Math.random };
      return toJson(evaluate({ env, pointer: null, aliases: undefined, clock }));
    },
  };
}

/** Compiles a standard ZEN expression; throws ZenSyntaxError when it does not parse. */
export function compileZenExpression(source: string): ZenExpression {
  const node = parseStandard(source);
  return build(compileNode(node), node.type === 'assignments');
}

/** Compiles a unary test (`> 5`, `[1..10]`, `'GB', 'US'`) evaluated against the input's `$`. */
export function compileZenUnary(source: string): ZenExpression {
  return build(compileNode(parseUnary(source)), false);
}

/**
 * A compiled ZEN expression run against an environment and locals, answering the raw value (dates and intervals
 * as they are; `toJson` turns it into JSON). Decision graphs use it: locals are zen's isolate locals (`$` of a
 * unary cell or of an expression node's earlier results, `$nodes`), looked up before the environment.
 */
export interface ZenProgram {
  /** The expression is a literal: `run` answers the same primitive whatever it is given. */
  readonly constant?: boolean;
  run(env: unknown, locals: Record<string, unknown> | undefined, clock: { now: number; random: () => number }): unknown;
}

/** compileZenExpression / compileZenUnary as a ZenProgram; throws ZenSyntaxError when the source does not parse. */
export function compileZenProgram(source: string, kind: 'standard' | 'unary'): ZenProgram {
  const node = kind === 'unary' ? parseUnary(source) : parseStandard(source);
  const direct = directProgram(node);
  if (direct) return direct;
  const evaluate = compileNode(node);
  const writes = node.type === 'assignments';
  return {
    run(env, locals, clock) {
      const source = typeof env === 'object' && env !== null && !Array.isArray(env) ? env : {};
      return evaluate({ env: (writes ? structuredClone(source) : source) as Record<string, unknown>, pointer: null, aliases: locals, clock });
    },
  };
}

/**
 * Most expressions of decision graphs are a literal (`"gold"`, `20`: nine in ten output cells of zen's kit) or a
 * path (`customer.age`, `$.total`: the table columns' fields): those run without a scope, answering what the
 * compiled closures answer (a name from the locals first, then the environment; a missing key is null).
 */
function directProgram(node: Node): ZenProgram | undefined {
  if (node.type === 'literal') {
    const value = node.value;
    return { constant: true, run: () => value };
  }
  const keys: string[] = [];
  let at: Node = node;
  while (at.type === 'member' && at.property.type === 'literal' && typeof at.property.value === 'string') {
    keys.push(at.property.value);
    at = at.object;
  }
  if (at.type !== 'identifier') return undefined;
  const name = at.name;
  keys.reverse();
  return {
    run(env, locals) {
      let value: unknown;
      if (locals !== undefined && Object.hasOwn(locals, name)) value = locals[name];
      else {
        // As the compiled identifier: the environment is the input when it is an object, else empty.
        value = typeof env === 'object' && env !== null && !Array.isArray(env) ? ((env as Record<string, unknown>)[name] ?? null) : null;
      }
      for (let i = 0; i < keys.length; i++) {
        if (!isObject(value)) return null;
        value = Object.hasOwn(value, keys[i]) ? value[keys[i]] : null;
      }
      return value;
    },
  };
}

export { toJson as zenToJson } from './values.ts';
