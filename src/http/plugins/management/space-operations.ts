// The management key's own space, for the Studio's space pages (docs/decisions/studio-space-pages.md): its API
// keys (listed without secrets, created with the secret answered once, revoked), its Kafka topic pairs and the
// channel's state, the last hour's solves per rule (docs/decisions/studio-overview-endpoint.md), and the space's
// settings (liveEdits: docs/decisions/live-edits.md). The operator's
// admin API (admin.ts) does the same for any space with the admin token; these routes never leave the key's space.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KEY_NAME_RULE } from '../../../service/keys.ts';
import { KEY_TYPES, LIVE_EDITS } from '../../../store/ports.ts';
import type { KeyRecord, KeyType, LiveEdits } from '../../../store/ports.ts';
import { principalOf } from '../../auth.ts';
import { authenticate, errors, securedBy, setUpScope, spaceOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['Space'];

const keySchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'Public id, for revoking; the key itself is never shown again' },
    type: { type: 'string', enum: [...KEY_TYPES] },
    name: { type: 'string', nullable: true },
    createdAt: { type: 'string', format: 'date-time' },
    revokedAt: { type: 'string', format: 'date-time', nullable: true },
    current: { type: 'boolean', description: 'The key of this request (it cannot revoke itself)' },
  },
} as const;

const seriesSchema = (description: string, nullable = false) =>
  ({ type: 'array', description, items: nullable ? { type: 'number', nullable: true } : { type: 'integer' } }) as const;

const overviewSchema = {
  type: 'object',
  properties: {
    from: { type: 'string', format: 'date-time', description: 'Start of the first bucket' },
    to: { type: 'string', format: 'date-time', description: 'When the numbers were read' },
    bucketSeconds: { type: 'integer', description: 'Width of each bucket (60)' },
    rules: {
      type: 'array',
      description: 'Rules solved in the window, most solves first; each array has one entry per bucket, oldest first',
      items: {
        type: 'object',
        properties: {
          ruleId: { type: 'string' },
          ruleAlias: { type: 'string' },
          type: { type: 'string' },
          total: {
            type: 'object',
            properties: {
              solves: { type: 'integer' },
              errors: { type: 'integer' },
              p50Ms: { type: 'number', nullable: true },
              p99Ms: { type: 'number', nullable: true },
            },
          },
          solves: seriesSchema('Solves in the bucket'),
          errors: seriesSchema('Failed solves in the bucket (any error answer)'),
          p50Ms: seriesSchema('Median latency in ms (null: no solve)', true),
          p99Ms: seriesSchema('99th percentile latency in ms (null: no solve)', true),
        },
      },
    },
  },
} as const;

const kafkaSchema = {
  type: 'object',
  properties: {
    space: { type: 'string', description: "The key's space (an operator enables Kafka for it by this name)" },
    channelEnabled: { type: 'boolean', description: 'KAFKA_ENABLED: this server runs a Kafka channel' },
    channelRunning: { type: 'boolean', description: 'The channel is started in this server' },
    brokersConfigured: { type: 'boolean', description: 'KAFKA_BROKERS is set, so an operator can enable the space here' },
    bindings: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          company: { type: 'string' },
          requestTopic: { type: 'string' },
          responseTopic: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
          consuming: { type: 'boolean', description: 'This server consumes the request topic now' },
        },
      },
    },
  },
} as const;

const SETTINGS_BODY = 'Request body must be {"liveEdits": "allowed" | "forbidden", "approvals": true | false} with at least one of them';

const settingsSchema = {
  type: 'object',
  properties: {
    liveEdits: {
      type: 'string',
      enum: [...LIVE_EDITS],
      description: "allowed: a published version's content can be replaced in place (its answers change at once); forbidden: such a PUT answers 409, content changes go through a new version",
    },
    approvals: {
      type: 'boolean',
      description: 'true: a version is published only after a user other than its last editor approved its content (four eyes; docs/decisions/approvals.md)',
    },
  },
} as const;

function presentKey(record: KeyRecord, currentId: string) {
  return { id: record.id, type: record.type, name: record.name ?? null, createdAt: record.createdAt, revokedAt: record.revokedAt, current: record.id === currentId };
}

export async function spaceOperationsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  app.get('/api/space/keys', {
    onRequest,
    config: { permission: 'space:admin' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "List the API keys of the key's space (never their secrets)",
      operationId: 'listSpaceKeys',
      response: { 200: { type: 'array', items: keySchema }, ...errors([401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => {
      const principal = principalOf(request);
      return (await services.keys.list(principal.space)).map((k) => presentKey(k, principal.keyId));
    },
  });

  app.post('/api/space/keys', {
    onRequest,
    config: { permission: 'space:admin' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "Create an API key in the key's space",
      description: 'Answers the key itself once: only its hash is stored, so it cannot be shown again.',
      operationId: 'createSpaceKey',
      body: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: [...KEY_TYPES] },
          name: { type: 'string', description: `Labels the key in listings and rule history (${KEY_NAME_RULE})` },
        },
        'x-message': 'Request body must be {"type": "solver"} or {"type": "management"}, with an optional "name"',
      },
      response: {
        201: { ...keySchema, properties: { ...keySchema.properties, key: { type: 'string', description: 'The secret: shown this once' } } },
        ...errors([400, 401, 413, 415, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = principalOf(request);
      const body = request.body as { type: KeyType; name?: string };
      const created = await services.keys.create(principal.space, body.type, body.name);
      await services.activity.record(principal.space, principal.actor, 'key.create', { detail: { keyId: created.id, type: body.type, name: created.name } });
      return reply.code(201).send({ ...presentKey(created.record, principal.keyId), key: created.key });
    },
  });

  app.delete('/api/space/keys/:keyId', {
    onRequest,
    config: { permission: 'space:admin' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "Revoke an API key of the key's space",
      description: 'At once on every instance: the revoked key is refused from its next request. A management key cannot revoke itself (409).',
      operationId: 'revokeSpaceKey',
      params: { type: 'object', required: ['keyId'], properties: { keyId: { type: 'string', minLength: 1 } } },
      response: {
        200: { type: 'object', properties: { id: { type: 'string' }, revoked: { type: 'boolean' } } },
        ...errors([401, 429, 500]),
        404: { ...(errors([404])['404'] as object), description: 'No active key with that id in this space' },
        409: { ...(errors([409])['409'] as object), description: 'The key of this request: a management key cannot revoke itself' },
      },
    },
    handler: async (request: FastifyRequest) => {
      const { keyId } = request.params as { keyId: string };
      const principal = principalOf(request);
      await services.keys.revokeInSpace(principal, keyId);
      await services.activity.record(principal.space, principal.actor, 'key.revoke', { detail: { keyId } });
      return { id: keyId, revoked: true };
    },
  });

  app.get('/api/space/kafka', {
    onRequest,
    config: { permission: 'space:admin' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "The Kafka topic pairs bound to the key's space and the channel's state",
      operationId: 'getSpaceKafka',
      response: { 200: kafkaSchema, ...errors([401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => services.kafka.spaceState(spaceOf(request)),
  });

  app.get('/api/space/settings', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "The settings of the key's space",
      operationId: 'getSpaceSettings',
      response: { 200: settingsSchema, ...errors([401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => services.spaces.settings(spaceOf(request)),
  });

  app.put('/api/space/settings', {
    onRequest,
    config: { permission: 'space:admin' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "Change the settings of the key's space",
      description: 'liveEdits "forbidden": replacing the content of a published version (PUT /api/rule/{idOrAlias}/{version}) answers 409 naming the setting; status changes, lock and delete stay allowed. See docs/decisions/live-edits.md.',
      operationId: 'setSpaceSettings',
      body: {
        type: 'object',
        minProperties: 1,
        additionalProperties: false,
        properties: {
          liveEdits: { ...settingsSchema.properties.liveEdits, 'x-message': SETTINGS_BODY },
          approvals: { ...settingsSchema.properties.approvals, 'x-message': SETTINGS_BODY },
        },
        'x-message': SETTINGS_BODY,
      },
      response: { 200: settingsSchema, ...errors([400, 401, 403, 413, 415, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => {
      const principal = principalOf(request);
      const body = request.body as { liveEdits?: LiveEdits; approvals?: boolean };
      if (body.liveEdits !== undefined) await services.spaces.setLiveEdits(principal.space, body.liveEdits);
      if (body.approvals !== undefined) await services.spaces.setApprovals(principal.space, body.approvals);
      await services.activity.record(principal.space, principal.actor, 'settings.update', { detail: body });
      return services.spaces.settings(principal.space);
    },
  });

  app.get('/api/space/overview', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "Solves, errors and p50/p99 latency per rule of the key's space, per minute over the last hour",
      description: 'Counted in memory by this server instance since it started (each instance behind a load balancer counts its own traffic); test bench runs and requests that name no rule of the space are not counted. Latencies come from a log-scale histogram (within about 20%).',
      operationId: 'getSpaceOverview',
      response: { 200: overviewSchema, ...errors([401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => services.overview(spaceOf(request)),
  });
}
