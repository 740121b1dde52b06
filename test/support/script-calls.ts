// Direct calls of a ScriptSandbox, for the sandbox and worker-pool tests: a fresh cache key per script, and a call
// with a deadline `timeoutMs` from now and DR.solve not wired unless a test wires it. Also what those tests (and the
// HTTP ones that reach the server's pool) use to wait for an observable state instead of sleeping.
import type { CompiledScriptHandle, ScriptCall } from '../../src/engine/types.ts';
import type { ScriptWorkerPool } from '../../src/script-workers/pool.ts';

let counter = 0;

/**
 * A time limit for calls whose subject is not the limit. A loaded two-core machine can take seconds to start a
 * worker process or an isolate, and that time counts against the deadline: a short limit would fail such a call
 * for the machine's speed, not for anything the script did.
 */
export const UNHURRIED_MS = 60_000;

export function scriptHandle(source: string): CompiledScriptHandle {
  counter++;
  return { source, cacheKey: `test-script-${counter}` };
}

export function scriptCall(timeoutMs: number, overrides: Partial<ScriptCall> = {}): ScriptCall {
  return {
    input: {},
    ruleVariables: {},
    solve: () => Promise.reject(new Error('DR.solve is not wired in this test')),
    log: () => {},
    deadline: Date.now() + timeoutMs,
    timeoutMs,
    ...overrides,
  };
}

/**
 * A DR.solve for scripts that report they are running (`await DR.solve("started", {})` before their loop):
 * `all` resolves once `count` scripts have called it, so a test knows its scripts run instead of guessing a delay.
 */
export function startedSignal(count = 1): { solve: ScriptCall['solve']; all: Promise<void> } {
  let started = 0;
  let resolve: () => void = () => {};
  const all = new Promise<void>((done) => (resolve = done));
  const solve = (): Promise<unknown> => {
    if (++started >= count) resolve();
    return Promise.resolve(null);
  };
  return { solve, all };
}

/** A promise and whether it has settled yet, readable at any moment ("was B answered while A still ran?"). */
export interface Tracked<T> {
  readonly promise: Promise<T>;
  readonly settled: boolean;
}

export function track<T>(promise: Promise<T>): Tracked<T> {
  let settled = false;
  // Handling the rejection here also keeps a run the test awaits later from counting as unhandled meanwhile.
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return {
    promise,
    get settled() {
      return settled;
    },
  };
}

/**
 * Starts `count` worker processes of `pool` and leaves them idle and ready: `count` scripts run at once, each in a
 * space of its own, and each waits until all have started, so no worker serves two of them. A test whose subject is
 * what happens while other scripts run uses it so that a cold start (seconds on a loaded machine) is not part of it.
 */
export async function warmWorkers(pool: ScriptWorkerPool, count: number): Promise<void> {
  let release: () => void = () => {};
  const everyoneStarted = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  const hold = scriptHandle('return await DR.solve("hold", {});');
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      pool.run(
        hold,
        scriptCall(UNHURRIED_MS, {
          solve: () => {
            if (++started === count) release();
            return everyoneStarted.then(() => null);
          },
        }),
        `warm-up-${index}`,
      ),
    ),
  );
}

/** Polls `condition` until it holds. The bound only turns a broken behaviour into a failure instead of a hang. */
export async function until(condition: () => boolean, what: string, boundMs = UNHURRIED_MS): Promise<void> {
  const giveUp = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > giveUp) throw new Error(`still waiting after ${boundMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
