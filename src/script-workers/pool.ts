// The server's ScriptSandbox: rule scripts run in a pool of supervised worker processes (worker-process.ts), never
// in the server process, so no script can crash the server. Each top-level solve leases one worker for all its
// scripts (nested DR.solve calls included) and gives it back when its last script ends. A space may hold at most
// `perSpace` workers at once, so one space's runaway scripts cannot starve the others; the rest wait in one FIFO
// queue, each against its own deadline.
import type { CompiledScriptHandle, ScriptCall, ScriptSandbox } from '../engine/types.ts';
import { LimitError, RuleError, TimeoutError } from '../engine/errors.ts';
import { inputText } from '../engine/script/data-limits.ts';
import type { ScriptDataLimits } from '../engine/script/data-limits.ts';
import { WorkerProcess } from './worker-process.ts';
import type { WorkerLoss } from './worker-process.ts';

export interface ScriptPoolEvents {
  /** A script waited this long for a worker (0 when one was free), whether it then got one or not. */
  waited(seconds: number): void;
  /** A script was refused a worker: its space's queue was full, or its deadline passed while it waited. */
  rejected(reason: 'queue-full' | 'timeout'): void;
  /** A worker ended while it was leased or was killed by the supervisor. */
  lost(loss: WorkerLoss): void;
}

export interface ScriptPoolOptions {
  /** Worker processes at most. */
  workers: number;
  /** Workers one space may hold at once. */
  perSpace: number;
  /** Scripts of one space that may wait for a worker; beyond it they are refused at once. */
  queuePerSpace: number;
  /** Heap limit of each isolate, MB. */
  isolateMemoryMb: number;
  /** Resident memory of one worker, that is of all the scripts of one solve, MB. */
  solveMemoryMb: number;
  defaultTimeoutMs: number;
  dataLimits: ScriptDataLimits;
  /** Past a run's deadline, how long before the worker is killed. Default 250 ms. */
  killGraceMs?: number;
  /** Default 50 ms. */
  memoryPollMs?: number;
  events?: ScriptPoolEvents;
  log?: (message: string, details: object) => void;
}

/** Every script of one top-level solve, with the worker they share. */
interface ScopeLease {
  worker: Promise<WorkerProcess>;
  space: string;
  users: number;
}

interface Waiter {
  space: string;
  since: number;
  deadline: number;
  timeoutMs: number | undefined;
  resolve: (worker: WorkerProcess) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

const NO_EVENTS: ScriptPoolEvents = { waited: () => {}, rejected: () => {}, lost: () => {} };

export class ScriptWorkerPool {
  readonly #options: Required<Omit<ScriptPoolOptions, 'events' | 'log'>>;
  readonly #events: ScriptPoolEvents;
  readonly #log: (message: string, details: object) => void;
  readonly #idle: WorkerProcess[] = [];
  readonly #live = new Set<WorkerProcess>();
  /** Workers held per space. */
  readonly #held = new Map<string, number>();
  readonly #queue: Waiter[] = [];
  readonly #scopes = new WeakMap<object, ScopeLease>();
  readonly #views = new Map<string, ScriptSandbox>();
  #closed = false;

  constructor(options: ScriptPoolOptions) {
    this.#options = { killGraceMs: 250, memoryPollMs: 50, ...options };
    this.#events = options.events ?? NO_EVENTS;
    this.#log = options.log ?? (() => {});
  }

  /** The sandbox a solve of `space` uses: the same pool, with the space's share of it. */
  forSpace(space: string): ScriptSandbox {
    let view = this.#views.get(space);
    if (!view) {
      view = { run: (handle, call) => this.run(handle, call, space), dispose: () => {} };
      this.#views.set(space, view);
    }
    return view;
  }

  /** Worker processes alive now. */
  get size(): number {
    return this.#live.size;
  }

  /** Scripts running in a worker now (sent to a started worker and not yet ended), for diagnostics. */
  get running(): number {
    let runs = 0;
    for (const worker of this.#live) runs += worker.runs;
    return runs;
  }

  /** Scripts waiting in the queue for a worker now, for diagnostics. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Process ids of the live workers, for diagnostics. */
  workerPids(): number[] {
    return [...this.#live].flatMap((worker) => (worker.pid === undefined ? [] : [worker.pid]));
  }

  async run(handle: CompiledScriptHandle, call: ScriptCall, space: string): Promise<unknown> {
    if (this.#closed) throw new RuleError('the script sandbox has been shut down', 'script');
    const inputJson = inputText(call.input, this.#options.dataLimits);
    const deadline = Number.isFinite(call.deadline) ? call.deadline : Date.now() + this.#options.defaultTimeoutMs;
    const timeoutMs = call.timeoutMs ?? (Number.isFinite(call.deadline) ? undefined : this.#options.defaultTimeoutMs);
    const scope = call.scope ?? {};
    let lease = this.#scopes.get(scope);
    if (!lease) {
      lease = { worker: this.#acquire(space, deadline, timeoutMs), space, users: 0 };
      this.#scopes.set(scope, lease);
    }
    lease.users++;
    try {
      const worker = await lease.worker;
      return await worker.execute(handle, { ...call, deadline, timeoutMs }, inputJson);
    } finally {
      if (--lease.users === 0) {
        this.#scopes.delete(scope);
        lease.worker.then((worker) => this.#release(worker, lease.space), () => undefined);
      }
    }
  }

  dispose(): void {
    this.#closed = true;
    for (const waiter of this.#queue.splice(0)) {
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.reject(new RuleError('the script sandbox has been shut down', 'script'));
    }
    for (const worker of this.#live) worker.kill('closed');
  }

  #acquire(space: string, deadline: number, timeoutMs: number | undefined): Promise<WorkerProcess> {
    if (this.#canStart(space)) {
      this.#events.waited(0);
      return Promise.resolve(this.#take(space));
    }
    const waiting = this.#queue.reduce((count, waiter) => count + (waiter.space === space ? 1 : 0), 0);
    if (waiting >= this.#options.queuePerSpace) {
      this.#events.rejected('queue-full');
      return Promise.reject(
        new LimitError(`too many scripts of this space are running or waiting (${this.#options.perSpace} running, ${waiting} waiting); try again later`),
      );
    }
    return new Promise<WorkerProcess>((resolve, reject) => {
      const waiter: Waiter = { space, since: performance.now(), deadline, timeoutMs, resolve, reject, timer: undefined };
      waiter.timer = setTimeout(() => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        this.#expire(waiter);
      }, Math.max(0, deadline - Date.now()));
      this.#queue.push(waiter);
    });
  }

  #canStart(space: string): boolean {
    if ((this.#held.get(space) ?? 0) >= this.#options.perSpace) return false;
    return this.#idle.length > 0 || this.#live.size < this.#options.workers;
  }

  #take(space: string): WorkerProcess {
    this.#held.set(space, (this.#held.get(space) ?? 0) + 1);
    return this.#idle.pop() ?? this.#spawn();
  }

  #release(worker: WorkerProcess, space: string): void {
    const held = (this.#held.get(space) ?? 1) - 1;
    if (held === 0) this.#held.delete(space);
    else this.#held.set(space, held);
    if (worker.alive && !this.#closed) this.#idle.push(worker);
    this.#dispatch();
  }

  /** Hands free workers to the oldest waiters whose space is under its share. */
  #dispatch(): void {
    for (let i = 0; i < this.#queue.length && !this.#closed; ) {
      const waiter = this.#queue[i]!;
      if (!this.#canStart(waiter.space)) {
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      if (waiter.timer) clearTimeout(waiter.timer);
      // A worker freed at the very moment a waiter's time ran out would only start a run that is already late.
      if (Date.now() >= waiter.deadline) {
        this.#expire(waiter);
        continue;
      }
      this.#events.waited((performance.now() - waiter.since) / 1000);
      waiter.resolve(this.#take(waiter.space));
    }
  }

  #expire(waiter: Waiter): void {
    this.#events.waited((performance.now() - waiter.since) / 1000);
    this.#events.rejected('timeout');
    waiter.reject(new TimeoutError(waiter.timeoutMs));
  }

  #spawn(): WorkerProcess {
    const { isolateMemoryMb, defaultTimeoutMs, dataLimits, solveMemoryMb, killGraceMs, memoryPollMs } = this.#options;
    const worker = new WorkerProcess({
      settings: { isolateMemoryMb, defaultTimeoutMs, dataLimits },
      memoryLimitBytes: solveMemoryMb * 1024 * 1024,
      killGraceMs,
      memoryPollMs,
      log: this.#log,
      onExit: (ended, loss) => {
        this.#live.delete(ended);
        const index = this.#idle.indexOf(ended);
        if (index >= 0) this.#idle.splice(index, 1);
        if (loss !== 'closed') this.#events.lost(loss);
        // A slot is free again: a waiter gets a fresh worker.
        this.#dispatch();
      },
    });
    this.#live.add(worker);
    return worker;
  }
}
