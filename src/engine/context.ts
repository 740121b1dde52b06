// Normalises SolveOptions into the EvaluationContext every compiled rule receives (once per solve).
import type { CallLink, EvaluationContext, LookupMethod, SolveBudget, SolveLimits, SolveOptions, Strategy } from './types.ts';
import { LOOKUP_METHODS, STRATEGIES } from './types.ts';
import { LimitError } from './errors.ts';
import { strategiesOf } from '../rules/rule-types.ts';

/**
 * Bounds of a top-level solve when the caller gives none. 32 levels is far beyond any real flow; 1000 nested calls
 * covers a flow looping over a few hundred items; 64 concurrent scripts (twice a chain as deep as the depth limit)
 * stops a script that fans out into copies of itself long before their isolates add up
 * (docs/decisions/solve-budget.md).
 */
export const DEFAULT_LIMITS: Readonly<SolveLimits> = Object.freeze({ maxDepth: 32, maxCalls: 1000, maxConcurrentScripts: 64 });

const STRATEGY_NAMES: ReadonlySet<unknown> = new Set(STRATEGIES);
const LOOKUP_METHOD_NAMES: ReadonlySet<unknown> = new Set(LOOKUP_METHODS);

export function normaliseStrategy(value: unknown): Strategy {
  // Exact names and the default first: this runs once per solve.
  if (value === undefined) return 'STANDARD';
  if (STRATEGY_NAMES.has(value)) return value as Strategy;
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (STRATEGIES as readonly string[]).includes(upper) ? (upper as Strategy) : 'STANDARD';
}

/**
 * The strategy a rule of `ruleType` is solved with when `strategy` is asked for: unsupported ones fall back to
 * STANDARD. Which a type applies is its descriptor's (src/rules/types/, rule-format §3.1).
 */
export function supportedStrategy(ruleType: string, strategy: Strategy): Strategy {
  return strategiesOf(ruleType).includes(strategy) ? strategy : 'STANDARD';
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

/**
 * createContext with the solve's instant given apart from the options (saves copying them per solve): a time, or
 * the clock to read it from when the solve first looks at `now` (SolveInstant).
 */
export function contextAt(options: SolveOptions, at: Date | number | (() => number), depth = 0): EvaluationContext {
  return new SolveContext(
    {
      strategy: normaliseStrategy(options.strategy),
      includedConditionCols: options.includedConditionCols?.length ? options.includedConditionCols : undefined,
      excludedConditionCols: options.excludedConditionCols?.length ? options.excludedConditionCols : undefined,
      lookupMethod: normaliseLookupMethod(options.lookupMethod),
      timeZone: options.timeZone ?? 'UTC',
      trace: options.trace === true,
      resolver: options.resolver,
      http: options.http,
      sandbox: options.sandbox,
      deadline: options.deadline ?? Number.POSITIVE_INFINITY,
      timeoutMs: options.timeoutMs,
      depth,
      budget: createBudget(options.limits),
      callPath: undefined,
      insideScript: undefined,
      random: options.random,
      dmnOptions: options.dmnOptions,
    },
    new SolveInstant(typeof at === 'object' ? at.getTime() : at),
  );
}

/** A fresh budget for one top-level solve. */
export function createBudget(limits: Partial<SolveLimits> | undefined): SolveBudget {
  return { limits: completeLimits(limits), calls: 0, scripts: 0 };
}

/** The limits with defaults filled in; complete limits (the service's configuration) are used as they are. */
function completeLimits(limits: Partial<SolveLimits> | undefined): SolveLimits {
  if (limits === undefined) return DEFAULT_LIMITS;
  if (limits.maxDepth !== undefined && limits.maxCalls !== undefined && limits.maxConcurrentScripts !== undefined) return limits as SolveLimits;
  return { ...DEFAULT_LIMITS, ...limits };
}

/**
 * The context of a nested rule call (SOLVE, DR.solve, a flow node): counts the call against the top-level solve's
 * budget and refuses to go deeper than its depth limit, naming the chain, so a rule calling itself cannot hang or
 * fan out without end.
 */
export function enterCall(
  parent: EvaluationContext,
  callee: string,
  overrides: Partial<Pick<EvaluationContext, 'strategy' | 'includedConditionCols' | 'excludedConditionCols' | 'lookupMethod'>>,
): EvaluationContext {
  countCall(parent, callee);
  const child = childContext(parent, overrides);
  child.callPath = { name: callee, caller: parent.callPath };
  return child;
}

/**
 * The checks of enterCall without the child context, for a callee that needs none (a constant table solved from its
 * column values, which calls nothing and reads only `now`): the call counts against the budget and the depth limit.
 */
export function countCall(parent: EvaluationContext, callee: string): void {
  const { budget } = parent;
  if (parent.depth + 1 > budget.limits.maxDepth) {
    const link: CallLink = { name: callee, caller: parent.callPath };
    throw new LimitError(`rules call each other more than ${budget.limits.maxDepth} levels deep: ${describeChain(link)} (does a rule call itself?)`);
  }
  if (++budget.calls > budget.limits.maxCalls) {
    const link: CallLink = { name: callee, caller: parent.callPath };
    throw new LimitError(`the solve made more than ${budget.limits.maxCalls} nested rule calls (SOLVE, DR.solve, flow nodes); last: ${describeChain(link)}`);
  }
}

/** `a -> b -> a -> ...`, oldest first; long chains keep their start and end. */
function describeChain(link: CallLink): string {
  const names: string[] = [];
  for (let at: CallLink | undefined = link; at !== undefined; at = at.caller) names.push(JSON.stringify(at.name));
  names.reverse();
  if (names.length <= 8) return names.join(' -> ');
  return `${names.slice(0, 4).join(' -> ')} -> ... (${names.length - 7} more) -> ${names.slice(-3).join(' -> ')}`;
}

/** The context a nested solve (SOLVE, DR.solve, flow node) runs with: same capabilities, its own strategy. */
export function childContext(
  parent: EvaluationContext,
  overrides: Partial<Pick<EvaluationContext, 'strategy' | 'includedConditionCols' | 'excludedConditionCols' | 'lookupMethod'>>,
): EvaluationContext {
  // Every field written out (not spread): one object shape for every context, built without a property walk; a
  // nested call is made per flow node and per SOLVE.
  return new SolveContext(
    {
      strategy: overrides.strategy ?? 'STANDARD',
      includedConditionCols: overrides.includedConditionCols,
      excludedConditionCols: overrides.excludedConditionCols,
      lookupMethod: overrides.lookupMethod ?? 'LOOKUP_VALUE',
      timeZone: parent.timeZone,
      trace: parent.trace,
      resolver: parent.resolver,
      http: parent.http,
      sandbox: parent.sandbox,
      deadline: parent.deadline,
      timeoutMs: parent.timeoutMs,
      depth: parent.depth + 1,
      budget: parent.budget,
      callPath: parent.callPath,
      insideScript: parent.insideScript,
      random: parent.random,
    },
    instantOf(parent),
  );
}

/**
 * A copy of `ctx` with `changes` (a context of its own per input, a DR.solve below a script): the same instant. A
 * context is a SolveContext, whose `now` an object spread would not copy.
 */
export function contextWith(ctx: EvaluationContext, changes: Partial<Pick<EvaluationContext, 'deadline' | 'budget' | 'insideScript'>>): EvaluationContext {
  return new SolveContext(
    {
      strategy: ctx.strategy,
      includedConditionCols: ctx.includedConditionCols,
      excludedConditionCols: ctx.excludedConditionCols,
      lookupMethod: ctx.lookupMethod,
      timeZone: ctx.timeZone,
      trace: ctx.trace,
      resolver: ctx.resolver,
      http: ctx.http,
      sandbox: ctx.sandbox,
      deadline: changes.deadline ?? ctx.deadline,
      timeoutMs: ctx.timeoutMs,
      depth: ctx.depth,
      budget: changes.budget ?? ctx.budget,
      callPath: ctx.callPath,
      insideScript: changes.insideScript ?? ctx.insideScript,
      random: ctx.random,
      dmnOptions: ctx.dmnOptions,
    },
    instantOf(ctx),
  );
}

/** The instant a nested context shares with `parent` (a context built elsewhere gives its `now`). */
function instantOf(parent: EvaluationContext): SolveInstant {
  return parent instanceof SolveContext ? parent.instant : new SolveInstant(parent.now);
}

/**
 * The instant of a top-level solve: given, or read from the clock the first time the solve looks at it and then fixed
 * for the solve and every nested context (they share this object). A solve that never looks at the time (no time
 * window, date cell or clock function) reads no clock: a clock read costs about as much as a small table's solve.
 * Whatever may wait (an HTTP call, a script) looks at it first (pinInstant), so it is always taken before the solve
 * first waits, as when it was read at the start.
 */
export class SolveInstant {
  #at: number | undefined;
  readonly #clock: (() => number) | undefined;

  constructor(at: number | (() => number)) {
    if (typeof at === 'number') this.#at = at;
    else this.#clock = at;
  }

  get value(): number {
    return (this.#at ??= this.#clock!());
  }
}

/** The fields of a context other than `now`. */
type ContextFields = Required<Omit<EvaluationContext, 'now' | 'callPath' | 'insideScript' | 'random' | 'dmnOptions'>> &
  Pick<EvaluationContext, 'callPath' | 'insideScript' | 'random' | 'dmnOptions'>;

/** An EvaluationContext whose `now` is its SolveInstant's. */
class SolveContext implements EvaluationContext {
  strategy: EvaluationContext['strategy'];
  includedConditionCols: EvaluationContext['includedConditionCols'];
  excludedConditionCols: EvaluationContext['excludedConditionCols'];
  lookupMethod: EvaluationContext['lookupMethod'];
  timeZone: string;
  trace: boolean;
  resolver: EvaluationContext['resolver'];
  http: EvaluationContext['http'];
  sandbox: EvaluationContext['sandbox'];
  deadline: number;
  timeoutMs: number | undefined;
  depth: number;
  budget: SolveBudget;
  callPath: CallLink | undefined;
  insideScript: boolean | undefined;
  random: (() => number) | undefined;
  dmnOptions: EvaluationContext['dmnOptions'];
  readonly instant: SolveInstant;

  constructor(fields: ContextFields, instant: SolveInstant) {
    this.strategy = fields.strategy;
    this.includedConditionCols = fields.includedConditionCols;
    this.excludedConditionCols = fields.excludedConditionCols;
    this.lookupMethod = fields.lookupMethod;
    this.timeZone = fields.timeZone;
    this.trace = fields.trace;
    this.resolver = fields.resolver;
    this.http = fields.http;
    this.sandbox = fields.sandbox;
    this.deadline = fields.deadline;
    this.timeoutMs = fields.timeoutMs;
    this.depth = fields.depth;
    this.budget = fields.budget;
    this.callPath = fields.callPath;
    this.insideScript = fields.insideScript;
    this.random = fields.random;
    this.dmnOptions = fields.dmnOptions;
    this.instant = instant;
  }

  get now(): number {
    return this.instant.value;
  }
}

/** Before something that may wait: the solve's instant is taken now if nothing looked at it yet (SolveInstant). */
export function pinInstant(ctx: EvaluationContext): void {
  void ctx.now;
}

