// The solve use case, shared by HTTP and Kafka: resolve the rule (id or alias, version or latest published) in
// the caller's space -> compiled cache -> evaluate each input with a deadline -> audit -> metrics.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { TimeoutError, UnresolvedRuleError } from '../engine/errors.ts';
import type { EvaluationContext, HttpClient, Json, RuleType, SolveResult, Strategy } from '../engine/types.ts';
import { createBudget, createContext, normaliseStrategy } from '../engine/context.ts';
import type { SpaceSandboxes } from './sandbox.ts';
import type { Config } from '../config.ts';
import type { AuditRecord } from '../store/ports.ts';
import type { AuditWriter } from './audit-writer.ts';
import type { Clock } from './clock.ts';
import { ambiguousAlias, classify, MESSAGES, prefixed, ServiceError } from './errors.ts';
import type { Principal } from './keys.ts';
import type { Metrics } from './metrics.ts';
import { SolveSession } from './resolver.ts';
import type { LoadedRule, RuleCache } from './rule-cache.ts';
import { RuleNotFoundError } from './rule-cache.ts';

export interface SolveRequest {
  idOrAlias: string;
  /** Undefined: latest published. */
  version: number | undefined;
  /** An object (simple solve) or an array of objects (bulk). Adapters check the shape. */
  data: unknown;
  includedConditionCols?: string[];
  excludedConditionCols?: string[];
  strategy?: string;
  lookupMethod?: string;
  audit?: boolean;
  auditTtlDays?: number;
  debug?: boolean;
  correlationId: string;
  /** The deprecated /composition/solve endpoint: rule flows only, its own unknown-id message. */
  ruleFlowsOnly?: boolean;
  /** The adapter the request came through; omitted: a direct call (tests, embedding). */
  channel?: SolveChannel;
  /**
   * Rule tests: solve this loaded version instead of resolving idOrAlias, whatever its status (tests run before a
   * version is published, or on a document about to be stored). Its references resolve as in any solve. Not audited.
   */
  candidate?: LoadedRule;
}

/**
 * An adapter as the solve records it: its name (the `channel` metric label) and its own code for an outcome
 * (the audit record's statusCode and the `status` metric label): HTTP statuses for HTTP, SPEC 4 codes for Kafka.
 */
export interface SolveChannel {
  readonly name: string;
  /** The code of a success (failure undefined) or of a failure of the catalog. */
  codeOf(failure: ServiceError | undefined): number;
}

/** A solve called directly, not through an adapter: 0 for success, 1 for a failure, like a process exit code. */
export const DIRECT_CHANNEL: SolveChannel = { name: 'direct', codeOf: (failure) => (failure === undefined ? 0 : 1) };

export interface SolveResponse {
  /** Simple solve: the result array. Bulk: one result array per input, in input order. */
  body: Json[] | Json[][];
  ruleId: string;
  version: number;
  ruleType: string;
  strategy: Strategy;
}

/** Strategies each rule type supports (rule-format §3.1); anything else falls back to STANDARD. */
const SUPPORTED: Partial<Record<RuleType | string, readonly Strategy[]>> = {
  'decision-table': ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'],
  'decision-tree': ['STANDARD', 'ARRAY'],
  'complex-rule': ['STANDARD', 'ARRAY'],
  composition: ['STANDARD', 'ARRAY'],
};

export function effectiveStrategy(ruleType: string, requested: string | undefined): Strategy {
  return supportedStrategy(ruleType, normaliseStrategy(requested));
}

function supportedStrategy(ruleType: string, strategy: Strategy): Strategy {
  return (SUPPORTED[ruleType] ?? ['STANDARD']).includes(strategy) ? strategy : 'STANDARD';
}

/** How many times one input is re-solved after loading a rule it referenced that was not in memory. */
const MAX_RESOLVE_RETRIES = 32;
/** Bulk solves give the event loop a turn this often, so one large bulk cannot starve other requests. */
const BULK_YIELD_EVERY = 64;
const DAY_MS = 86_400_000;
/** A fault of ours as the audit and metrics record it; the client gets the adapter's generic answer. */
const INTERNAL = new ServiceError('internal', 'internal error');

export interface SolveServiceDeps {
  config: Config;
  cache: RuleCache;
  audit: AuditWriter;
  metrics: Metrics;
  clock: Clock;
  http: HttpClient | undefined;
  sandbox: SpaceSandboxes | undefined;
}

/** What one solve has learnt so far, for its metrics and audit record whether it succeeds or fails. */
interface SolveState {
  started: number;
  startedAt: number;
  loaded: LoadedRule | undefined;
  strategy: Strategy;
  traces: unknown[] | undefined;
}

/** The rule and its dependencies, all compiled in memory: a solve that needs no await. */
interface Ready {
  session: SolveSession;
  loaded: LoadedRule;
}

/** One request's inputs being evaluated, in order; `next` is the first input not yet solved. */
interface Evaluation {
  session: SolveSession;
  loaded: LoadedRule;
  ctx: EvaluationContext;
  bulk: boolean;
  inputs: readonly unknown[];
  results: Json[][];
  traces: unknown[] | undefined;
  next: number;
}

export class SolveService {
  readonly #deps: SolveServiceDeps;

  constructor(deps: SolveServiceDeps) {
    this.#deps = deps;
  }

  /** Solves a request: resolve the rule, evaluate every input, record metrics and (when on) an audit record. */
  async solve(principal: Principal, request: SolveRequest): Promise<SolveResponse> {
    return this.solveNow(principal, request);
  }

  /**
   * solve(), answered synchronously when it can be: the space catalog, the rule and its static dependencies are
   * compiled in memory, the rule never waits, and the inputs fit in one slice between event-loop turns (the warm
   * path of almost every request). Otherwise, or when a rule referenced at run time is not loaded yet, the same
   * solve runs asynchronously from the start; evaluation is pure, so starting over changes nothing.
   */
  solveNow(principal: Principal, request: SolveRequest): SolveResponse | Promise<SolveResponse> {
    const ready = this.#ready(principal, request);
    if (ready === undefined) return this.#solveAsync(principal, request);
    const state = this.#state(request);
    let response: SolveResponse | undefined;
    let failure: unknown;
    try {
      const evaluation = this.#evaluation(principal.space, ready.session, ready.loaded, request, state);
      this.#evaluateSlice(evaluation, evaluation.inputs.length);
      response = this.#response(evaluation, state);
    } catch (err) {
      if (err instanceof UnresolvedRuleError) return this.#solveAsync(principal, request);
      failure = err;
    }
    return this.#finish(principal, request, state, response, failure);
  }

  /** The synchronous path's preconditions; undefined sends the request down the asynchronous path. */
  #ready(principal: Principal, request: SolveRequest): Ready | undefined {
    if (request.candidate !== undefined) return undefined;
    const { cache } = this.#deps;
    const catalog = cache.peekCatalog(principal.space);
    if (catalog === undefined) return undefined;
    const resolution = catalog.resolve(request.idOrAlias, request.version);
    // Every refusal (unknown, ambiguous, not published, not a rule flow) is answered by the asynchronous path.
    if (!resolution.ok || (request.ruleFlowsOnly && resolution.head.type !== 'composition')) return undefined;
    const loaded = cache.peek(principal.space, resolution.head.ruleId, resolution.head.version);
    if (loaded === undefined || loaded.compiled.async) return undefined;
    if (Array.isArray(request.data) && request.data.length > BULK_YIELD_EVERY) return undefined;
    const session = new SolveSession(catalog, cache);
    return session.useCached(loaded) ? { session, loaded } : undefined;
  }

  async #solveAsync(principal: Principal, request: SolveRequest): Promise<SolveResponse> {
    const state = this.#state(request);
    let response: SolveResponse | undefined;
    let failure: unknown;
    try {
      const session = new SolveSession(await this.#deps.cache.catalog(principal.space), this.#deps.cache);
      const loaded = await this.#resolve(session, request);
      await session.use(loaded);
      const evaluation = this.#evaluation(principal.space, session, loaded, request, state);
      if (loaded.compiled.async) await this.#evaluateAsync(evaluation);
      else await this.#evaluateSliced(evaluation);
      response = this.#response(evaluation, state);
    } catch (err) {
      failure = err;
    }
    return this.#finish(principal, request, state, response, failure);
  }

  #state(request: SolveRequest): SolveState {
    return {
      started: performance.now(),
      startedAt: this.#deps.clock(),
      loaded: undefined,
      strategy: normaliseStrategy(request.strategy),
      traces: undefined,
    };
  }

  /**
   * One evaluation context serves every input of the request (the engine never writes to it): `now` is the
   * request's start (so every input of a bulk sees the same NOW()), and only the deadline is renewed per input.
   */
  #evaluation(space: string, session: SolveSession, loaded: LoadedRule, request: SolveRequest, state: SolveState): Evaluation {
    const { config, http, sandbox } = this.#deps;
    state.loaded = loaded;
    state.strategy = supportedStrategy(loaded.head.type, state.strategy);
    const trace = request.debug === true || loaded.audit.debug;
    const bulk = Array.isArray(request.data);
    const traces = trace ? [] : undefined;
    state.traces = traces;
    const ctx = createContext({
      strategy: state.strategy,
      includedConditionCols: request.includedConditionCols,
      excludedConditionCols: request.excludedConditionCols,
      lookupMethod: request.lookupMethod,
      now: state.startedAt,
      timeZone: config.timeZone,
      trace,
      resolver: session,
      http,
      sandbox: sandbox?.forSpace(space),
      timeoutMs: config.ruleTimeoutMs,
      limits: config.solveLimits,
    });
    const inputs = bulk ? (request.data as unknown[]) : [request.data];
    return { session, loaded, ctx, bulk, inputs, results: [], traces, next: 0 };
  }

  /** Evaluates inputs synchronously up to (not including) `end`. Throws UnresolvedRuleError as is. */
  #evaluateSlice(evaluation: Evaluation, end: number): void {
    const { loaded, ctx, bulk, inputs, results, traces } = evaluation;
    const timeoutMs = this.#deps.config.ruleTimeoutMs;
    for (let i = evaluation.next; i < end; i++) {
      // The deadline is real time even when tests move the service clock; each input has its own call budget.
      ctx.deadline = Date.now() + timeoutMs;
      ctx.budget.calls = 0;
      let result: SolveResult;
      try {
        result = loaded.compiled.evaluate(inputs[i], ctx) as SolveResult;
      } catch (err) {
        if (err instanceof UnresolvedRuleError) throw err;
        throw bulk ? prefixed(err, `data[${i}]`) : err;
      }
      results.push(result.result);
      if (traces) traces.push(bulk ? (result.trace ?? []) : result.trace);
      evaluation.next = i + 1;
    }
  }

  /** A rule that never waits, in slices between event-loop turns; a rule referenced at run time is loaded first. */
  async #evaluateSliced(evaluation: Evaluation): Promise<void> {
    let attempts = 0;
    while (evaluation.next < evaluation.inputs.length) {
      if (evaluation.next > 0) await yieldToEventLoop();
      const end = Math.min(evaluation.inputs.length, evaluation.next + BULK_YIELD_EVERY);
      try {
        const before = evaluation.next;
        this.#evaluateSlice(evaluation, end);
        if (evaluation.next > before) attempts = 0;
      } catch (err) {
        if (!(err instanceof UnresolvedRuleError)) throw err;
        // The input at `next` referenced a rule not in memory: load it and solve that input again (bounded).
        if (attempts++ >= MAX_RESOLVE_RETRIES) throw evaluation.bulk ? prefixed(err, `data[${evaluation.next}]`) : err;
        await evaluation.session.load(err.idOrAlias, err.version);
      }
    }
  }

  /** A rule that may wait (HTTP functions, scripts): one input at a time, each with its own deadline backstop. */
  async #evaluateAsync(evaluation: Evaluation): Promise<void> {
    const { session, loaded, bulk, inputs, results, traces } = evaluation;
    const timeoutMs = this.#deps.config.ruleTimeoutMs;
    for (let i = 0; i < inputs.length; i++) {
      if (i > 0 && i % BULK_YIELD_EVERY === 0) await yieldToEventLoop();
      try {
        for (let attempt = 0; ; attempt++) {
          // A context of its own per input: an abandoned evaluation must keep its own deadline.
          const ctx: EvaluationContext = { ...evaluation.ctx, deadline: Date.now() + timeoutMs, budget: createBudget(evaluation.ctx.budget.limits) };
          try {
            const result = await withDeadline(Promise.resolve(loaded.compiled.evaluate(inputs[i], ctx)), timeoutMs);
            results.push(result.result);
            if (traces) traces.push(bulk ? (result.trace ?? []) : result.trace);
            break;
          } catch (err) {
            if (!(err instanceof UnresolvedRuleError) || attempt >= MAX_RESOLVE_RETRIES) throw err;
            await session.load(err.idOrAlias, err.version);
          }
        }
      } catch (err) {
        throw bulk ? prefixed(err, `data[${i}]`) : err;
      }
    }
  }

  #response(evaluation: Evaluation, state: SolveState): SolveResponse {
    const { head } = evaluation.loaded;
    const body = evaluation.bulk ? evaluation.results : evaluation.results[0]!;
    return { body, ruleId: head.ruleId, version: head.version, ruleType: head.type, strategy: state.strategy };
  }

  /** Metrics and audit for every solve; returns the response or throws the error the client gets. */
  #finish(principal: Principal, request: SolveRequest, state: SolveState, response: SolveResponse | undefined, failure: unknown): SolveResponse {
    const channel = request.channel ?? DIRECT_CHANNEL;
    let error: ServiceError | undefined;
    let errorMessage: string | null = null;
    let thrown: unknown;
    if (response === undefined) {
      error = classify(failure);
      if (error === undefined) {
        error = INTERNAL;
        errorMessage = 'internal error';
        thrown = failure;
      } else {
        errorMessage = error.message;
        thrown = error;
      }
    }
    const status = channel.codeOf(error);
    const elapsedMs = performance.now() - state.started;
    const { loaded } = state;
    this.#deps.metrics.observeSolve(loaded?.head.type ?? 'unknown', state.strategy, status, channel.name, error?.kind ?? '', elapsedMs / 1000);
    const auditOn = request.candidate === undefined && (request.audit === true || request.debug === true || loaded?.audit.active === true);
    if (auditOn) {
      const ttlDays = request.auditTtlDays ?? loaded?.audit.ttlDays ?? this.#deps.config.audit.defaultTtlDays;
      this.#deps.audit.enqueue(this.#auditRecord(principal, request, loaded, state.strategy, {
        status,
        output: response === undefined ? null : (response.body as Json),
        errorMessage,
        elapsedMs,
        startedAt: state.startedAt,
        ttlDays,
        traces: state.traces,
      }));
    }
    if (response === undefined) throw thrown;
    return response;
  }

  async #resolve(session: SolveSession, request: SolveRequest): Promise<LoadedRule> {
    if (request.candidate !== undefined) return request.candidate;
    const resolution = session.catalog.resolve(request.idOrAlias, request.version);
    const unknown = request.ruleFlowsOnly ? MESSAGES.unknownRuleFlow : MESSAGES.unknownRule;
    if (!resolution.ok) {
      if (resolution.reason === 'ambiguous') throw ambiguousAlias(request.idOrAlias, resolution.count);
      if (resolution.reason === 'not-published') throw new ServiceError('not-published', MESSAGES.notPublished);
      throw new ServiceError('unknown-rule', unknown);
    }
    if (request.ruleFlowsOnly && resolution.head.type !== 'composition') throw new ServiceError('unknown-rule', unknown);
    try {
      return await this.#deps.cache.load(resolution.head);
    } catch (err) {
      // Deleted between the catalog read and the load.
      if (err instanceof RuleNotFoundError) throw new ServiceError('unknown-rule', unknown);
      throw err;
    }
  }

  #auditRecord(
    principal: Principal,
    request: SolveRequest,
    loaded: LoadedRule | undefined,
    strategy: Strategy,
    outcome: {
      status: number;
      output: Json | null;
      errorMessage: string | null;
      elapsedMs: number;
      startedAt: number;
      ttlDays: number;
      traces: unknown[] | undefined;
    },
  ): AuditRecord {
    const bulk = Array.isArray(request.data);
    return {
      id: auditId(outcome.startedAt),
      space: principal.space,
      correlationId: request.correlationId,
      ruleId: loaded?.head.ruleId ?? request.idOrAlias,
      ruleAlias: loaded?.head.alias ?? null,
      version: loaded?.head.version ?? request.version ?? null,
      ruleType: loaded?.head.type ?? null,
      strategy,
      input: (request.data ?? null) as Json,
      output: outcome.output,
      statusCode: outcome.status,
      errorMessage: outcome.errorMessage,
      executionTimeMs: Math.round(outcome.elapsedMs * 1000) / 1000,
      createdAt: new Date(outcome.startedAt).toISOString(),
      expiresAt: new Date(outcome.startedAt + outcome.ttlDays * DAY_MS).toISOString(),
      debug: outcome.traces === undefined ? null : ((bulk ? outcome.traces : (outcome.traces[0] ?? null)) as Json),
    };
  }
}

let auditSequence = 0;

/**
 * Audit ids sort like the solves that made them (time, then a per-process sequence), so records created in the
 * same millisecond still list newest first in a stable order.
 */
function auditId(at: number): string {
  auditSequence = (auditSequence + 1) % 0x1_0000_0000;
  return `${Math.max(0, at).toString(16).padStart(12, '0')}-${auditSequence.toString(16).padStart(8, '0')}-${randomBytes(4).toString('hex')}`;
}

/** Backstop for asynchronous rules: the engine checks the deadline itself, this bounds anything that does not. */
async function withDeadline<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(timeoutMs)), timeoutMs + 50);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

