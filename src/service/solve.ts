// The solve use case, shared by HTTP and Kafka: resolve the rule (id or alias, version or latest published) in
// the caller's space -> compiled cache -> evaluate each input with a deadline -> audit -> metrics.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { solve as solveAsync, solveSync } from '../engine/index.ts';
import { RuleError, TimeoutError, UnresolvedRuleError, ValidationError } from '../engine/errors.ts';
import type { HttpClient, Json, RuleType, ScriptSandbox, SolveOptions, Strategy } from '../engine/types.ts';
import { normaliseStrategy } from '../engine/context.ts';
import type { Config } from '../config.ts';
import type { AuditRecord } from '../store/ports.ts';
import type { AuditWriter } from './audit-writer.ts';
import type { Clock } from './clock.ts';
import { ambiguousAlias, MESSAGES, ServiceError } from './errors.ts';
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
  channel?: 'http' | 'kafka';
}

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
  const strategy = normaliseStrategy(requested);
  return (SUPPORTED[ruleType] ?? ['STANDARD']).includes(strategy) ? strategy : 'STANDARD';
}

/** How many times one input is re-solved after loading a rule it referenced that was not in memory. */
const MAX_RESOLVE_RETRIES = 32;
/** Bulk solves give the event loop a turn this often, so one large bulk cannot starve other requests. */
const BULK_YIELD_EVERY = 64;
const DAY_MS = 86_400_000;

export interface SolveServiceDeps {
  config: Config;
  cache: RuleCache;
  audit: AuditWriter;
  metrics: Metrics;
  clock: Clock;
  http: HttpClient | undefined;
  sandbox: ScriptSandbox | undefined;
}

export class SolveService {
  readonly #deps: SolveServiceDeps;

  constructor(deps: SolveServiceDeps) {
    this.#deps = deps;
  }

  async solve(principal: Principal, request: SolveRequest): Promise<SolveResponse> {
    const started = performance.now();
    const startedAt = this.#deps.clock();
    const channel = request.channel ?? 'http';
    let loaded: LoadedRule | undefined;
    let strategy: Strategy = normaliseStrategy(request.strategy);
    let status = 200;
    let output: Json | null = null;
    let errorMessage: string | null = null;
    let traces: unknown[] | undefined;
    try {
      const session = new SolveSession(await this.#deps.cache.catalog(principal.space), this.#deps.cache);
      loaded = await this.#resolve(session, request);
      await session.use(loaded);
      strategy = effectiveStrategy(loaded.head.type, request.strategy);
      const trace = request.debug === true || loaded.audit.debug;
      const bulk = Array.isArray(request.data);
      const inputs: unknown[] = bulk ? (request.data as unknown[]) : [request.data];
      const results: Json[][] = [];
      if (trace) traces = [];
      for (let i = 0; i < inputs.length; i++) {
        if (i > 0 && i % BULK_YIELD_EVERY === 0) await yieldToEventLoop();
        try {
          const result = await this.#evaluate(session, loaded, inputs[i], request, strategy, trace);
          results.push(result.result);
          if (traces) traces.push(bulk ? (result.trace ?? []) : result.trace);
        } catch (err) {
          throw bulk ? prefixed(err, `data[${i}]`) : err;
        }
      }
      const body = bulk ? results : results[0]!;
      output = body as Json;
      return { body, ruleId: loaded.head.ruleId, version: loaded.head.version, ruleType: loaded.head.type, strategy };
    } catch (err) {
      const failure = toServiceError(err);
      if (failure === undefined) {
        status = 500;
        errorMessage = 'internal error';
        throw err;
      }
      status = failure.status;
      errorMessage = failure.message;
      throw failure;
    } finally {
      const elapsedMs = performance.now() - started;
      this.#deps.metrics.observeSolve({
        ruleType: loaded?.head.type ?? 'unknown',
        strategy,
        status,
        channel,
        seconds: elapsedMs / 1000,
      });
      const auditOn = request.audit === true || request.debug === true || loaded?.audit.active === true;
      if (auditOn) {
        const ttlDays = request.auditTtlDays ?? loaded?.audit.ttlDays ?? this.#deps.config.audit.defaultTtlDays;
        this.#deps.audit.enqueue(this.#auditRecord(principal, request, loaded, strategy, {
          status, output, errorMessage, elapsedMs, startedAt, ttlDays, traces,
        }));
      }
    }
  }

  async #resolve(session: SolveSession, request: SolveRequest): Promise<LoadedRule> {
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

  async #evaluate(
    session: SolveSession,
    loaded: LoadedRule,
    input: unknown,
    request: SolveRequest,
    strategy: Strategy,
    trace: boolean,
  ): Promise<{ result: Json[]; trace?: unknown[] }> {
    const { config, http, sandbox, clock } = this.#deps;
    const options: SolveOptions = {
      strategy,
      includedConditionCols: request.includedConditionCols,
      excludedConditionCols: request.excludedConditionCols,
      lookupMethod: request.lookupMethod,
      now: clock(),
      timeZone: config.timeZone,
      trace,
      resolver: session,
      http,
      sandbox,
      timeoutMs: config.ruleTimeoutMs,
    };
    for (let attempt = 0; ; attempt++) {
      // The deadline is real time even when tests move the service clock.
      options.deadline = Date.now() + config.ruleTimeoutMs;
      try {
        if (!loaded.compiled.async) return solveSync(loaded.compiled, input, options);
        return await withDeadline(solveAsync(loaded.compiled, input, options), config.ruleTimeoutMs);
      } catch (err) {
        if (!(err instanceof UnresolvedRuleError) || attempt >= MAX_RESOLVE_RETRIES) throw err;
        await session.load(err.idOrAlias, err.version);
      }
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

/** Rule-level failures become client errors; anything else is a fault of ours (undefined: the caller logs it). */
export function toServiceError(err: unknown): ServiceError | undefined {
  if (err instanceof ServiceError) return err;
  if (err instanceof TimeoutError) return new ServiceError('timeout', err.message);
  if (err instanceof RuleError || err instanceof ValidationError) return new ServiceError('rule-error', err.message);
  if (err instanceof UnresolvedRuleError) return new ServiceError('rule-error', `rule ${err.idOrAlias} could not be loaded`);
  return undefined;
}

function prefixed(err: unknown, where: string): unknown {
  const failure = toServiceError(err);
  if (failure === undefined) return err;
  return new ServiceError(failure.kind, `${where}: ${failure.message}`, failure.retryAfter);
}
