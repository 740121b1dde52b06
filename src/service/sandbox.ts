// The script sandbox of a service instance. Scripts run in supervised worker processes (src/script-workers), one
// pool per process, shared out by space; tests and embedders may inject any ScriptSandbox instead.
import type { Config } from '../config.ts';
import type { ScriptSandbox } from '../engine/types.ts';
import { ScriptWorkerPool } from '../script-workers/pool.ts';
import type { Metrics } from './metrics.ts';

/** The sandbox each space's solves use. */
export interface SpaceSandboxes {
  forSpace(space: string): ScriptSandbox;
  dispose(): void;
}

export function createSandboxes(config: Config, metrics: Metrics, log: (message: string, details: object) => void): SpaceSandboxes {
  const { scripts } = config;
  return new ScriptWorkerPool({
    workers: scripts.workers,
    perSpace: scripts.workersPerSpace,
    queuePerSpace: scripts.queuePerSpace,
    isolateMemoryMb: scripts.isolateMemoryMb,
    solveMemoryMb: scripts.solveMemoryMb,
    defaultTimeoutMs: config.ruleTimeoutMs,
    dataLimits: { maxChars: scripts.maxDataChars, maxDepth: scripts.maxDataDepth },
    events: metrics.scriptPoolEvents(),
    log,
  });
}

/** One injected sandbox serving every space (no per-space share). */
export function sharedSandbox(sandbox: ScriptSandbox): SpaceSandboxes {
  return { forSpace: () => sandbox, dispose: () => sandbox.dispose() };
}
