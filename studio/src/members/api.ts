// The members of the signed-in space (permission space:admin): GET/POST /api/space/members,
// PUT/DELETE /api/space/members/:username (the Teams contract, issue 32).
import type { MemberRole as Role } from '../api/auth.ts';
import type { ApiClient } from '../api/client.ts';

export const ROLES: readonly Role[] = ['viewer', 'editor', 'publisher', 'admin'];

export const ROLE_SUMMARY: Record<Role, string> = {
  viewer: 'reads rules, runs the bench and tests, reads the audit and activity',
  editor: 'viewer, and creates and edits rules, tests and folders, imports, requests reviews',
  publisher: 'editor, and publishes, approves, locks, restores and deletes',
  admin: 'publisher, and manages members, API keys, Kafka and the space settings',
};

export interface MemberUser {
  id: string;
  username: string;
  displayName: string | null;
  source: 'local' | 'oidc';
}

export interface Member {
  user: MemberUser;
  role: Role;
}

export interface AddedMember extends Member {
  /** Only when the server created the user without a password given: shown once. */
  oneTimePassword?: string;
}

const enc = encodeURIComponent;

export const membersApi = {
  list: (api: ApiClient) => api.call<Member[]>('GET', '/api/space/members'),
  add: (api: ApiClient, username: string, role: Role) => api.call<AddedMember>('POST', '/api/space/members', { username, role }),
  setRole: (api: ApiClient, username: string, role: Role) => api.call<Member>('PUT', `/api/space/members/${enc(username)}`, { role }),
  remove: (api: ApiClient, username: string) => api.call<void>('DELETE', `/api/space/members/${enc(username)}`),
};
