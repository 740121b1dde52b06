// The one ScriptSandbox of a service instance (isolates are native resources: one pool per process).
import type { Config } from '../config.ts';
import type { ScriptSandbox } from '../engine/types.ts';
import { createScriptSandbox } from '../engine/script/sandbox.ts';

export function createSandbox(config: Config): ScriptSandbox {
  return createScriptSandbox({ defaultTimeoutMs: config.ruleTimeoutMs });
}
