// What the signed-in role allows, as the server answered it (Me.spaces[].permissions). The server is the guard
// (every route checks its permission); this only reflects it, so an action the role does not allow is disabled
// with the reason instead of failing with a 403 after the click.
import type { MemberRole, Permission, SpaceMembership } from '../api/auth.ts';

export interface Grants {
  role: MemberRole;
  space: string;
  can(permission: Permission): boolean;
  /** Why the role cannot `what` ("publish"), or undefined when it can. */
  reason(permission: Permission, what: string): string | undefined;
}

export function grantsOf(membership: SpaceMembership): Grants {
  const allowed = new Set(membership.permissions);
  return {
    role: membership.role,
    space: membership.space,
    can: (permission) => allowed.has(permission),
    reason: (permission, what) => (allowed.has(permission) ? undefined : `Your role ${membership.role} cannot ${what}`),
  };
}
