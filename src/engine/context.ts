// Normalises SolveOptions into the EvaluationContext every compiled rule receives (once per solve).
import type { EvaluationContext, LookupMethod, SolveOptions, Strategy } from './types.ts';
import { LOOKUP_METHODS, STRATEGIES } from './types.ts';

/** Deepest chain of SOLVE / flow calls before a solve fails, so a rule that calls itself cannot hang. */
export const MAX_DEPTH = 32;

const STRATEGY_NAMES: ReadonlySet<unknown> = new Set(STRATEGIES);
const LOOKUP_METHOD_NAMES: ReadonlySet<unknown> = new Set(LOOKUP_METHODS);

export function normaliseStrategy(value: unknown): Strategy {
  // Exact names and the default first: this runs once per solve.
  if (value === undefined) return 'STANDARD';
  if (STRATEGY_NAMES.has(value)) return value as Strategy;
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (STRATEGIES as readonly string[]).includes(upper) ? (upper as Strategy) : 'STANDARD';
}

export function normaliseLookupMethod(value: unknown): LookupMethod {
  if (value === undefined) return 'LOOKUP_VALUE';
  if (LOOKUP_METHOD_NAMES.has(value)) return value as LookupMethod;
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (LOOKUP_METHODS as readonly string[]).includes(upper) ? (upper as LookupMethod) : 'LOOKUP_VALUE';
}

/**
 * `now` is required by the pure engine; the library entry (engine/index.ts) fills it from the caller's clock
 * when absent, which is the one place a clock is read.
 */
export function createContext(options: SolveOptions & { now: Date | number }, depth = 0): EvaluationContext {
  return contextAt(options, options.now, depth);
}

/** createContext with the solve's instant given apart from the options (saves copying them per solve). */
export function contextAt(options: SolveOptions, at: Date | number, depth = 0): EvaluationContext {
  const now = typeof at === 'number' ? at : at.getTime();
  return {
    strategy: normaliseStrategy(options.strategy),
    includedConditionCols: options.includedConditionCols?.length ? options.includedConditionCols : undefined,
    excludedConditionCols: options.excludedConditionCols?.length ? options.excludedConditionCols : undefined,
    lookupMethod: normaliseLookupMethod(options.lookupMethod),
    now,
    timeZone: options.timeZone ?? 'UTC',
    trace: options.trace === true,
    resolver: options.resolver,
    http: options.http,
    sandbox: options.sandbox,
    deadline: options.deadline ?? Number.POSITIVE_INFINITY,
    timeoutMs: options.timeoutMs,
    depth,
    random: options.random,
  };
}

/** The context a nested solve (SOLVE, DR.solve, flow node) runs with: same capabilities, its own strategy. */
export function childContext(
  parent: EvaluationContext,
  overrides: Partial<Pick<EvaluationContext, 'strategy' | 'includedConditionCols' | 'excludedConditionCols' | 'lookupMethod'>>,
): EvaluationContext {
  return {
    ...parent,
    strategy: 'STANDARD',
    includedConditionCols: undefined,
    excludedConditionCols: undefined,
    lookupMethod: 'LOOKUP_VALUE',
    ...overrides,
    depth: parent.depth + 1,
  };
}
