// Audit records leave the hot path: a solve only enqueues; a timer (or a full batch) writes them in one
// transaction. The queue is bounded: past the limit records are dropped and counted rather than growing memory.
// Each record is serialised on its own before its batch is written: one record that cannot be (an input nested
// too deep for JSON.stringify) is dropped alone, never with the other spaces' records of its batch.
import type { AuditConfig } from '../config.ts';
import type { AuditRecord, AuditStore, EncodedAuditRecord } from '../store/ports.ts';
import type { Metrics } from './metrics.ts';

/** The record with its JSON fields as text; throws what JSON.stringify throws (RangeError for deep nesting). */
export function encodeAuditRecord(record: AuditRecord): EncodedAuditRecord {
  return {
    ...record,
    input: JSON.stringify(record.input) ?? 'null',
    output: record.output === null ? null : (JSON.stringify(record.output) ?? null),
    debug: record.debug === null ? null : (JSON.stringify(record.debug) ?? null),
  };
}

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
      const batch = this.#encode(this.#queue.splice(0, this.#config.batchSize));
      if (batch.length === 0) continue;
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

  /** The batch's records that serialise; each one that does not is logged, counted as dropped and left out. */
  #encode(records: AuditRecord[]): EncodedAuditRecord[] {
    const encoded: EncodedAuditRecord[] = [];
    for (const record of records) {
      try {
        encoded.push(encodeAuditRecord(record));
      } catch (err) {
        this.#metrics.auditDropped.inc();
        this.#log.warn(
          { reason: err instanceof Error ? err.message : String(err), auditId: record.id, space: record.space, correlationId: record.correlationId },
          'audit record cannot be serialised (input or output nested too deep?); this record dropped',
        );
      }
    }
    return encoded;
  }

  /** Stops the timer and writes what is left (graceful shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
