// Direct calls of a ScriptSandbox, for the sandbox and worker-pool tests: a fresh cache key per script, and a call
// with a deadline `timeoutMs` from now and DR.solve not wired unless a test wires it.
import type { CompiledScriptHandle, ScriptCall } from '../../src/engine/types.ts';

let counter = 0;

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
