// Roles and permissions of a space (docs/decisions/roles-and-permissions.md). A role is a set of permissions in
// one table, so a custom role is one more row; every management route names the permission it needs
// (`config.permission`, checked by src/http/auth.ts) and the service checks the ones a body can widen (a write
// that publishes). A management key acts as `admin` of its space; a solver key only solves.
import { ServiceError } from './errors.ts';

export const PERMISSIONS = [
  'rules:solve',
  'rules:read',
  'rules:run',
  'rules:edit',
  'rules:publish',
  'rules:approve',
  'audit:read',
  'space:admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The roles from least to most: each has every permission of the one before it (`solver` only solves). */
export const ROLES = ['solver', 'viewer', 'editor', 'publisher', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a person can hold in a space (`solver` is for machine tokens that only solve). */
export const MEMBER_ROLES = ['viewer', 'editor', 'publisher', 'admin'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
}

const GRANTS: Record<Role, readonly Permission[]> = {
  solver: ['rules:solve'],
  viewer: ['rules:solve', 'rules:read', 'rules:run', 'audit:read'],
  editor: ['rules:edit'],
  publisher: ['rules:publish', 'rules:approve'],
  admin: ['space:admin'],
};

function permissionsOf(role: Role): ReadonlySet<Permission> {
  const index = ROLES.indexOf(role);
  // `solver` stands apart; every other role adds to the one before it, starting at viewer.
  const included = role === 'solver' ? ['solver' as const] : ROLES.slice(1, index + 1);
  return new Set(included.flatMap((r) => GRANTS[r]));
}

export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = Object.fromEntries(
  ROLES.map((role) => [role, permissionsOf(role)]),
) as Record<Role, ReadonlySet<Permission>>;

/** What a permission lets its holder do, for the refusal's message. */
const DOES: Record<Permission, string> = {
  'rules:solve': 'solving rules',
  'rules:read': 'reading rules',
  'rules:run': 'running rules and their tests',
  'rules:edit': 'changing rules',
  'rules:publish': 'publishing, locking and deleting rules',
  'rules:approve': 'approving rule versions',
  'audit:read': 'reading the audit and activity logs',
  'space:admin': 'administering the space (members, API keys, Kafka, settings)',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** The refusal of a principal whose role lacks a permission: a 403 naming the role, the space and what is missing. */
export function forbidden(who: { role: Role; space: string }, permission: Permission): ServiceError {
  return new ServiceError(
    'forbidden',
    `Your role ${who.role} in space ${who.space} does not allow ${DOES[permission]} (needs ${permission})`,
  );
}

/** Throws `forbidden` unless the role allows the permission. */
export function requirePermission(who: { role: Role; space: string }, permission: Permission): void {
  if (!roleAllows(who.role, permission)) throw forbidden(who, permission);
}
