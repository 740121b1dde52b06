// Who is calling the MCP server: a management key of one space. Every tool works in that space only, and every
// write is recorded in the rule history under the key's name, as the management API records it.
import type { Principal } from '../service/keys.ts';

export interface McpCaller {
  space: string;
  /** The rule history's "who": the key's name, or null for a key without one. */
  by: string | null;
}

export function callerOf(principal: Principal): McpCaller {
  return { space: principal.space, by: principal.keyName ?? null };
}
