// The jobs use case (docs/jobs.md): start a job from a rule and its inputs (stored in chunks as they are read),
// read its state, cancel it, stream its results in input order; the worker (worker.ts) solves the chunks and the
// sweeper deletes jobs whose results expired (JOBS_RESULTS_TTL). Every job belongs to one space: a job id of
// another space is answered as unknown.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { JobRecord, JobStore } from '../../store/ports.ts';
import type { ActivityLog } from '../activity.ts';
import type { Clock } from '../clock.ts';
import { ambiguousAlias, MESSAGES, ServiceError, spaceNotFound } from '../errors.ts';
import type { Actor, Principal } from '../keys.ts';
import type { ServiceLogger } from '../logger.ts';
import type { RuleCache } from '../rule-cache.ts';
import type { SolveService } from '../solve.ts';
import { readInputChunks } from './inputs.ts';
import type { JobInputSource } from './inputs.ts';
import { HeldInputs } from './held-inputs.ts';
import { JobWorker } from './worker.ts';

export type { JobInputSource, JobInputFormat } from './inputs.ts';

/** The job object every channel shows (GET /job/{jobId}). */
export interface JobView {
  jobId: string;
  state: JobRecord['state'];
  ruleId: string;
  ruleAlias: string;
  version: number;
  /** Inputs answered so far, and inputs of the job (still growing while `receiving`). */
  processed: number;
  total: number;
  /** Inputs answered with an error. */
  failed: number;
  receiving: boolean;
  /** Inputs answered per second since the job started running (until it ended). */
  rate: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When the job and its results are deleted. */
  expiresAt: string | null;
  error: string | null;
}

export interface StartJobRequest {
  idOrAlias: string;
  version: number | undefined;
  strategy?: string;
}

export interface JobServiceDeps {
  config: Config;
  store: JobStore;
  cache: RuleCache;
  solver: SolveService;
  activity: ActivityLog;
  clock: Clock;
  log: ServiceLogger;
}

/** Chunks of results read from the store per query while a result streams. */
const RESULT_PAGE = 4;
/**
 * Inputs held as objects for this instance's worker (held-inputs.ts), all jobs together: a JSON array body of
 * BODY_LIMIT_BYTES (10 MB by default) holds some 70,000 inputs of 150 bytes.
 */
const HELD_INPUTS = 200_000;
const LIST_LIMIT = 100;

export class JobService {
  readonly #deps: JobServiceDeps;
  readonly worker: JobWorker;
  readonly #held = new HeldInputs(HELD_INPUTS);
  #sweeper: NodeJS.Timeout | undefined;
  #sweeping: Promise<number> | undefined;

  constructor(deps: JobServiceDeps) {
    this.#deps = deps;
    this.worker = new JobWorker({
      store: deps.store,
      solver: deps.solver,
      config: deps.config.jobs,
      clock: deps.clock,
      log: deps.log,
      held: this.#held,
      ended: (job) => this.#recordEnd(job),
    });
  }

  #iso(offsetMs = 0): string {
    return new Date(this.#deps.clock() + offsetMs).toISOString();
  }

  #expiry(): string {
    return this.#iso(this.#deps.config.jobs.resultsTtlMs);
  }

  view(job: JobRecord): JobView {
    const started = job.startedAt === null ? undefined : Date.parse(job.startedAt);
    const until = job.finishedAt === null ? this.#deps.clock() : Date.parse(job.finishedAt);
    const seconds = started === undefined ? 0 : Math.max(0.001, (until - started) / 1000);
    return {
      jobId: job.id,
      state: job.state,
      ruleId: job.ruleId,
      ruleAlias: job.ruleAlias,
      version: job.version,
      processed: job.processed,
      total: job.total,
      failed: job.failed,
      receiving: job.receiving,
      rate: started === undefined ? 0 : Math.round((job.processed / seconds) * 10) / 10,
      createdAt: job.createdAt,
      startedAt: job.startedAt,
      finishedAt: job.finishedAt,
      expiresAt: job.expiresAt,
      error: job.error,
    };
  }

  /**
   * Starts a job: resolves the rule now (the job solves that version to the end), stores the inputs chunk by chunk
   * as they are read, and answers the job once every input is stored. A refused input deletes the job.
   */
  async start(principal: Principal, request: StartJobRequest, source: JobInputSource): Promise<JobView> {
    const { store, config } = this.#deps;
    const head = await this.#resolve(principal.space, request);
    const job: JobRecord = {
      id: randomUUID(),
      space: principal.space,
      ruleId: head.ruleId,
      ruleAlias: head.alias,
      version: head.version,
      state: 'Waiting',
      total: 0,
      processed: 0,
      failed: 0,
      receiving: true,
      actor: principal.actor,
      keyId: principal.keyId,
      strategy: request.strategy ?? null,
      createdAt: this.#iso(),
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      error: null,
    };
    await store.create(job);
    let total = 0;
    try {
      for await (const chunk of readInputChunks(source, {
        chunkSize: config.jobs.chunkSize,
        maxInputs: config.jobs.maxInputs,
        maxUploadBytes: config.jobs.maxUploadBytes,
        maxLineBytes: config.bodyLimitBytes,
      })) {
        const { seq, firstPart, inputs, count } = chunk;
        if (count === undefined) {
          await store.addInputParts(job.id, seq, firstPart, inputs);
          continue;
        }
        await store.addChunks(job.id, [{ seq, firstPart, inputs, count }]);
        if (chunk.values !== undefined && config.jobs.enabled) this.#held.hold(job.space, job.id, seq, chunk.values);
        total += count;
        this.worker.wake();
      }
    } catch (err) {
      this.#held.drop(job.id);
      await store.delete(job.id).catch((cause: unknown) => this.#deps.log.error({ err: cause, job: job.id }, 'deleting a refused job failed'));
      throw err;
    }
    await this.#record(job, principal.actor, 'job.started', { total });
    const sealed = await store.sealInputs(job.id, this.#iso(), this.#expiry());
    if (sealed === undefined) throw this.#unknown(job.id);
    if (sealed.state === 'Completed') await this.#recordEnd(sealed);
    return this.view(sealed);
  }

  async get(space: string, jobId: string): Promise<JobView> {
    return this.view(await this.#job(space, jobId));
  }

  async list(space: string): Promise<JobView[]> {
    return (await this.#deps.store.list(space, LIST_LIMIT)).map((job) => this.view(job));
  }

  async cancel(principal: Principal, jobId: string): Promise<JobView> {
    const job = await this.#job(principal.space, jobId);
    const [changed] = await this.#deps.store.cancel(principal.space, { jobId }, this.#iso(), this.#expiry());
    if (changed === undefined) {
      throw new ServiceError('job-not-active', `Job ${jobId} is ${job.state}; only a Waiting or Running job can be canceled`);
    }
    this.#held.drop(jobId);
    await this.#record(changed, principal.actor, 'job.canceled');
    return this.view(changed);
  }

  /** Cancels every active job of the space, or of one rule version (by id or alias); answers those canceled. */
  async cancelAll(principal: Principal, filter: { space?: string; rule?: string; version?: number }): Promise<JobView[]> {
    if (filter.space !== undefined && filter.space !== principal.space) throw spaceNotFound(filter.space);
    const changed = await this.#deps.store.cancel(principal.space, { rule: filter.rule, version: filter.version }, this.#iso(), this.#expiry());
    for (const job of changed) {
      this.#held.drop(job.id);
      await this.#record(job, principal.actor, 'job.canceled');
    }
    return changed.map((job) => this.view(job));
  }

  /**
   * The results of a Completed job as NDJSON text pieces, in input order (one line per input). Throws before the
   * first piece when the job is unknown (or expired) or not Completed.
   */
  async results(space: string, jobId: string): Promise<AsyncIterable<string>> {
    const job = await this.#job(space, jobId);
    if (job.state !== 'Completed') {
      throw new ServiceError('job-not-completed', `Job ${jobId} is ${job.state}; results are available once it is Completed`);
    }
    const store = this.#deps.store;
    return (async function* pages() {
      let next = 0;
      for (;;) {
        const page = await store.results(jobId, next, RESULT_PAGE);
        if (page.length === 0) return;
        // Part by part: joining them would make one string of megabytes (text-parts.ts).
        for (const part of page) yield part.lines;
        next += RESULT_PAGE;
      }
    })();
  }

  /** Starts the worker (JOBS_ENABLED) and the sweeper of expired jobs. */
  startWorking(): void {
    if (!this.#deps.config.jobs.enabled) return;
    this.worker.start();
    this.#sweeper ??= setInterval(() => {
      this.sweep().catch((err: unknown) => this.#deps.log.error({ err }, 'job sweep failed'));
    }, this.#deps.config.jobs.sweepIntervalMs);
    this.#sweeper.unref();
  }

  /** Cancelling jobs whose chunks are no longer solved become Canceled; expired jobs are deleted. Returns deleted. */
  async sweep(): Promise<number> {
    if (this.#sweeping) return this.#sweeping;
    this.#sweeping = (async () => {
      const now = this.#iso();
      await this.#deps.store.settleCancelling(now);
      await this.#dropEndedHeld();
      const deleted = await this.#deps.store.deleteExpired(now);
      if (deleted > 0) this.#deps.log.info({ deleted }, 'expired jobs deleted');
      return deleted;
    })();
    try {
      return await this.#sweeping;
    } finally {
      this.#sweeping = undefined;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    await this.worker.stop();
    if (this.#sweeping) await this.#sweeping.catch(() => 0);
  }

  async #resolve(space: string, request: StartJobRequest) {
    const resolution = (await this.#deps.cache.catalog(space)).resolve(request.idOrAlias, request.version);
    if (resolution.ok) return resolution.head;
    if (resolution.reason === 'ambiguous') throw ambiguousAlias(request.idOrAlias, resolution.count);
    if (resolution.reason === 'not-published') throw new ServiceError('not-published', MESSAGES.notPublished);
    throw new ServiceError('unknown-rule', MESSAGES.unknownRule);
  }

  #unknown(jobId: string): ServiceError {
    return new ServiceError('job-not-found', `Job ${jobId} does not exist in this space (or its results expired: JOBS_RESULTS_TTL)`);
  }

  async #job(space: string, jobId: string): Promise<JobRecord> {
    const job = await this.#deps.store.get(space, jobId);
    if (job === undefined) throw this.#unknown(jobId);
    return job;
  }

  /** Held inputs of jobs that ended elsewhere (another instance solved their last chunks, or they were canceled). */
  async #dropEndedHeld(): Promise<void> {
    for (const { space, jobId } of this.#held.jobs()) {
      const job = await this.#deps.store.get(space, jobId);
      if (job === undefined || (job.state !== 'Waiting' && job.state !== 'Running')) this.#held.drop(jobId);
    }
  }

  async #recordEnd(job: JobRecord): Promise<void> {
    this.#held.drop(job.id);
    await this.#record(job, job.actor, job.state === 'Completed' ? 'job.finished' : 'job.failed', job.error === null ? {} : { error: job.error });
  }

  /** The job's event in the space's activity log (and so to webhooks); a failure to record never fails the job. */
  async #record(job: JobRecord, actor: Actor, action: string, extra: Record<string, unknown> = {}): Promise<void> {
    try {
      await this.#deps.activity.record(job.space, actor, action, {
        rule: { ruleId: job.ruleId, alias: job.ruleAlias, version: job.version },
        detail: { jobId: job.id, rule: job.ruleId, version: job.version, total: job.total, processed: job.processed, failed: job.failed, ...extra },
      });
    } catch (err) {
      this.#deps.log.error({ err, job: job.id, action }, 'recording a job event failed');
    }
  }
}
