// A bounded pool of V8 isolates. Each solve leases one isolate for itself (a script stuck in a loop or over its
// memory limit then harms nobody else), runs in a fresh context inside it, and gives it back. An isolate that
// died (memory limit, watchdog) is dropped and a new one is created on demand.
import ivm from 'isolated-vm';
import { BOOTSTRAP_SOURCE, SCRIPT_FILE_NAME, wrapScript } from './bootstrap.ts';
import { RuleError, TimeoutError } from '../errors.ts';
import type { WarmRealm } from './warm-realm.ts';

export interface PooledIsolate {
  readonly isolate: ivm.Isolate;
  readonly bootstrap: ivm.Script;
  /** Compiled rule scripts by cache key, least recently used first. */
  readonly scripts: Map<string, ivm.Script>;
  /** The hardened context reused by runs that make no host calls (warm-realm.ts), once one needed it. */
  warm?: WarmRealm;
}

export interface IsolatePoolOptions {
  maxIsolates: number;
  memoryLimitMb: number;
  maxScriptsPerIsolate: number;
}

interface Waiter {
  resolve: (entry: PooledIsolate) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class IsolatePool {
  readonly #options: IsolatePoolOptions;
  readonly #idle: PooledIsolate[] = [];
  readonly #waiters: Waiter[] = [];
  #live = 0;
  #closed = false;

  constructor(options: IsolatePoolOptions) {
    this.#options = options;
  }

  /** Isolates alive now (idle or leased). */
  get size(): number {
    return this.#live;
  }

  /**
   * Leases an isolate. `overflow` lets a script called from inside another script (DR.solve) get an isolate even
   * when the pool is full: otherwise scripts that wait on each other could hold every isolate and deadlock.
   */
  acquire(deadline: number, timeoutMs: number | undefined, overflow: boolean): Promise<PooledIsolate> {
    if (this.#closed) return Promise.reject(new RuleError('the script sandbox has been shut down'));
    const idle = this.#idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.#live < this.#options.maxIsolates || overflow) return Promise.resolve(this.#create());
    return new Promise<PooledIsolate>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, timer: undefined };
      const wait = deadline - Date.now();
      if (Number.isFinite(wait)) {
        waiter.timer = setTimeout(() => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(new TimeoutError(timeoutMs));
        }, Math.max(0, wait));
      }
      this.#waiters.push(waiter);
    });
  }

  /** An idle isolate now, without waiting (a caller that can finish without yielding never queues). */
  takeIdle(): PooledIsolate | undefined {
    return this.#closed ? undefined : this.#idle.pop();
  }

  release(entry: PooledIsolate): void {
    if (entry.isolate.isDisposed) {
      this.#live--;
      // A replacement is created lazily, by the next waiter or the next acquire.
      const waiter = this.#waiters.shift();
      if (waiter && !this.#closed) this.#hand(waiter, this.#create());
      return;
    }
    if (this.#closed || this.#live > this.#options.maxIsolates) {
      this.#live--;
      entry.isolate.dispose();
      return;
    }
    const waiter = this.#waiters.shift();
    if (waiter) this.#hand(waiter, entry);
    else this.#idle.push(entry);
  }

  /** The compiled form of a rule script in this isolate, compiled on first use and kept per cache key. */
  async script(entry: PooledIsolate, source: string, cacheKey: string): Promise<ivm.Script> {
    const cached = this.cachedScript(entry, cacheKey);
    if (cached) return cached;
    let compiled: ivm.Script;
    try {
      compiled = await entry.isolate.compileScript(wrapScript(source), { filename: SCRIPT_FILE_NAME, lineOffset: -1 });
    } catch (error) {
      throw new RuleError(`the script does not compile: ${error instanceof Error ? error.message : String(error)}`);
    }
    entry.scripts.set(cacheKey, compiled);
    if (entry.scripts.size > this.#options.maxScriptsPerIsolate) {
      const oldest = entry.scripts.keys().next().value as string;
      entry.scripts.get(oldest)?.release();
      entry.scripts.delete(oldest);
    }
    return compiled;
  }

  /** The compiled script if this isolate has it (marked as just used), without waiting. */
  cachedScript(entry: PooledIsolate, cacheKey: string): ivm.Script | undefined {
    const cached = entry.scripts.get(cacheKey);
    if (cached) {
      entry.scripts.delete(cacheKey);
      entry.scripts.set(cacheKey, cached);
    }
    return cached;
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) {
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.reject(new RuleError('the script sandbox has been shut down'));
    }
    for (const entry of this.#idle.splice(0)) {
      this.#live--;
      entry.isolate.dispose();
    }
  }

  #hand(waiter: Waiter, entry: PooledIsolate): void {
    if (waiter.timer) clearTimeout(waiter.timer);
    waiter.resolve(entry);
  }

  #create(): PooledIsolate {
    const isolate = new ivm.Isolate({ memoryLimit: this.#options.memoryLimitMb });
    const bootstrap = isolate.compileScriptSync(BOOTSTRAP_SOURCE, { filename: 'verdict-bootstrap.js' });
    this.#live++;
    return { isolate, bootstrap, scripts: new Map() };
  }
}
