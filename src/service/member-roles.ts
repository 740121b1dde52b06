// lead: replace with roles.ts. The roles and permissions of the Teams contract, as much as users and sessions need
// until src/service/roles.ts lands on main; then this file goes and its importers take roles.ts instead.
import type { Principal } from './keys.ts';

export const ROLES = ['viewer', 'editor', 'publisher', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | 'rules:solve' | 'rules:read' | 'rules:run' | 'rules:edit' | 'rules:publish' | 'rules:approve' | 'audit:read' | 'space:admin';

const VIEWER: Permission[] = ['rules:solve', 'rules:read', 'rules:run', 'audit:read'];
const EDITOR: Permission[] = [...VIEWER, 'rules:edit'];
const PUBLISHER: Permission[] = [...EDITOR, 'rules:publish', 'rules:approve'];
const ADMIN: Permission[] = [...PUBLISHER, 'space:admin'];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  viewer: new Set(VIEWER),
  editor: new Set(EDITOR),
  publisher: new Set(PUBLISHER),
  admin: new Set(ADMIN),
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Who acted: a user, a management key, or a machine token (name: username, key name or token subject). */
export interface Actor {
  kind: 'key' | 'user' | 'token';
  id: string;
  name: string;
}

/** lead: Principal gains role and actor in keys.ts; until then sessions answer this. */
export type RolePrincipal = Principal & { role: Role; actor: Actor };
