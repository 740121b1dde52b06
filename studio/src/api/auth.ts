// Sign-in, the signed-in person and their spaces (the Teams contract, issue 32): GET /api/auth/config and /me,
// POST /api/auth/login, /key-login and /logout. A session lives in the HttpOnly cookie verdict_session, which the
// Studio cannot read; what it keeps is Me (who, which spaces and roles, and the CSRF token of the session).
import { ApiClient } from './client.ts';
import type { Permission, Role } from '../../../src/service/roles.ts';
import type { Actor } from '../../../src/service/keys.ts';

/** Who did something: a user, a key (by its name), a machine token (by its client) or the server's command line. */
export type { Actor, Permission, Role };
/** The roles a person holds in a space (`solver` is for machine tokens only). */
export type MemberRole = Exclude<Role, 'solver'>;

export interface SpaceMembership {
  space: string;
  role: MemberRole;
  permissions: Permission[];
}

export interface Me {
  user: { id: string; username: string; displayName: string | null; source: 'local' | 'oidc' } | null;
  actor: Actor;
  spaces: SpaceMembership[];
  csrfToken: string;
}

export interface AuthConfig {
  password: boolean;
  keySignIn: boolean;
  sso: Array<{ id: string; name: string }>;
}

/** The calls made before a session exists (no CSRF token yet) and the sign-out. */
export const authApi = {
  config: (api: ApiClient) => api.call<AuthConfig>('GET', '/api/auth/config'),
  me: (api: ApiClient) => api.call<Me>('GET', '/api/auth/me'),
  login: (api: ApiClient, username: string, password: string) => api.call<Me>('POST', '/api/auth/login', { username, password }),
  keyLogin: (api: ApiClient, key: string) => api.call<Me>('POST', '/api/auth/key-login', { key }),
  logout: (api: ApiClient) => api.call<void>('POST', '/api/auth/logout'),
};

/** Where an SSO provider's sign-in starts (a full page load: the provider answers with redirects). */
export function ssoLoginUrl(id: string): string {
  return `/api/auth/oidc/${encodeURIComponent(id)}/login`;
}

/** The name the header shows for the signed-in person. */
export function displayName(me: Me): string {
  return me.user ? (me.user.displayName || me.user.username) : me.actor.name;
}
