// Shared helpers for the expression tests: a fixed clock and zone, quick evaluation of expression text.
import type { CompiledRule, EvaluationContext, SolveOptions } from '../../src/engine/types.ts';
import type { Scope } from '../../src/engine/expression/index.ts';
import { createContext } from '../../src/engine/context.ts';
import { compileExpressionText, objectScope } from '../../src/engine/expression/index.ts';
import { settledNow } from '../support/settled.ts';

/** 2021-06-01T11:01:00Z, the instant of the spec's NOW() examples. */
export const NOW = Date.UTC(2021, 5, 1, 11, 1);

/** The spec's date examples assume Europe/Prague (§4.9.4). */
export function context(options: Partial<SolveOptions> = {}): EvaluationContext {
  return createContext({ timeZone: 'Europe/Prague', ...options, now: options.now ?? NOW });
}

export function scopeOf(variables: Record<string, unknown> = {}): Scope {
  return objectScope(variables);
}

/** The output value (§2.10 casting) of expression text. */
export function out(text: string, variables: Record<string, unknown> = {}, ctx = context()): unknown {
  return compileExpressionText(text, 'test').evaluateOutput(scopeOf(variables), ctx);
}

/** The raw value (no casting); throws ExpressionError when invalid. */
export function raw(text: string, variables: Record<string, unknown> = {}, ctx = context()): unknown {
  return compileExpressionText(text, 'test').evaluateRaw(scopeOf(variables), ctx);
}

export function matches(text: string, variables: Record<string, unknown> = {}, ctx = context()): boolean {
  return settledNow(compileExpressionText(text, 'test').evaluateCondition(scopeOf(variables), ctx)).matched;
}

/** A resolver over a Map keyed by id/alias and `id@version`; the latest version is the plain key. */
export function mapResolver(rules: Record<string, CompiledRule>): NonNullable<SolveOptions['resolver']> {
  return {
    resolve(idOrAlias, version) {
      return rules[version === undefined ? idOrAlias : `${idOrAlias}@${version}`];
    },
  };
}
