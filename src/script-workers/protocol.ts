// Messages between the supervisor (the server process) and a script worker process, over Node's IPC channel.
// Script data crosses as JSON text it already is on both sides; the worker never sees a rule resolver, a store or
// an HTTP client: DR.solve and DR.http come back to the supervisor as requests.
import type { HttpRequest, HttpResponse } from '../engine/types.ts';
import type { ScriptDataLimits } from '../engine/script/data-limits.ts';

/** Settings the worker starts with (passed once, in its environment, as JSON). */
export interface WorkerSettings {
  /** Heap limit of each isolate, MB. */
  isolateMemoryMb: number;
  defaultTimeoutMs: number;
  dataLimits: ScriptDataLimits;
}

export const WORKER_SETTINGS_VARIABLE = 'VERDICT_SCRIPT_WORKER_SETTINGS';

/** A serialised error: the class decides how the supervisor re-raises it. */
export interface WireError {
  name: 'RuleError' | 'TimeoutError' | 'LimitError' | 'ValidationError' | 'Error';
  message: string;
  where?: string;
  limitMs?: number;
}

// Supervisor -> worker.
export interface RunMessage {
  type: 'run';
  run: number;
  /**
   * The script's text, sent the first time this worker runs the cache key (and after `forget`); later runs name it
   * by its key only, so a function node with its 30 KB of libraries is not serialised on every call.
   */
  source?: string;
  cacheKey: string;
  /** The worker drops every source it kept before keeping this one (the supervisor's record of them was full). */
  forget?: boolean;
  /** CompiledScriptHandle.hostless: the script may run in the sandbox's warm realm. */
  hostless?: boolean;
  inputJson: string;
  ruleVariables: Record<string, unknown>;
  deadline: number;
  timeoutMs: number | undefined;
  httpEnabled: boolean;
}
/** The answer to a worker's DR.solve or DR.http request. `fatal`: the error ends the solve; the script cannot catch it. */
export interface ReplyMessage {
  type: 'reply';
  request: number;
  ok: boolean;
  value?: unknown;
  error?: { message: string; fatal: boolean };
}
export type ToWorker = RunMessage | ReplyMessage;

// Worker -> supervisor.
export interface ReadyMessage {
  type: 'ready';
}
export interface DoneMessage {
  type: 'done';
  run: number;
  logs: string[];
  ok: boolean;
  value?: unknown;
  error?: WireError;
}
export interface SolveRequestMessage {
  type: 'solve';
  run: number;
  request: number;
  idOrAlias: string;
  data: unknown;
  version: number | undefined;
  strategy: string | undefined;
}
export interface HttpRequestMessage {
  type: 'http';
  run: number;
  request: number;
  http: HttpRequest;
}
export type FromWorker = ReadyMessage | DoneMessage | SolveRequestMessage | HttpRequestMessage;

export type { HttpResponse };
