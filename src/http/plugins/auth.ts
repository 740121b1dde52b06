// Sign-in and sign-out under /api/auth (docs/decisions/users-and-sessions.md): a user's password or (unless
// STUDIO_KEY_SIGNIN=false) a management key becomes a session cookie; `me` answers who the session is with its
// CSRF token. Public routes (they are how one gets credentials), throttled per username and per address, and
// never cached. A sign-in always starts a new session and ends the one the request carried.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../service/errors.ts';
import { MEMBER_ROLES as ROLES } from '../../service/roles.ts';
import type { SessionOwner } from '../../service/sessions.ts';
import { PASSWORD_MAX } from '../../service/passwords.ts';
import { SignInThrottle } from '../../service/sign-in-throttle.ts';
import { clearSessionCookie, CSRF_HEADER, sessionIdOf, setSessionCookie } from '../session-auth.ts';
import { errors, setUpScope } from './management/common.ts';
import type { ManagementPluginOptions } from './management/common.ts';

const TAGS = ['Sign-in'];

export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    username: { type: 'string' },
    displayName: { type: 'string' },
    source: { type: 'string', enum: ['local', 'oidc'] },
  },
} as const;

export const actorSchema = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['key', 'user', 'token'] },
    id: { type: 'string' },
    name: { type: 'string', description: 'Username, key name or token subject' },
  },
} as const;

const meSchema = {
  type: 'object',
  properties: {
    user: { ...userSchema, nullable: true, description: 'null: a management key signed in' },
    actor: actorSchema,
    spaces: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          space: { type: 'string' },
          role: { type: 'string', enum: [...ROLES] },
          permissions: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    csrfToken: { type: 'string', description: 'Send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE made with the session cookie' },
  },
} as const;

const WRONG_CREDENTIALS = 'Wrong username or password';

export async function authPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  const throttle = services.signInThrottle;
  const config = { public: true } as const;

  // Answers about sessions are never stored by a browser or a proxy.
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  /** Ends the session the request carried (a sign-in replaces it), starts a new one, sets the cookie, answers Me. */
  const signIn = async (request: FastifyRequest, reply: FastifyReply, owner: SessionOwner) => {
    const previous = sessionIdOf(request);
    if (previous !== undefined) await services.sessions.end(previous);
    const started = await services.sessions.start(owner, request.ip);
    setSessionCookie(services, request, reply, started.sessionId);
    request.log.info({ actor: 'userId' in owner ? { user: owner.userId } : { key: owner.keyId }, address: request.ip }, 'signed in');
    // Expired sessions go now and then; sign-ins are rare enough to carry it.
    await services.sessions.sweep().catch((err: unknown) => request.log.warn({ err }, 'expired sessions not deleted'));
    return services.sessions.describe(owner, started.csrfToken);
  };

  app.post('/api/auth/login', {
    config,
    schema: {
      tags: TAGS,
      summary: 'Sign in with a username and password',
      description: 'Sets the `verdict_session` cookie (HttpOnly, SameSite=Lax, Path=/, Secure behind TLS). After 5 failed sign-ins of one username, or 20 from one address, within 15 minutes, sign-ins are refused with 429 for 15 minutes, doubling each time.',
      operationId: 'login',
      body: {
        type: 'object',
        required: ['username', 'password'],
        properties: { username: { type: 'string', minLength: 1, maxLength: 200 }, password: { type: 'string', minLength: 1, maxLength: 1024 } },
        'x-message': 'Request body must be {"username": "...", "password": "..."}',
      },
      response: { 200: meSchema, ...errors([400, 401, 415, 429, 500]) },
    },
    handler: async (request, reply) => {
      const { username, password } = request.body as { username: string; password: string };
      const userKey = SignInThrottle.userKey(username);
      const keys = [userKey, SignInThrottle.addressKey(request.ip)];
      throttle.check(keys);
      const user = await services.users.verify(username.trim(), password);
      if (user === undefined) {
        throttle.fail(keys);
        // Not the username: people type their password into it by mistake, and log lines must never carry one.
        request.log.info({ address: request.ip }, 'sign-in refused');
        throw new ServiceError('wrong-credentials', WRONG_CREDENTIALS);
      }
      throttle.succeed(userKey);
      return signIn(request, reply, { userId: user.id });
    },
  });

  app.post('/api/auth/key-login', {
    config,
    schema: {
      tags: TAGS,
      summary: 'Sign in to the Studio with a management key',
      description: 'The key becomes a session (role admin of its space), so the browser never keeps the key. 403 when STUDIO_KEY_SIGNIN=false.',
      operationId: 'keyLogin',
      body: {
        type: 'object',
        required: ['key'],
        properties: { key: { type: 'string', minLength: 1, maxLength: 200 } },
        'x-message': 'Request body must be {"key": "vmk_..."}',
      },
      response: { 200: meSchema, ...errors([400, 401, 403, 415, 429, 500]) },
    },
    handler: async (request, reply) => {
      if (!services.config.sessions.keySignIn) {
        throw new ServiceError('key-sign-in-disabled', 'Signing in with a management key is turned off on this server (STUDIO_KEY_SIGNIN=false); sign in as a user');
      }
      const keys = [SignInThrottle.addressKey(request.ip)];
      throttle.check(keys);
      let keyId: string;
      try {
        keyId = (await services.keys.authenticateKey((request.body as { key: string }).key.trim(), 'management')).keyId;
      } catch (err) {
        throttle.fail(keys);
        throw err;
      }
      return signIn(request, reply, { keyId });
    },
  });

  app.post('/api/auth/logout', {
    config,
    schema: {
      tags: TAGS,
      summary: 'Sign out: the session ends and its cookie is cleared',
      description: `Needs the session's CSRF token in the ${CSRF_HEADER} header.`,
      operationId: 'logout',
      response: { 204: { type: 'null', description: 'Signed out' }, ...errors([401, 403, 500]) },
    },
    handler: async (request, reply) => {
      const csrf = request.headers[CSRF_HEADER];
      await services.sessions.signOut(sessionIdOf(request), Array.isArray(csrf) ? csrf[0] : csrf);
      clearSessionCookie(services, request, reply);
      return reply.code(204).send();
    },
  });

  app.post('/api/auth/password', {
    config,
    schema: {
      tags: TAGS,
      summary: 'Change the signed-in user\'s password',
      description: `Needs the session's CSRF token in the ${CSRF_HEADER} header and the current password. The user's other sessions end; this one goes on. Wrong current passwords count towards the sign-in throttling of the address.`,
      operationId: 'changePassword',
      body: {
        type: 'object',
        required: ['currentPassword', 'newPassword'],
        properties: { currentPassword: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX }, newPassword: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX } },
        'x-message': 'Request body must be {"currentPassword": "...", "newPassword": "..."}',
      },
      response: { 204: { type: 'null', description: 'Changed' }, ...errors([400, 401, 403, 415, 429, 500]) },
    },
    handler: async (request, reply) => {
      const { currentPassword, newPassword } = request.body as { currentPassword: string; newPassword: string };
      const keys = [SignInThrottle.addressKey(request.ip)];
      throttle.check(keys);
      const csrf = request.headers[CSRF_HEADER];
      try {
        await services.sessions.changePassword(sessionIdOf(request), Array.isArray(csrf) ? csrf[0] : csrf, currentPassword, newPassword);
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'wrong-credentials') throttle.fail(keys);
        throw err;
      }
      return reply.code(204).send();
    },
  });

  app.get('/api/auth/me', {
    config,
    schema: {
      tags: TAGS,
      summary: 'Who this session is: the user (or key), their spaces with roles and permissions, and the CSRF token',
      operationId: 'me',
      response: { 200: meSchema, ...errors([401, 500]) },
    },
    handler: async (request) => services.sessions.me(sessionIdOf(request)),
  });

  app.get('/api/auth/config', {
    config,
    schema: {
      tags: TAGS,
      summary: 'How one can sign in to this server',
      operationId: 'authConfig',
      response: {
        200: {
          type: 'object',
          properties: {
            password: { type: 'boolean', description: 'Users sign in with a username and password' },
            keySignIn: { type: 'boolean', description: 'A management key may sign in (STUDIO_KEY_SIGNIN)' },
            sso: { type: 'array', description: 'Configured OpenID Connect providers', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } },
          },
        },
      },
    },
    handler: async () => ({ password: true, keySignIn: services.config.sessions.keySignIn, sso: services.sso.list() }),
  });
}
