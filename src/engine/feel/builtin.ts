// Built-in functions and calls: a built-in has one parameter list per overload (named arguments pick the
// overload), and runs with the caller's environment (for now(), today() and warnings).
import { Env } from './env.ts';
import { FeelFunction, FeelNumber, isNumber, type FeelValue } from './values.ts';

export type BuiltinBody = (args: FeelValue[], env: Env) => FeelValue;

export class Builtin extends FeelFunction {
  readonly overloads: readonly (readonly string[])[];
  readonly run: BuiltinBody;
  constructor(name: string, overloads: readonly (readonly string[])[], run: BuiltinBody) {
    super(overloads[0]!, (args) => run(args, Env.root({})), name);
    this.overloads = overloads;
    this.run = run;
  }
}

/** Shorthand: `fn('string length', [['string']], ([s]) => ...)`. */
export function fn(name: string, overloads: string[][], run: BuiltinBody): Builtin {
  return new Builtin(name, overloads, run);
}

/** Calls a function value with positional or named arguments; mismatches give null and a warning. */
export function callFunction(target: FeelFunction, args: FeelValue[] | ReadonlyMap<string, FeelValue>, env: Env): FeelValue {
  if (target instanceof Builtin) {
    if (Array.isArray(args)) return target.run(args, env);
    const names = [...(args as ReadonlyMap<string, FeelValue>).keys()];
    const overload = target.overloads.find((params) => names.every((name) => params.includes(name)));
    if (!overload) return env.warn(`${target.name}() has no parameter named ${names.filter((n) => !target.overloads.some((o) => o.includes(n))).join(', ') || names.join(', ')}`);
    const positional = overload.map((param) => (args as ReadonlyMap<string, FeelValue>).get(param));
    while (positional.length && positional[positional.length - 1] === undefined) positional.pop();
    return target.run(
      positional.map((value) => value ?? null),
      env,
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

/** An integer argument as a JS number, or null. */
export function integer(value: FeelValue | undefined): number | null {
  if (!isNumber(value)) return null;
  if (!value.isInteger()) return null;
  return value.toNumber();
}

export function numberOrNull(value: FeelValue | undefined): FeelNumber | null {
  return isNumber(value) ? value : null;
}

export function bad(env: Env, name: string, why: string): null {
  return env.warn(`${name}(): ${why}`);
}
