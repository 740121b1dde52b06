// The solve use case, shared by HTTP and Kafka: resolve the rule (id or alias, version or latest published) in
// the caller's space -> compiled cache -> evaluate each input with a deadline -> audit -> metrics.
import { randomBytes } from 'node:crypto';
import type { DmnOptions, HttpClient, Json, Strategy } from '../engine/types.ts';
import { createContext, normaliseStrategy, supportedStrategy } from '../engine/context.ts';
import type { SpaceSandboxes } from './sandbox.ts';
import type { Config } from '../config.ts';
import type { AuditRecord } from '../store/ports.ts';
import type { AuditWriter } from './audit-writer.ts';
import type { Clock } from './clock.ts';
import { ambiguousAlias, classify, MESSAGES, prefixed, ServiceError } from './errors.ts';
import { BULK_YIELD_EVERY, InputLoop } from './input-loop.ts';
import type { Principal } from './keys.ts';
import type { Metrics } from './metrics.ts';
import type { SolveWindow } from './solve-window.ts';
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
  /** DMN models only: the decisions, or the decision service, the solve answers (docs/dmn.md). */
  dmnOptions?: DmnOptions;
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

/** A solve of a rule document that is not stored (the Studio's test bench): no audit, no metrics. */
export interface DocumentSolveRequest {
  /** An object (simple solve) or an array of objects (bulk). */
  data: unknown;
  includedConditionCols?: string[];
  excludedConditionCols?: string[];
  dmnOptions?: DmnOptions;
  strategy?: string;
  lookupMethod?: string;
}

export interface DocumentSolveResponse {
  /** Exactly the body POST /rule/solve answers for this data. */
  body: Json[] | Json[][];
  /** The debug trace as an audit record made with X-Debug: true holds it (bulk: one trace per input). */
  trace: Json;
  strategy: Strategy;
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
  /** With `debug`: one evaluation trace per input (the GoRules Agent API answers it; /rule/solve only audits it). */
  traces?: unknown[] | undefined;
}

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
  /** Per-rule solves and latency of the last hour (the Studio's overview); fed beside the metrics. */
  window?: SolveWindow;
}

/** What an evaluation reads from a request (stored-rule solves and document solves alike). */
type EvaluationRequest = Pick<SolveRequest, 'data' | 'includedConditionCols' | 'excludedConditionCols' | 'dmnOptions' | 'lookupMethod' | 'debug'>;

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

/** One request's inputs being evaluated (the one input loop) against the rule it resolved to. */
interface Evaluation {
  loaded: LoadedRule;
  loop: InputLoop;
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
   * compiled in memory, nothing the solve calls waits, and the inputs fit in one slice between event-loop turns
   * (the warm path of almost every request). Otherwise the rule is resolved and loaded asynchronously first. Either way the
   * inputs go through the one input loop (input-loop.ts), which waits only when something does.
   */
  solveNow(principal: Principal, request: SolveRequest): SolveResponse | Promise<SolveResponse> {
    const ready = this.#ready(principal, request);
    if (ready === undefined) return this.#loadThenSolve(principal, request);
    const state = this.#state(request);
    let evaluation: Evaluation;
    try {
      evaluation = this.#evaluation(principal.space, ready.session, ready.loaded, request, state);
      const pending = evaluation.loop.run();
      if (pending !== undefined) return this.#finishLater(pending, principal, request, state, evaluation);
    } catch (err) {
      return this.#finish(principal, request, state, undefined, err);
    }
    return this.#finish(principal, request, state, this.#response(evaluation, state), undefined);
  }

  // Continuations after a wait are methods of their own, not arrows in the synchronous path (engine/maybe-promise.ts).

  #finishLater(pending: Promise<void>, principal: Principal, request: SolveRequest, state: SolveState, evaluation: Evaluation): Promise<SolveResponse> {
    return pending.then(
      () => this.#finish(principal, request, state, this.#response(evaluation, state), undefined),
      (err: unknown) => this.#finish(principal, request, state, undefined, err),
    );
  }

  /**
   * Solves `rule` (compiled from a document that is not stored) as POST /rule/solve would solve a stored rule:
   * same evaluation, time limits and budgets, with the debug trace on. References to other rules (SOLVE, flow
   * nodes) resolve against the space's stored rules. Nothing is audited or counted in the solve metrics: a draft
   * being tried is not traffic. Failures are ServiceErrors with the messages a real solve answers.
   */
  async solveDocument(space: string, rule: LoadedRule, request: DocumentSolveRequest): Promise<DocumentSolveResponse> {
    const state = this.#state(request);
    try {
      const session = new SolveSession(await this.#deps.cache.catalog(space), this.#deps.cache);
      await session.use(rule);
      const evaluation = this.#evaluation(space, session, rule, { ...request, debug: true }, state);
      await evaluation.loop.run();
      const { loop } = evaluation;
      const traces = loop.traces ?? [];
      return {
        body: this.#response(evaluation, state).body,
        trace: (loop.bulk ? traces : (traces[0] ?? null)) as Json,
        strategy: state.strategy,
      };
    } catch (err) {
      throw classify(err) ?? err;
    }
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
    // A rule that may wait (a flow, a script) is admitted too: the input loop answers synchronously when nothing
    // waited, and returns a promise of the rest when something does (perf-engine-sync-flows.md).
    if (loaded === undefined) return undefined;
    if (Array.isArray(request.data) && request.data.length > BULK_YIELD_EVERY) return undefined;
    const session = new SolveSession(catalog, cache);
    return session.useCached(loaded) ? { session, loaded } : undefined;
  }

  /** The cold path: resolves and loads the rule and what it references statically, then the same input loop. */
  async #loadThenSolve(principal: Principal, request: SolveRequest): Promise<SolveResponse> {
    const state = this.#state(request);
    let response: SolveResponse | undefined;
    let failure: unknown;
    try {
      const session = new SolveSession(await this.#deps.cache.catalog(principal.space), this.#deps.cache);
      const loaded = await this.#resolve(session, request);
      await session.use(loaded);
      const evaluation = this.#evaluation(principal.space, session, loaded, request, state);
      await evaluation.loop.run();
      response = this.#response(evaluation, state);
    } catch (err) {
      failure = err;
    }
    return this.#finish(principal, request, state, response, failure);
  }

  #state(request: Pick<SolveRequest, 'strategy'>): SolveState {
    return {
      started: performance.now(),
      startedAt: this.#deps.clock(),
      loaded: undefined,
      strategy: normaliseStrategy(request.strategy),
      traces: undefined,
    };
  }

  /** The request's evaluation context (shared by its inputs: input-loop.ts) and the loop over its inputs. */
  #evaluation(space: string, session: SolveSession, loaded: LoadedRule, request: EvaluationRequest, state: SolveState): Evaluation {
    const { config, http, sandbox } = this.#deps;
    state.loaded = loaded;
    state.strategy = supportedStrategy(loaded.head.type, state.strategy);
    const ctx = createContext({
      strategy: state.strategy,
      includedConditionCols: request.includedConditionCols,
      excludedConditionCols: request.excludedConditionCols,
      lookupMethod: request.lookupMethod,
      now: state.startedAt,
      timeZone: config.timeZone,
      trace: request.debug === true || loaded.audit.debug,
      resolver: session,
      http,
      sandbox: sandbox?.forSpace(space),
      timeoutMs: config.ruleTimeoutMs,
      limits: config.solveLimits,
      dmnOptions: request.dmnOptions,
    });
    const loop = new InputLoop({
      compiled: loaded.compiled,
      ctx,
      data: request.data,
      timeoutMs: config.ruleTimeoutMs,
      loader: session,
      bulkFailure: namingInput,
    });
    state.traces = loop.traces;
    return { loaded, loop };
  }

  #response(evaluation: Evaluation, state: SolveState): SolveResponse {
    const { head } = evaluation.loaded;
    const { loop } = evaluation;
    const body = loop.bulk ? loop.results : loop.results[0]!;
    return { body, ruleId: head.ruleId, version: head.version, ruleType: head.type, strategy: state.strategy, traces: loop.traces };
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
    // Only resolved rules: a request naming no rule of the space is no rule's traffic (and would let anyone grow it).
    if (loaded !== undefined && request.candidate === undefined) {
      this.#deps.window?.observe(principal.space, loaded.head.ruleId, loaded.head.alias, loaded.head.type, error !== undefined, elapsedMs, state.startedAt);
    }
    const auditOn = request.candidate === undefined && (request.audit === true || request.debug === true || loaded?.audit.active === true);
    if (auditOn) {
      const ttlDays = request.auditTtlDays ?? loaded?.audit.ttlDays ?? this.#deps.config.audit.defaultTtlDays;
      this.#deps.audit.enqueue(this.#auditRecord(principal, request, loaded, state.strategy, {
        status,
        output: response === undefined ? null : (response.body as Json),
        errorMessage,
        errorKind: error?.kind ?? null,
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
      errorKind: string | null;
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
      errorKind: outcome.errorKind,
      executionTimeMs: Math.round(outcome.elapsedMs * 1000) / 1000,
      createdAt: new Date(outcome.startedAt).toISOString(),
      expiresAt: new Date(outcome.startedAt + outcome.ttlDays * DAY_MS).toISOString(),
      debug: outcome.traces === undefined ? null : ((bulk ? outcome.traces : (outcome.traces[0] ?? null)) as Json),
    };
  }
}

/** A failed input of a bulk, named as the request body names it. */
function namingInput(err: unknown, index: number): unknown {
  return prefixed(err, `data[${index}]`);
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
