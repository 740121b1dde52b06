// Entry of a script worker process. It hosts the V8 isolates that run rule scripts, so that a fatal error inside
// V8 (an isolate that runs out of memory can abort the whole process despite its limit) takes down this process
// only. The supervisor (pool.ts) leases the worker to one top-level solve at a time and kills it on overrun.
import { setFlagsFromString } from 'node:v8';
import { createScriptSandbox } from '../engine/script/sandbox.ts';
import { LimitError, RuleError, TimeoutError, ValidationError } from '../engine/errors.ts';
import type { HttpRequest, HttpResponse, ScriptCall } from '../engine/types.ts';
import type { DoneMessage, FromWorker, ReplyMessage, RunMessage, ToWorker, WireError, WorkerSettings } from './protocol.ts';
import { WORKER_SETTINGS_VARIABLE } from './protocol.ts';

// Rule scripts use regular expressions too: no pattern may backtrack for ever (see src/cli/main.ts).
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const settings = JSON.parse(process.env[WORKER_SETTINGS_VARIABLE] ?? '{}') as WorkerSettings;
const sandbox = createScriptSandbox({
  // One isolate kept warm; scripts nested below DR.solve in the same solve get more (they are counted by the
  // solve's budget, and the supervisor bounds this process's memory as a whole).
  maxIsolates: 1,
  memoryLimitMb: settings.isolateMemoryMb,
  defaultTimeoutMs: settings.defaultTimeoutMs,
  dataLimits: settings.dataLimits,
});

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}
const pending = new Map<number, Pending>();
/** Sources by cache key, as the supervisor sent them (RunMessage.source). */
const sources = new Map<string, string>();
let nextRequest = 0;
let running = 0;

function send(message: FromWorker): void {
  process.send?.(message);
}

function ask(message: { type: 'solve'; run: number; idOrAlias: string; data: unknown; version: number | undefined; strategy: string | undefined } | { type: 'http'; run: number; http: HttpRequest }): Promise<unknown> {
  const request = ++nextRequest;
  return new Promise((resolve, reject) => {
    pending.set(request, { resolve, reject });
    send({ ...message, request });
  });
}

function onReply(message: ReplyMessage): void {
  const waiter = pending.get(message.request);
  if (!waiter) return;
  pending.delete(message.request);
  if (message.ok) {
    waiter.resolve(message.value);
    return;
  }
  const error = message.error ?? { message: 'the call failed', fatal: true };
  // A RuleError is the script's to catch; a plain Error ends the solve (the sandbox treats it as fatal), and the
  // supervisor re-raises the original error it kept.
  waiter.reject(error.fatal ? new Error(error.message) : new RuleError(error.message));
}

async function onRun(message: RunMessage): Promise<void> {
  const logs: string[] = [];
  const nested = running > 0;
  running++;
  const call: ScriptCall = {
    // Checked and serialised once, by the supervisor: passed into the isolate as the text it already is.
    input: undefined,
    inputJson: message.inputJson,
    ruleVariables: message.ruleVariables,
    solve: (idOrAlias, data, version, strategy) => ask({ type: 'solve', run: message.run, idOrAlias, data, version, strategy }),
    http: message.httpEnabled
      ? {
          request: async (http) => {
            try {
              return (await ask({ type: 'http', run: message.run, http })) as HttpResponse;
            } catch (error) {
              // The deadline inside an HTTP call ends the solve: the sandbox recognises it by its class.
              if (!(error instanceof RuleError)) throw new TimeoutError(message.timeoutMs);
              throw error;
            }
          },
        }
      : undefined,
    log: (line) => logs.push(line),
    deadline: message.deadline,
    timeoutMs: message.timeoutMs,
    nested,
  };
  let done: DoneMessage;
  try {
    const source = message.source ?? sources.get(message.cacheKey);
    // The supervisor sends each source once; missing means the two records disagree, a fault of ours.
    if (source === undefined) throw new Error('the script worker was not sent the script');
    const value = await sandbox.run({ source, cacheKey: message.cacheKey, hostless: message.hostless === true }, call);
    done = { type: 'done', run: message.run, logs, ok: true, value };
  } catch (error) {
    done = { type: 'done', run: message.run, logs, ok: false, error: toWire(error) };
  } finally {
    running--;
  }
  send(done);
}

function toWire(error: unknown): WireError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RuleError) return { name: 'RuleError', message: error.where ? message.slice(error.where.length + 2) : message, where: error.where };
  if (error instanceof TimeoutError) return { name: 'TimeoutError', message, limitMs: error.limitMs };
  if (error instanceof LimitError) return { name: 'LimitError', message };
  if (error instanceof ValidationError) return { name: 'ValidationError', message };
  return { name: 'Error', message };
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'run') {
    // Kept before the run starts: the next message may name this source by its key alone.
    if (message.forget) sources.clear();
    if (message.source !== undefined) sources.set(message.cacheKey, message.source);
    void onRun(message);
  }
  else if (message.type === 'reply') onReply(message);
});
// The supervisor going away (even by SIGKILL) closes the channel: nothing is left for this process to do.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
