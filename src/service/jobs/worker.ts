// The job worker of one instance (JOBS_ENABLED): JOBS_CONCURRENCY loops, each leasing one chunk at a time from the
// store, solving it and committing its results with its completion. A lease is renewed while its chunk is solved; a
// worker that dies stops renewing, and once the lease has passed another instance's worker takes the chunk and
// solves it again (its results are stored once: JobStore.complete). A clean stop gives the leases back.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobsConfig } from '../../config.ts';
import type { JobRecord, JobStore, LeasedChunk } from '../../store/ports.ts';
import type { Clock } from '../clock.ts';
import type { ServiceLogger } from '../logger.ts';
import type { SolveService } from '../solve.ts';
import { solveChunk } from './chunk-solver.ts';
import type { ChunkInputs } from './chunk-solver.ts';
import type { HeldInputs } from './held-inputs.ts';

/** A chunk leased this many times without completing fails its job: something in it stops every instance. */
export const MAX_CHUNK_ATTEMPTS = 5;
/**
 * Parts of a chunk's inputs read at a time (some 800 inputs of 150 bytes): read as they are solved, a chunk's text
 * does not stay in memory for its whole solve, long enough to be moved to the old generation.
 */
const INPUT_PARTS_READ = 4;

export interface JobWorkerDeps {
  store: JobStore;
  solver: SolveService;
  config: JobsConfig;
  clock: Clock;
  log: ServiceLogger;
  /** Inputs of chunks this instance stored, still as objects: solved without reading them back. */
  held: HeldInputs;
  /** The job ended (Completed or Error) on this worker: the service records the event. */
  ended(job: JobRecord): Promise<void>;
}

/** The store failed while a chunk's inputs were read: the store's fault, not the chunk's; the lease lapses. */
class InputsUnread extends Error {
  constructor(cause: unknown) {
    super('reading job inputs failed', { cause });
  }
}

export class JobWorker {
  /** This worker's name on its leases: host, process and a random part (two workers never share one). */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly #deps: JobWorkerDeps;
  #loops: Promise<void>[] = [];
  #stopping = false;
  #wakers = new Set<() => void>();

  constructor(deps: JobWorkerDeps) {
    this.#deps = deps;
  }

  start(): void {
    if (this.#loops.length > 0) return;
    for (let i = 0; i < this.#deps.config.concurrency; i++) this.#loops.push(this.#loop());
  }

  /** New chunks were written: idle loops look at once instead of at their next poll. */
  wake(): void {
    for (const wake of [...this.#wakers]) wake();
  }

  /** Finishes the chunks being solved, then gives back any lease still held. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.wake();
    await Promise.all(this.#loops);
    this.#loops = [];
    await this.#deps.store.release(this.owner).catch((err: unknown) => this.#deps.log.error({ err }, 'releasing job leases failed'));
  }

  #iso(offsetMs = 0): string {
    return new Date(this.#deps.clock() + offsetMs).toISOString();
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      let chunk: LeasedChunk | undefined;
      try {
        chunk = await this.#deps.store.claim(this.owner, this.#iso(), this.#iso(this.#deps.config.leaseMs), MAX_CHUNK_ATTEMPTS);
      } catch (err) {
        this.#deps.log.error({ err }, 'leasing a job chunk failed');
      }
      if (chunk === undefined) await this.#idle();
      else await this.#work(chunk);
    }
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.#deps.config.pollIntervalMs);
      this.#wakers.add(done);
    });
  }

  /** The chunk's inputs: held here still, or read from the store a few parts at a time while they are solved. */
  #inputs(chunk: LeasedChunk): ChunkInputs {
    const { job, seq } = chunk;
    const values = this.#deps.held.take(job.id, seq);
    if (values !== undefined) return { values };
    return {
      parts: (fromPart) => this.#deps.store.inputParts(job.id, seq, fromPart, INPUT_PARTS_READ).catch((err: unknown) => {
        throw new InputsUnread(err);
      }),
    };
  }

  async #work(chunk: LeasedChunk): Promise<void> {
    const { store, config, log } = this.#deps;
    const { job, seq } = chunk;
    const inputs = this.#inputs(chunk);
    const expires = () => this.#iso(config.resultsTtlMs);
    if (chunk.attempts > MAX_CHUNK_ATTEMPTS) {
      const message = `Chunk ${seq} (inputs from ${seq * config.chunkSize}) was taken ${MAX_CHUNK_ATTEMPTS} times without completing; the job stopped`;
      await this.#fail(job, message);
      return;
    }
    const renewal = setInterval(() => {
      store.renew(this.owner, job.id, seq, this.#iso(config.leaseMs)).catch((err: unknown) => log.warn({ err, job: job.id, seq }, 'renewing a job lease failed'));
    }, Math.max(50, Math.floor(config.leaseMs / 3)));
    try {
      let solved;
      try {
        solved = await solveChunk(this.#deps.solver, job, seq, inputs);
      } catch (err) {
        if (err instanceof InputsUnread) {
          log.error({ err: err.cause, job: job.id, seq }, 'reading a job chunk\'s inputs failed; it is solved again once its lease passes');
          return;
        }
        log.error({ err, job: job.id, seq }, 'solving a job chunk failed');
        await this.#fail(job, `Internal error solving chunk ${seq} of the job; the details are in the server log`);
        return;
      }
      if (solved.count !== chunk.count) {
        // Its parts were deleted under it (the lease passed to a worker that completed it, or the job ended).
        log.warn({ job: job.id, seq, read: solved.count, count: chunk.count }, 'job chunk inputs read short; not stored');
        return;
      }
      // A store that fails here leaves the chunk leased: once the lease passes, a worker solves it again.
      const outcome = await store.complete(this.owner, job.id, seq, solved.lines, solved.failed, this.#iso(), expires());
      if (outcome.kind === 'lost') log.warn({ job: job.id, seq }, 'job chunk lease lost before completing; another worker solves it');
      if (outcome.kind === 'stored' && outcome.job.state === 'Completed') await this.#deps.ended(outcome.job);
    } catch (err) {
      log.error({ err, job: job.id, seq }, 'storing a job chunk failed; it is solved again once its lease passes');
    } finally {
      clearInterval(renewal);
    }
  }

  async #fail(job: JobRecord, message: string): Promise<void> {
    try {
      const failed = await this.#deps.store.fail(job.id, message, this.#iso(), this.#iso(this.#deps.config.resultsTtlMs));
      if (failed !== undefined) await this.#deps.ended(failed);
    } catch (err) {
      this.#deps.log.error({ err, job: job.id }, 'marking a job failed did not succeed');
    }
  }
}
