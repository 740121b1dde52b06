// Sign-in throttling per username and per client address (docs/decisions/users-and-sessions.md). Failed sign-ins
// are counted in a window; reaching the limit locks the name (or the address) for the window, and each further
// lock doubles it. While locked every attempt is refused with Retry-After, even one with the right password, so
// guessing cannot go on at full speed. Counts live in this process (like the solve rate limits): with several
// instances an attacker gets the limit once per instance, still a few guesses per window.
import type { Clock } from './clock.ts';
import { usernameKey } from '../store/ports.ts';
import { ServiceError } from './errors.ts';

export interface ThrottleLimits {
  /** Failures of one username within the window before it is locked. */
  perUser: number;
  /** Failures from one address (any usernames) within the window before it is locked. */
  perAddress: number;
  windowMs: number;
  /** The longest lock, however many times the limit was reached. */
  maxLockMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perUser: 5, perAddress: 20, windowMs: 15 * 60_000, maxLockMs: 24 * 3_600_000 };

interface Counter {
  failures: number;
  windowStart: number;
  lockedUntil: number;
  /** Locks so far: the next one lasts window * 2^locks. Forgotten after a quiet window past the last lock. */
  locks: number;
}

/** Entries kept at most; beyond it the oldest are dropped (a flood of random usernames cannot grow memory). */
const MAX_ENTRIES = 100_000;

export class SignInThrottle {
  readonly #clock: Clock;
  readonly #limits: ThrottleLimits;
  readonly #counters = new Map<string, Counter>();

  constructor(clock: Clock, limits: ThrottleLimits = DEFAULT_THROTTLE) {
    this.#clock = clock;
    this.#limits = limits;
  }

  static userKey(username: string): string {
    return `user:${usernameKey(username)}`;
  }

  static addressKey(address: string): string {
    return `address:${address}`;
  }

  /** Throws sign-in-throttled (with Retry-After seconds) while any of the keys is locked. */
  check(keys: string[]): void {
    const now = this.#clock();
    let until = 0;
    for (const key of keys) until = Math.max(until, this.#counters.get(key)?.lockedUntil ?? 0);
    if (until > now) {
      const retryAfter = Math.ceil((until - now) / 1000);
      throw new ServiceError('sign-in-throttled', `Too many failed sign-ins; try again in ${retryAfter} s`, { retryAfter });
    }
  }

  /** Counts a failed sign-in against each key (a username key has the per-user limit, an address key its own). */
  fail(keys: string[]): void {
    const now = this.#clock();
    for (const key of keys) {
      const counter = this.#counters.get(key) ?? { failures: 0, windowStart: now, lockedUntil: 0, locks: 0 };
      if (now - counter.windowStart >= this.#limits.windowMs && now >= counter.lockedUntil) {
        // The window is over: count afresh; a whole quiet window after the last lock forgives the earlier locks.
        counter.failures = 0;
        counter.windowStart = now;
        if (now - counter.lockedUntil >= this.#limits.windowMs) counter.locks = 0;
      }
      counter.failures++;
      if (counter.failures >= this.#limitOf(key)) {
        const lockMs = Math.min(this.#limits.windowMs * 2 ** counter.locks, this.#limits.maxLockMs);
        counter.lockedUntil = now + lockMs;
        counter.locks++;
        counter.failures = 0;
        counter.windowStart = now;
      }
      this.#counters.delete(key);
      this.#counters.set(key, counter);
    }
    while (this.#counters.size > MAX_ENTRIES) this.#counters.delete(this.#counters.keys().next().value!);
  }

  /** A successful sign-in clears the username's count (not the address's: one good account must not reset it). */
  succeed(userKey: string): void {
    this.#counters.delete(userKey);
  }

  #limitOf(key: string): number {
    return key.startsWith('address:') ? this.#limits.perAddress : this.#limits.perUser;
  }
}
