// Audit records leave the hot path: a solve only enqueues; a timer (or a full batch) writes them in one
// transaction. The queue is bounded: past the limit records are dropped and counted rather than growing memory.
import type { AuditConfig } from '../config.ts';
import type { AuditRecord, AuditStore } from '../store/ports.ts';
import type { Metrics } from './metrics.ts';

export interface AuditLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export class AuditWriter {
  readonly #store: AuditStore;
  readonly #config: AuditConfig;
  readonly #log: AuditLogger;
  readonly #metrics: Metrics;
  #queue: AuditRecord[] = [];
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #warnedFull = false;

  constructor(store: AuditStore, config: AuditConfig, log: AuditLogger, metrics: Metrics) {
    this.#store = store;
    this.#config = config;
    this.#log = log;
    this.#metrics = metrics;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.flush(), this.#config.flushIntervalMs);
    this.#timer.unref();
  }

  get pending(): number {
    return this.#queue.length;
  }

  enqueue(record: AuditRecord): void {
    if (this.#queue.length >= this.#config.queueLimit) {
      this.#metrics.auditDropped.inc();
      if (!this.#warnedFull) {
        this.#warnedFull = true;
        this.#log.warn({ queueLimit: this.#config.queueLimit }, 'audit queue full; dropping audit records');
      }
      return;
    }
    this.#queue.push(record);
    if (this.#queue.length >= this.#config.batchSize) void this.flush();
  }

  /** Writes everything queued so far. Never rejects: a failed batch is logged and counted as dropped. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#queue.length === 0) return;
    this.#flushing = this.#drain();
    try {
      await this.#flushing;
    } finally {
      this.#flushing = undefined;
    }
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#config.batchSize);
      try {
        await this.#store.insertMany(batch);
        this.#metrics.auditWritten.inc(batch.length);
        this.#warnedFull = false;
      } catch (err) {
        this.#metrics.auditDropped.inc(batch.length);
        this.#log.error({ err, records: batch.length }, 'writing audit records failed; batch dropped');
      }
    }
  }

  /** Stops the timer and writes what is left (graceful shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
