// The ScriptSandbox over isolated-vm: rule scripts are untrusted code, so each runs in a V8 isolate with a memory
// limit, a deadline enforced twice (isolated-vm's own timeout for synchronous stretches, and a watchdog that
// disposes the isolate for loops that start after an `await`), and a fresh context per solve so nothing one solve
// leaves behind is visible to the next. Only JSON text crosses the boundary in either direction, plus the two
// host functions behind DR.solve and DR.http.
import ivm from 'isolated-vm';
import { availableParallelism } from 'node:os';
import type { CompiledScriptHandle, HttpRequest, ScriptCall, ScriptSandbox } from '../types.ts';
import { LimitError, RuleError, TimeoutError, ValidationError } from '../errors.ts';
import { IsolatePool } from './isolate-pool.ts';
import type { PooledIsolate } from './isolate-pool.ts';
import type { BootstrapLimits } from './bootstrap.ts';
import { checkText, DEFAULT_SCRIPT_DATA_LIMITS, inputText } from './data-limits.ts';
import type { ScriptDataLimits } from './data-limits.ts';
import { adoptScript, createWarmRealm, releaseWarmRealm, runWarm } from './warm-realm.ts';

export interface ScriptSandboxOptions {
  /** Isolates kept alive at most (each runs one solve at a time). Default: min(4, CPU count). */
  maxIsolates?: number;
  /** Heap limit of each isolate in MB (isolated-vm's minimum is 8). Default 64. */
  memoryLimitMb?: number;
  /** Time limit for a solve whose context has no deadline. Default 5000 ms (RULE_TIMEOUT_MS). */
  defaultTimeoutMs?: number;
  /** Compiled scripts kept per isolate. Default 256. */
  maxScriptsPerIsolate?: number;
  /** log() lines kept per solve. Default 1000. */
  maxLogLines?: number;
  /** Characters kept per log() line. Default 10000. */
  maxLogLineChars?: number;
  /** Size and nesting of the script's input and output (DEFAULT_SCRIPT_DATA_LIMITS). */
  dataLimits?: Partial<ScriptDataLimits>;
}

/** How long after the deadline the watchdog waits before it kills the isolate. */
const WATCHDOG_GRACE_MS = 10;

export function createScriptSandbox(options: ScriptSandboxOptions = {}): ScriptSandbox {
  const memoryLimitMb = Math.max(8, options.memoryLimitMb ?? 64);
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 5000;
  const limitsJson = JSON.stringify({
    maxLogLines: options.maxLogLines ?? 1000,
    maxLogLineChars: options.maxLogLineChars ?? 10_000,
  } satisfies BootstrapLimits);
  const dataLimits: ScriptDataLimits = { ...DEFAULT_SCRIPT_DATA_LIMITS, ...options.dataLimits };
  const maxScriptsPerIsolate = Math.max(1, options.maxScriptsPerIsolate ?? 256);
  const pool = new IsolatePool({
    maxIsolates: Math.max(1, options.maxIsolates ?? Math.min(4, availableParallelism())),
    memoryLimitMb,
    maxScriptsPerIsolate,
  });

  /**
   * A hostless script in the isolate's warm realm, synchronously: the runner's text, or undefined when the run did
   * not settle in its call (it must then run in a fresh context, where later events can settle it). A realm that
   * could not be reset, or whose run failed inside the machinery, is thrown away.
   */
  function runWarmly(entry: PooledIsolate, script: ivm.Script, handle: CompiledScriptHandle, inputJson: string, variablesJson: string, deadline: number, timeoutMs: number | undefined): string | undefined {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new TimeoutError(timeoutMs);
    const realm = (entry.warm ??= createWarmRealm(entry.isolate, entry.bootstrap));
    let clean = false;
    try {
      adoptScript(realm, script, handle.cacheKey, maxScriptsPerIsolate);
      const run = runWarm(realm, handle.cacheKey, inputJson, variablesJson, limitsJson, Math.max(1, Math.ceil(remaining)));
      clean = run.clean;
      return run.text ?? undefined;
    } finally {
      if (!clean) {
        entry.warm = undefined;
        if (!entry.isolate.isDisposed) releaseWarmRealm(realm);
      }
    }
  }

  async function run(handle: CompiledScriptHandle, call: ScriptCall): Promise<unknown> {
    const started = Date.now();
    const deadline = Number.isFinite(call.deadline) ? call.deadline : started + defaultTimeoutMs;
    const timeoutMs = call.timeoutMs ?? (Number.isFinite(call.deadline) ? undefined : defaultTimeoutMs);
    const inputJson = call.inputJson ?? inputText(call.input, dataLimits);
    const variablesJson = JSON.stringify(call.ruleVariables ?? {});
    // A hostless run takes an idle isolate at once. A nested one that finds none (below a script's DR.solve) stays
    // in a fresh context: it gets an isolate made for it and disposed after, where hardening a realm (2-12 ms of
    // CPU) would cost more than the fresh context it saves.
    const idle = handle.hostless === true ? pool.takeIdle() : undefined;
    const warm = idle !== undefined || (handle.hostless === true && call.nested !== true);
    const entry = idle ?? (await pool.acquire(deadline, timeoutMs, call.nested === true));
    if (warm) {
      let text: string | undefined;
      try {
        // A script already compiled runs without yielding, so concurrent solves never queue for the isolate.
        const script = pool.cachedScript(entry, handle.cacheKey) ?? (await pool.script(entry, handle.source, handle.cacheKey));
        text = runWarmly(entry, script, handle, inputJson, variablesJson, deadline, timeoutMs);
      } catch (error) {
        pool.release(entry);
        throw translate(error, entry, false, timeoutMs, memoryLimitMb);
      }
      if (text !== undefined) {
        pool.release(entry);
        return deliver(text, call, dataLimits);
      }
    }
    const execution = new Execution(call);
    let context: ivm.Context | undefined;
    // References into the context keep it alive inside the isolate: every one is released after the run.
    const references: ivm.Reference[] = [];
    let watchdogFired = false;
    try {
      const script = await pool.script(entry, handle.source, handle.cacheKey);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new TimeoutError(timeoutMs);
      context = await entry.isolate.createContext();
      const bootstrap = (await entry.bootstrap.run(context, { reference: true })) as ivm.Reference;
      references.push(bootstrap);
      const runner = (await bootstrap.apply(
        undefined,
        [inputJson, variablesJson, execution.solveReference, execution.httpReference, call.http !== undefined, limitsJson],
        { result: { reference: true } },
      )) as ivm.Reference;
      references.push(runner);
      const main = (await script.run(context, { reference: true })) as ivm.Reference;
      references.push(main);
      const watchdog = setTimeout(() => {
        watchdogFired = true;
        entry.isolate.dispose();
      }, remaining + WATCHDOG_GRACE_MS);
      let text: string;
      try {
        text = (await runner.apply(undefined, [main.derefInto()], {
          timeout: Math.max(1, Math.ceil(remaining)),
          result: { promise: true, copy: true },
        })) as string;
      } finally {
        clearTimeout(watchdog);
      }
      if (execution.fatal) throw execution.fatal;
      return deliver(text, call, dataLimits);
    } catch (error) {
      if (execution.fatal) throw execution.fatal;
      throw translate(error, entry, watchdogFired, timeoutMs, memoryLimitMb);
    } finally {
      execution.release();
      if (!entry.isolate.isDisposed) {
        for (const reference of references) reference.release();
        context?.release();
      }
      pool.release(entry);
    }
  }

  return {
    run,
    dispose: () => pool.close(),
  };
}

interface RunnerOutcome {
  ok: boolean;
  logs: string[];
  logsTruncated: boolean;
  error?: { message: string; line: number | null };
}

/** What a client is told when a script broke the sandbox's own machinery (never our internal error text). */
const BROKEN_RESULT = 'the script\'s result could not be read (did the script replace a built-in such as JSON or a prototype\'s toJSON?)';

/** The bootstrap runner's text (see BOOTSTRAP_SOURCE): a description line, then the value's JSON on success. */
function deliver(text: string, call: ScriptCall, limits: ScriptDataLimits): unknown {
  const newline = text.indexOf('\n');
  const outcome = readOutcome(newline < 0 ? text : text.slice(0, newline));
  if (outcome === undefined) throw new RuleError(BROKEN_RESULT, 'script');
  for (const line of outcome.logs) call.log(line);
  if (outcome.logsTruncated) call.log('[further log lines were dropped]');
  if (!outcome.ok) {
    const error = outcome.error ?? { message: 'the script failed', line: null };
    throw new RuleError(error.message, error.line === null ? 'script' : `script line ${error.line}`);
  }
  if (newline < 0) throw new RuleError(BROKEN_RESULT, 'script');
  const valueText = text.slice(newline + 1);
  checkText(valueText, limits, 'output');
  try {
    return JSON.parse(valueText);
  } catch {
    throw new RuleError(BROKEN_RESULT, 'script');
  }
}

/** The description line, or undefined when the script tampered with it (through toJSON on a prototype, say). */
function readOutcome(line: string): RunnerOutcome | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const outcome = value as Record<string, unknown>;
  if (typeof outcome.ok !== 'boolean' || typeof outcome.logsTruncated !== 'boolean') return undefined;
  if (!Array.isArray(outcome.logs) || !outcome.logs.every((entry) => typeof entry === 'string')) return undefined;
  if (outcome.error !== undefined) {
    const error = outcome.error as Record<string, unknown> | null;
    if (error === null || typeof error !== 'object' || typeof error.message !== 'string') return undefined;
    if (error.line !== null && typeof error.line !== 'number') return undefined;
  }
  return outcome as unknown as RunnerOutcome;
}

function translate(
  error: unknown,
  entry: PooledIsolate,
  watchdogFired: boolean,
  timeoutMs: number | undefined,
  memoryLimitMb: number,
): Error {
  if (error instanceof RuleError || error instanceof TimeoutError || error instanceof LimitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (watchdogFired || /execution timed out/i.test(message)) return new TimeoutError(timeoutMs);
  if (entry.isolate.isDisposed) return new RuleError(`the script exceeded its memory limit of ${memoryLimitMb} MB`, 'script');
  // isolated-vm's own failures describe our machinery, not the rule: the client gets a fixed text.
  return new RuleError('the script could not be run in the sandbox', 'script');
}

/**
 * The host side of one script run: the functions behind DR.solve and DR.http, and the first error that must end
 * the solve whatever the script does with it (a timeout, a rule that still has to be loaded, a fault of ours).
 * Rule errors of a called rule are passed into the script, which may catch them.
 */
class Execution {
  readonly solveReference: ivm.Reference;
  readonly httpReference: ivm.Reference;
  fatal: Error | undefined;

  constructor(call: ScriptCall) {
    this.solveReference = new ivm.Reference(async (idOrAlias: unknown, data: unknown, version: unknown, strategy: unknown) => {
      if (typeof idOrAlias !== 'string' || idOrAlias === '') {
        throw new Error('DR.solve needs the rule id or alias as its first argument');
      }
      try {
        return await call.solve(idOrAlias, data, versionOf(version), typeof strategy === 'string' ? strategy : undefined);
      } catch (error) {
        throw this.#passOn(error);
      }
    });
    this.httpReference = new ivm.Reference(async (method: HttpRequest['method'], url: unknown, body: unknown, headers: unknown) => {
      if (!call.http) throw new Error('HTTP is disabled');
      if (typeof url !== 'string') throw new Error(`DR.http.${method.toLowerCase()} needs a URL string`);
      const requestHeaders = headersOf(headers);
      let response;
      try {
        response = await call.http.request({ method, url, headers: requestHeaders, body });
      } catch (error) {
        // A failed request is the script's to handle (the docs call DR.http failures catchable); only the deadline is not.
        throw error instanceof TimeoutError ? this.#passOn(error) : new Error(messageOf(error));
      }
      if (response.status < 200 || response.status > 299) {
        throw new Error(`Request failed with status code ${response.status}`);
      }
      return {
        status: response.status,
        body: response.body,
        config: { contacted_url: url, request_headers: requestHeaders },
        response_headers: response.headers,
        timestamp: new Date().toISOString(),
      };
    });
  }

  release(): void {
    this.solveReference.release();
    this.httpReference.release();
  }

  /** The error the script sees; remembers the ones that end the solve regardless. */
  #passOn(error: unknown): Error {
    if (!(error instanceof RuleError) && !(error instanceof ValidationError) && error instanceof Error) {
      // TimeoutError, UnresolvedRuleError (the service loads the rule and solves again) and faults of ours.
      this.fatal ??= error;
    }
    return new Error(messageOf(error));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** DR.solve's version argument: a positive number or numeric text; anything else means the latest version. */
function versionOf(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 ? number : undefined;
}

function headersOf(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === null || typeof value !== 'object') return headers;
  for (const [name, text] of Object.entries(value)) {
    if (text !== undefined && text !== null) headers[name] = typeof text === 'string' ? text : JSON.stringify(text);
  }
  return headers;
}
