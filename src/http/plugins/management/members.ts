// The members of the caller's space and their roles (permission space:admin): list, add (creating the user, with
// a one-time password unless one is given), change a role, remove. Never leaves the caller's space; the password
// hash never appears in an answer (the response schemas list what is answered).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEMBER_ROLES as ROLES } from '../../../service/roles.ts';
import { USERNAME_RULE } from '../../../service/users.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../service/passwords.ts';
import { userSchema } from '../auth.ts';
import { principalOf } from '../../auth.ts';
import { authenticate, errors, securedBy, setUpScope, spaceOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['Space'];
const config = { permission: 'space:admin' } as const;

const memberSchema = {
  type: 'object',
  properties: { user: userSchema, role: { type: 'string', enum: [...ROLES] } },
} as const;

const usernameParams = { type: 'object', required: ['username'], properties: { username: { type: 'string', minLength: 1, maxLength: 200 } } } as const;
const roleProperty = { type: 'string', enum: [...ROLES] } as const;

export async function membersPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  const onRequest = authenticate(services);
  // Who gave whom which role is the first thing an audit of a space asks (never the one-time password).
  const record = (request: FastifyRequest, action: string, detail: Record<string, string>) => {
    const principal = principalOf(request);
    return services.activity.record(principal.space, principal.actor, action, { detail });
  };

  app.get('/api/space/members', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'The users of this space and their roles',
      operationId: 'listSpaceMembers',
      response: { 200: { type: 'array', items: memberSchema }, ...errors([401, 403, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => services.users.members(spaceOf(request)),
  });

  app.post('/api/space/members', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Add a user to this space with a role, creating the user when absent',
      description: `A new user without a "password" gets a one-time password, answered once as oneTimePassword. A password (${PASSWORD_MIN}-${PASSWORD_MAX} characters) is only for a new user: an existing user keeps theirs (409).`,
      operationId: 'addSpaceMember',
      body: {
        type: 'object',
        required: ['username', 'role'],
        properties: {
          username: { type: 'string', minLength: 1, maxLength: 200, description: USERNAME_RULE },
          role: roleProperty,
          password: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX },
        },
        'x-message': `Request body must be {"username": "...", "role": "${ROLES.join('" | "')}"}, with an optional "password"`,
      },
      response: {
        201: { ...memberSchema, properties: { ...memberSchema.properties, oneTimePassword: { type: 'string', description: 'Shown this once' } } },
        ...errors([400, 401, 403, 409, 415, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as { username: string; role: string; password?: string };
      const added = await services.users.addMember(spaceOf(request), body.username, body.role, body.password);
      await record(request, 'member.add', { username: added.user.username, role: added.role });
      return reply.code(201).send(added);
    },
  });

  app.put('/api/space/members/:username', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "Change a member's role",
      description: 'The last admin user of a space cannot be made anything else (409 last-admin).',
      operationId: 'setSpaceMemberRole',
      params: usernameParams,
      body: { type: 'object', required: ['role'], properties: { role: roleProperty }, 'x-message': `Request body must be {"role": "${ROLES.join('" | "')}"}` },
      response: { 200: memberSchema, ...errors([400, 401, 403, 404, 409, 415, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => {
      const { username } = request.params as { username: string };
      const changed = await services.users.setRole(spaceOf(request), username, (request.body as { role: string }).role);
      await record(request, 'member.role', { username: changed.user.username, role: changed.role });
      return changed;
    },
  });

  app.delete('/api/space/members/:username', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Remove a user from this space (the user and their other spaces stay)',
      operationId: 'removeSpaceMember',
      params: usernameParams,
      response: { 204: { type: 'null', description: 'Removed' }, ...errors([401, 403, 404, 409, 429, 500]) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { username } = request.params as { username: string };
      await services.users.removeMember(spaceOf(request), username);
      await record(request, 'member.remove', { username });
      return reply.code(204).send();
    },
  });
}
