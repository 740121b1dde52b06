// Who is calling the MCP server: a management key of one space. Every tool works in that space only, and every
// write is recorded in the rule history under the key's name, as the management API records it.
import type { Actor, Principal } from '../service/keys.ts';
import type { Role } from '../service/roles.ts';

export interface McpCaller {
  space: string;
  /** The rule history's "who": the key's name, or null for a key without one. */
  by: string | null;
  /** What the caller may do: each tool names its permission (tools.ts). */
  role: Role;
  actor: Actor;
}

export function callerOf(principal: Principal): McpCaller {
  const by = principal.actor.kind === 'key' ? principal.keyName ?? null : principal.actor.name;
  return { space: principal.space, by, role: principal.role, actor: principal.actor };
}
