// Built-in functions and calls: a built-in has one parameter list per overload (named arguments pick the
// overload), and runs with the caller's environment (for now(), today() and warnings).
import { Env } from './env.ts';
import { FeelFunction, FeelNumber, isNumber, type FeelValue } from './values.ts';

/** `overload`: the index of the parameter list named arguments matched; undefined for positional calls. */
export type BuiltinBody = (args: FeelValue[], env: Env, overload?: number) => FeelValue;

interface Arity {
  min: number;
  max: number;
}

export class Builtin extends FeelFunction {
  /** Parameter names of each overload (without the `?` and `...` markers). */
  readonly overloads: readonly (readonly string[])[];
  readonly arities: readonly Arity[];
  readonly run: BuiltinBody;
  constructor(name: string, overloads: readonly (readonly string[])[], run: BuiltinBody) {
    const names = overloads.map((params) => params.map((param) => param.replace(/^\.\.\.|\?$/g, '')));
    super(names[0]!, (args) => run(args, Env.root({})), name);
    this.overloads = names;
    this.arities = overloads.map((params) => ({
      min: params.filter((param) => !param.endsWith('?') && !param.startsWith('...')).length,
      max: params.some((param) => param.startsWith('...')) ? Infinity : params.length,
    }));
    this.run = run;
  }

  accepts(count: number): boolean {
    return this.arities.some((arity) => count >= arity.min && count <= arity.max);
  }
}

/**
 * Shorthand: `fn('substring', [['string', 'start position', 'length?']], ([s, start, length]) => ...)`; a
 * parameter ending in `?` may be left out, one starting with `...` takes the remaining arguments.
 */
export function fn(name: string, overloads: string[][], run: BuiltinBody): Builtin {
  return new Builtin(name, overloads, run);
}

/** Calls a function value with positional or named arguments; mismatches give null and a warning. */
export function callFunction(target: FeelFunction, args: FeelValue[] | ReadonlyMap<string, FeelValue>, env: Env): FeelValue {
  if (target instanceof Builtin) {
    if (Array.isArray(args)) {
      if (!target.accepts(args.length)) return env.warn(`${target.name}() does not take ${args.length} argument${args.length === 1 ? '' : 's'}`);
      return target.run(args, env);
    }
    const names = [...(args as ReadonlyMap<string, FeelValue>).keys()];
    const overload = target.overloads.find((params) => names.every((name) => params.includes(name)));
    if (!overload) return env.warn(`${target.name}() has no parameter named ${names.filter((n) => !target.overloads.some((o) => o.includes(n))).join(', ') || names.join(', ')}`);
    const positional = overload.map((param) => (args as ReadonlyMap<string, FeelValue>).get(param));
    while (positional.length && positional[positional.length - 1] === undefined) positional.pop();
    // a required parameter left out of a named call is null
    const arity = target.arities[target.overloads.indexOf(overload)]!;
    while (positional.length < arity.min) positional.push(null);
    return target.run(
      positional.map((value) => value ?? null),
      env,
      target.overloads.indexOf(overload),
    );
  }
  let positional: FeelValue[];
  if (Array.isArray(args)) {
    if (args.length > target.params.length) return env.warn(`${target.name} takes ${target.params.length} arguments, not ${args.length}`);
    positional = target.params.map((_, i) => args[i] ?? null);
  } else {
    const map = args as ReadonlyMap<string, FeelValue>;
    const unknown = [...map.keys()].filter((name) => !target.params.includes(name));
    if (unknown.length) return env.warn(`${target.name} has no parameter named ${unknown.join(', ')}`);
    positional = target.params.map((param) => map.get(param) ?? null);
  }
  return target.invoke(positional);
}

/** The items of a variadic list function: `f([1, 2])` or `f(1, 2)`. */
export function listArgument(args: FeelValue[]): FeelValue[] | null {
  if (args.length === 1) return Array.isArray(args[0]) ? args[0] : [args[0]!];
  return args.length === 0 ? null : args;
}

/** A whole-number argument as a JS number (a fraction is cut toward zero, as FEEL's integer parameters do), or null. */
export function integer(value: FeelValue | undefined): number | null {
  if (!isNumber(value)) return null;
  return value.trunc().toNumber();
}

export function numberOrNull(value: FeelValue | undefined): FeelNumber | null {
  return isNumber(value) ? value : null;
}

export function bad(env: Env, name: string, why: string): null {
  return env.warn(`${name}(): ${why}`);
}
