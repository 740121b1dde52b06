// The admin API (SPEC 5.2): spaces, API keys and Kafka client bindings, for operators. Registered only when
// VERDICT_ADMIN_TOKEN is set (otherwise /admin/... answers 404 like any unknown route); every request must carry
// `Authorization: Bearer <VERDICT_ADMIN_TOKEN>`, compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../service/index.ts';
import { KEY_NAME_RULE, requireBearerToken } from '../../service/keys.ts';
import { SPACE_NAME } from '../../service/spaces.ts';
import { KEY_TYPES } from '../../store/ports.ts';
import type { KafkaBinding, KeyType } from '../../store/ports.ts';
import { NO_STORE } from '../auth.ts';
import { HttpError } from '../errors.ts';
import { errorSchema } from '../schemas.ts';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time: both sides are hashed to the same length first, so neither content nor length leaks. */
export function adminTokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

const errors = (statuses: number[]): Record<string, unknown> =>
  Object.fromEntries(statuses.map((s) => [String(s), { ...errorSchema, description: 'Error' }]));

const SPACE_NAME_RULE = 'a space name is 1-100 letters, digits, "_", "-" or ".", starting with a letter or digit';

const spaceParams = {
  type: 'object',
  required: ['space'],
  properties: { space: { type: 'string', minLength: 1 } },
} as const;

const bindingSchema = {
  type: 'object',
  properties: {
    space: { type: 'string' },
    company: { type: 'string' },
    requestTopic: { type: 'string' },
    responseTopic: { type: 'string' },
    createdAt: { type: 'string' },
  },
} as const;

async function requireSpace(services: Services, space: string): Promise<void> {
  // The admin API's own wording of space-not-found (capitalised like its other messages).
  if (!(await services.spaces.exists(space))) throw new HttpError(404, `Space "${space}" does not exist`);
}

const keyNameSchema = { type: 'string', description: `Labels the key in listings and in rule history (${KEY_NAME_RULE})` } as const;

function present(binding: KafkaBinding): KafkaBinding {
  return { space: binding.space, company: binding.company, requestTopic: binding.requestTopic, responseTopic: binding.responseTopic, createdAt: binding.createdAt };
}

export async function adminPlugin(app: FastifyInstance, options: { services: Services }): Promise<void> {
  const { services } = options;
  const token = services.config.adminToken;
  if (token === undefined || token === '') return;

  const onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    void reply.header('cache-control', NO_STORE);
    const given = requireBearerToken(request.headers.authorization);
    if (!adminTokenMatches(token, given)) throw new HttpError(401, 'Invalid admin token');
  };

  app.get('/admin/spaces', {
    onRequest,
    schema: {
      response: { 200: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, createdAt: { type: 'string' } } } }, ...errors([401]) },
    },
    handler: async () => services.spaces.list(),
  });

  app.post('/admin/spaces', {
    onRequest,
    schema: {
      body: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', pattern: SPACE_NAME.source, 'x-message': SPACE_NAME_RULE },
          keyName: { ...keyNameSchema, description: `Names the space's first two keys (${KEY_NAME_RULE})` },
        },
        'x-message': `Request body must be {"name": "<space>", "keyName"?: "<key name>"}: ${SPACE_NAME_RULE}`,
      },
      response: {
        201: {
          type: 'object',
          properties: {
            space: { type: 'string' },
            solverKey: { type: 'string' },
            solverKeyId: { type: 'string' },
            managementKey: { type: 'string' },
            managementKeyId: { type: 'string' },
          },
        },
        ...errors([400, 401, 409]),
      },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as { name: string; keyName?: string };
      const created = await services.spaces.create(body.name, { keyName: body.keyName });
      return reply.code(201).send(created);
    },
  });

  app.get('/admin/spaces/:space/keys', {
    onRequest,
    schema: {
      params: spaceParams,
      response: {
        200: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              type: { type: 'string' },
              name: { type: 'string', nullable: true },
              createdAt: { type: 'string' },
              revokedAt: { type: 'string', nullable: true },
            },
          },
        },
        ...errors([401, 404]),
      },
    },
    handler: async (request: FastifyRequest) => {
      const { space } = request.params as { space: string };
      await requireSpace(services, space);
      return (await services.keys.list(space)).map((k) => ({ id: k.id, type: k.type, name: k.name ?? null, createdAt: k.createdAt, revokedAt: k.revokedAt }));
    },
  });

  app.post('/admin/spaces/:space/keys', {
    onRequest,
    schema: {
      params: spaceParams,
      body: {
        type: 'object',
        required: ['type'],
        properties: { type: { type: 'string', enum: [...KEY_TYPES] }, name: keyNameSchema },
        'x-message': 'Request body must be {"type": "solver"} or {"type": "management"}, with an optional "name"',
      },
      response: {
        201: {
          type: 'object',
          properties: { id: { type: 'string' }, space: { type: 'string' }, type: { type: 'string' }, name: { type: 'string', nullable: true }, key: { type: 'string' } },
        },
        ...errors([400, 401, 404]),
      },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { space } = request.params as { space: string };
      await requireSpace(services, space);
      const body = request.body as { type: KeyType; name?: string };
      const created = await services.keys.create(space, body.type, body.name);
      return reply.code(201).send({ id: created.id, space: created.space, type: created.type, name: created.name, key: created.key });
    },
  });

  app.delete('/admin/keys/:keyId', {
    onRequest,
    schema: {
      params: { type: 'object', required: ['keyId'], properties: { keyId: { type: 'string', minLength: 1 } } },
      response: { 200: { type: 'object', properties: { id: { type: 'string' }, revoked: { type: 'boolean' } } }, ...errors([401, 404]) },
    },
    handler: async (request: FastifyRequest) => {
      const { keyId } = request.params as { keyId: string };
      if (!(await services.keys.revoke(keyId))) throw new HttpError(404, `No active key with id "${keyId}"`);
      return { id: keyId, revoked: true };
    },
  });

  app.get('/admin/kafka', {
    onRequest,
    schema: {
      querystring: { type: 'object', properties: { space: { type: 'string' } } },
      response: { 200: { type: 'array', items: bindingSchema }, ...errors([401]) },
    },
    handler: async (request: FastifyRequest) => {
      const { space } = request.query as { space?: string };
      return (await services.kafka.list(space)).map(present);
    },
  });

  app.post('/admin/spaces/:space/kafka', {
    onRequest,
    schema: {
      params: spaceParams,
      body: {
        type: 'object',
        required: ['company'],
        properties: { company: { type: 'string' }, partitions: { type: 'integer', minimum: 1, maximum: 10000 } },
        'x-message': 'Request body must be {"company": "<name>", "partitions"?: <n>}',
      },
      response: { 201: bindingSchema, ...errors([400, 401, 404, 502]) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { space } = request.params as { space: string };
      await requireSpace(services, space);
      const body = request.body as { company: string; partitions?: number };
      const binding = await services.kafka.enable({ space, company: body.company, partitions: body.partitions });
      return reply.code(201).send(present(binding));
    },
  });

  app.delete('/admin/kafka/:requestTopic', {
    onRequest,
    schema: {
      params: { type: 'object', required: ['requestTopic'], properties: { requestTopic: { type: 'string', minLength: 1 } } },
      response: { 200: { type: 'object', properties: { requestTopic: { type: 'string' }, unbound: { type: 'boolean' } } }, ...errors([401, 404]) },
    },
    handler: async (request: FastifyRequest) => {
      const { requestTopic } = request.params as { requestTopic: string };
      if (!(await services.kafka.unbind(requestTopic))) throw new HttpError(404, `No Kafka binding with request topic "${requestTopic}"`);
      return { requestTopic, unbound: true };
    },
  });
}
