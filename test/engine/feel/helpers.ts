// Evaluates FEEL text for the tests: the result printed as FEEL literal text, so expectations read like FEEL.
import { compileFeel, compileUnaryTests, feelText, fromJson, type FeelValue } from '../../../src/engine/feel/index.ts';

/** A fixed instant for now() and today(): 2026-01-15T12:00:00Z. */
export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export function variables(json: Record<string, unknown>): Map<string, FeelValue> {
  return new Map(Object.entries(json).map(([name, value]) => [name, fromJson(value)]));
}

/** The value of `text` printed as FEEL text (`null`, `[1, 2]`, `"a"`, `2020-01-01`). */
export function show(text: string, json: Record<string, unknown> = {}): string {
  return feelText(compileFeel(text, { names: Object.keys(json) })({ variables: variables(json), now: NOW }));
}

/** The value and the warnings collected while evaluating `text`. */
export function withWarnings(text: string, json: Record<string, unknown> = {}): { value: string; warnings: string[] } {
  const warnings: string[] = [];
  const value = feelText(compileFeel(text, { names: Object.keys(json) })({ variables: variables(json), now: NOW, warnings }));
  return { value, warnings };
}

/** Whether `input` passes the unary tests `text`. */
export function passes(text: string, input: unknown, json: Record<string, unknown> = {}): boolean | null {
  return compileUnaryTests(text, { names: Object.keys(json) })(fromJson(input), { variables: variables(json), now: NOW });
}
