// One supervised script worker process. It runs the scripts of one top-level solve at a time (nested scripts of
// that solve included), answers their DR.solve / DR.http requests on this side, and is killed when a run overstays
// its deadline or the process grows past its memory bound. Whatever ends the process fails only the runs it had.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { LimitError, RuleError, TimeoutError, ValidationError } from '../engine/errors.ts';
import type { CompiledScriptHandle, ScriptCall } from '../engine/types.ts';
import type { DoneMessage, FromWorker, HttpRequestMessage, SolveRequestMessage, ToWorker, WireError, WorkerSettings } from './protocol.ts';
import { WORKER_SETTINGS_VARIABLE } from './protocol.ts';

/** Why the supervisor ended a worker ('closed': the pool shut down), or 'crash' when it ended by itself. */
export type WorkerLoss = 'memory' | 'timeout' | 'crash' | 'closed';

export interface WorkerProcessOptions {
  settings: WorkerSettings;
  /** Resident memory the whole worker may use (its scripts' isolates together), bytes. */
  memoryLimitBytes: number;
  /** How long past a run's deadline the supervisor waits before it kills the worker. */
  killGraceMs: number;
  /** How often a busy worker's resident memory is read. */
  memoryPollMs: number;
  onExit: (worker: WorkerProcess, loss: WorkerLoss) => void;
  log: (message: string, details: object) => void;
}

interface ActiveRun {
  call: ScriptCall;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** The first error that ends the solve whatever the script does (a deadline, a budget, a rule to load). */
  fatal: Error | undefined;
  timer: NodeJS.Timeout;
}

const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);
/** Signs in a dead worker's stderr that V8 gave up for lack of memory. */
const OUT_OF_MEMORY = /out of memory|heap limit|is_heap_oom|CALL_AND_RETRY_LAST/i;
const STDERR_KEPT = 8192;

/** Script sources a worker keeps by cache key before the supervisor tells it to forget them all. */
const MAX_SOURCES_PER_WORKER = 512;

export class WorkerProcess {
  readonly #options: WorkerProcessOptions;
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  readonly #runs = new Map<number, ActiveRun>();
  #nextRun = 0;
  /** Cache keys whose source this process holds (it keeps every source it was sent until told to forget). */
  readonly #sent = new Set<string>();
  #stderr = '';
  #loss: WorkerLoss | undefined;
  #exited = false;
  #memoryTimer: NodeJS.Timeout | undefined;

  constructor(options: WorkerProcessOptions) {
    this.#options = options;
    this.#child = fork(ENTRY, [], {
      // Scripts see nothing of the server's environment (database URL, admin token), not even in principle.
      env: { PATH: process.env.PATH, [WORKER_SETTINGS_VARIABLE]: JSON.stringify(options.settings) },
      execArgv: [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    this.#ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromWorker): void => {
        if (message.type !== 'ready') return;
        this.#child.off('message', onMessage);
        resolve();
      };
      this.#child.on('message', onMessage);
      this.#child.once('exit', () => reject(new RuleError('the script sandbox could not be started', 'script')));
    });
    this.#ready.catch(() => undefined);
    this.#child.on('message', (message: FromWorker) => this.#onMessage(message));
    this.#child.on('error', (error) => this.#options.log('script worker error', { pid: this.#child.pid, error: error.message }));
    this.#child.once('exit', (code, signal) => this.#onExit(code, signal));
    this.#idle();
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get alive(): boolean {
    return !this.#exited && this.#loss === undefined;
  }

  /** Runs this worker has been sent and not yet answered: scripts it is running now. */
  get runs(): number {
    return this.#runs.size;
  }

  /** Runs one script in this worker. `inputJson` is the call's input, already checked against the data limits. */
  async execute(handle: CompiledScriptHandle, call: ScriptCall, inputJson: string): Promise<unknown> {
    this.#busy();
    try {
      await this.#ready;
      if (!this.alive) throw this.#lossError(call);
    } catch (error) {
      if (this.#runs.size === 0) this.#idle();
      throw error;
    }
    const run = ++this.#nextRun;
    return new Promise<unknown>((resolve, reject) => {
      const remaining = Math.max(0, call.deadline - Date.now());
      const timer = setTimeout(() => this.kill('timeout'), remaining + this.#options.killGraceMs);
      this.#runs.set(run, { call, resolve, reject, fatal: undefined, timer });
      const known = this.#sent.has(handle.cacheKey);
      const forget = !known && this.#sent.size >= MAX_SOURCES_PER_WORKER;
      if (forget) this.#sent.clear();
      if (!known) this.#sent.add(handle.cacheKey);
      this.#send({
        type: 'run',
        run,
        ...(known ? {} : { source: handle.source }),
        ...(forget ? { forget } : {}),
        ...(handle.hostless ? { hostless: true } : {}),
        cacheKey: handle.cacheKey,
        inputJson,
        ruleVariables: call.ruleVariables,
        deadline: call.deadline,
        timeoutMs: call.timeoutMs,
        httpEnabled: call.http !== undefined,
      });
    });
  }

  /** Ends the process now; its runs fail with the error that `loss` stands for. */
  kill(loss: WorkerLoss): void {
    if (this.#exited) return;
    this.#loss ??= loss;
    this.#child.kill('SIGKILL');
  }

  #send(message: ToWorker): void {
    if (this.#exited || !this.#child.connected) return;
    this.#child.send(message, (error) => {
      if (error) this.kill('crash');
    });
  }

  #onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'done':
        this.#finish(message);
        break;
      case 'solve':
        void this.#answerSolve(message);
        break;
      case 'http':
        void this.#answerHttp(message);
        break;
      default:
        break;
    }
  }

  #finish(message: DoneMessage): void {
    const run = this.#runs.get(message.run);
    if (!run) return;
    this.#end(message.run, run);
    for (const line of message.logs) run.call.log(line);
    if (run.fatal) run.reject(run.fatal);
    else if (message.ok) run.resolve(message.value);
    else run.reject(fromWire(message.error));
  }

  async #answerSolve(message: SolveRequestMessage): Promise<void> {
    const run = this.#runs.get(message.run);
    if (!run) return;
    try {
      const value = await run.call.solve(message.idOrAlias, message.data, message.version, message.strategy);
      this.#send({ type: 'reply', request: message.request, ok: true, value });
    } catch (error) {
      // Rule errors of the called rule are the script's to catch; anything else ends the solve (see ActiveRun.fatal).
      const catchable = error instanceof RuleError || error instanceof ValidationError;
      if (!catchable) run.fatal ??= error instanceof Error ? error : new Error(String(error));
      // The script sees the text of a rule error, a deadline or a budget; a fault of ours stays on this side.
      const shown = catchable || error instanceof TimeoutError || error instanceof LimitError ? messageOf(error) : 'the solve was stopped';
      this.#send({ type: 'reply', request: message.request, ok: false, error: { message: shown, fatal: !catchable } });
    }
  }

  async #answerHttp(message: HttpRequestMessage): Promise<void> {
    const run = this.#runs.get(message.run);
    if (!run) return;
    try {
      if (!run.call.http) throw new Error('HTTP is disabled');
      const value = await run.call.http.request(message.http);
      this.#send({ type: 'reply', request: message.request, ok: true, value });
    } catch (error) {
      const fatal = error instanceof TimeoutError;
      if (fatal) run.fatal ??= error;
      this.#send({ type: 'reply', request: message.request, ok: false, error: { message: messageOf(error), fatal } });
    }
  }

  #end(id: number, run: ActiveRun): void {
    clearTimeout(run.timer);
    this.#runs.delete(id);
    if (this.#runs.size === 0) this.#idle();
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exited = true;
    this.#stopWatchingMemory();
    if (this.#loss === undefined) {
      this.#loss = 'crash';
      if (signal === 'SIGABRT' || signal === 'SIGTRAP' || OUT_OF_MEMORY.test(this.#stderr)) this.#loss = 'memory';
    }
    if (this.#loss !== 'closed') {
      this.#options.log('script worker ended', { pid: this.#child.pid, loss: this.#loss, code, signal, runs: this.#runs.size, stderr: this.#stderr.slice(-1000) });
    }
    for (const [id, run] of [...this.#runs]) {
      this.#end(id, run);
      run.reject(run.fatal ?? this.#lossError(run.call));
    }
    this.#options.onExit(this, this.#loss);
  }

  #lossError(call: ScriptCall): Error {
    switch (this.#loss) {
      case 'timeout':
        return new TimeoutError(call.timeoutMs);
      case 'memory':
        return new RuleError(
          `the script exceeded its memory limit (${this.#options.settings.isolateMemoryMb} MB per script, ${Math.round(this.#options.memoryLimitBytes / 1048576)} MB per solve)`,
          'script',
        );
      case 'closed':
        return new RuleError('the script sandbox has been shut down', 'script');
      default:
        return new RuleError('the script sandbox stopped unexpectedly while running the script', 'script');
    }
  }

  /** While runs are active the worker keeps the server's event loop alive and its memory is watched. */
  #busy(): void {
    this.#child.ref();
    this.#child.channel?.ref();
    this.#memoryTimer ??= setInterval(() => this.#checkMemory(), this.#options.memoryPollMs);
  }

  #idle(): void {
    this.#stopWatchingMemory();
    this.#child.unref();
    this.#child.channel?.unref();
    (this.#child.stderr as { unref?: () => void } | null)?.unref?.();
  }

  #stopWatchingMemory(): void {
    if (this.#memoryTimer) clearInterval(this.#memoryTimer);
    this.#memoryTimer = undefined;
  }

  #checkMemory(): void {
    const rss = residentBytes(this.#child.pid);
    if (rss !== undefined && rss > this.#options.memoryLimitBytes) this.kill('memory');
  }
}

/** A process's resident memory from /proc (Linux); undefined elsewhere, where the isolates' own limits remain. */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function fromWire(error: WireError | undefined): Error {
  if (error === undefined) return new RuleError('the script failed', 'script');
  switch (error.name) {
    case 'RuleError':
      return new RuleError(error.message, error.where);
    case 'TimeoutError':
      return new TimeoutError(error.limitMs);
    case 'LimitError':
      return new LimitError(error.message);
    case 'ValidationError':
      return new RuleError(error.message, 'script');
    default:
      // A fault of the worker's machinery: never shown to a client as is.
      return new RuleError('the script could not be run in the sandbox', 'script');
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
