// Optional per-key rate limiting (RATE_LIMIT_PER_SECOND; off by default). A fixed one-second window per key:
// simple, O(1), and good enough to stop one client from starving the others on a single instance. It is per
// instance, not global; see docs/decisions/service-rate-limiting.md.
import type { Clock } from './clock.ts';

export class RateLimiter {
  readonly #perSecond: number;
  readonly #clock: Clock;
  #window = 0;
  #counts = new Map<string, number>();

  constructor(perSecond: number, clock: Clock) {
    this.#perSecond = perSecond;
    this.#clock = clock;
  }

  /** Counts one request for `key`. Undefined when allowed, else the seconds to wait (for Retry-After). */
  take(key: string): number | undefined {
    const now = this.#clock();
    const window = Math.floor(now / 1000);
    if (window !== this.#window) {
      this.#window = window;
      this.#counts = new Map();
    }
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    if (count <= this.#perSecond) return undefined;
    return Math.max(1, Math.ceil(((window + 1) * 1000 - now) / 1000));
  }

  get limit(): number {
    return this.#perSecond;
  }
}
