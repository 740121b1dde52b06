// Deletes expired audit records periodically (and on `verdict audit purge`).
import type { AuditStore } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';

export interface RetentionLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export class RetentionTask {
  readonly #store: AuditStore;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #log: RetentionLogger;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;

  constructor(store: AuditStore, clock: Clock, intervalMs: number, log: RetentionLogger) {
    this.#store = store;
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#log = log;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.runOnce().catch((err: unknown) => this.#log.error({ err }, 'audit retention failed'));
    }, this.#intervalMs);
    this.#timer.unref();
  }

  /** Deletes every record expired now; returns how many. */
  async runOnce(): Promise<number> {
    if (this.#running) return this.#running;
    this.#running = this.#store.deleteExpired(isoAt(this.#clock));
    try {
      const deleted = await this.#running;
      if (deleted > 0) this.#log.info({ deleted }, 'expired audit records deleted');
      return deleted;
    } finally {
      this.#running = undefined;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#running) await this.#running.catch(() => 0);
  }
}
