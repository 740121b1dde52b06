// Webhooks of the key's space (issue 27, docs/webhooks.md), permission space:admin: create (the secret answered
// once), list, read, update, delete, send a test event, the delivery log with each attempt, and redeliver.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_TYPE_NAMES } from '../../../store/ports.ts';
import type { WebhookInput } from '../../../service/webhooks/service.ts';
import { principalOf } from '../../auth.ts';
import { limitParam, limitSchema } from '../../paging.ts';
import { authenticate, errors, securedBy, setUpScope, spaceOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['Webhooks'];
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

const webhookSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    enabled: { type: 'boolean' },
    consecutiveFailures: { type: 'integer', description: 'Failed attempts since the last success; WEBHOOKS_DISABLE_AFTER of them disable the webhook' },
    disabledReason: { type: 'string', nullable: true, description: 'Why the dispatcher disabled it; null otherwise' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

const attemptSchema = {
  type: 'object',
  properties: {
    at: { type: 'string', format: 'date-time' },
    statusCode: { type: 'integer', nullable: true },
    error: { type: 'string', nullable: true },
  },
} as const;

const deliverySchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The delivery id, sent as X-Verdict-Delivery' },
    webhookId: { type: 'string' },
    eventId: { type: 'string' },
    eventType: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    nextAt: { type: 'string', format: 'date-time', description: 'When the next attempt is due (pending)' },
    createdAt: { type: 'string', format: 'date-time' },
    lastAttemptAt: { type: 'string', format: 'date-time', nullable: true },
    lastStatusCode: { type: 'integer', nullable: true, description: "The receiver's HTTP status of the last attempt" },
    lastError: { type: 'string', nullable: true },
    redeliveryOf: { type: 'string', nullable: true },
    event: { type: 'object', additionalProperties: true, description: 'The event as sent' },
  },
} as const;

const webhookBody = {
  type: 'object',
  properties: {
    url: { type: 'string', description: 'An absolute http(s) URL; loopback and private ranges only when WEBHOOKS_ALLOW lists the host' },
    events: { type: 'array', items: { type: 'string' }, description: `Event types, or ["*"]: ${EVENT_TYPE_NAMES.join(', ')}` },
    enabled: { type: 'boolean' },
  },
  'x-message': 'Request body must be {"url": "https://...", "events": ["rule.published", ...]} (update: any of url, events, enabled)',
} as const;

const webhookParams = { type: 'object', required: ['webhookId'], properties: { webhookId: { type: 'string', minLength: 1 } } } as const;
const deliveryParams = {
  type: 'object',
  required: ['webhookId', 'deliveryId'],
  properties: { webhookId: { type: 'string', minLength: 1 }, deliveryId: { type: 'string', minLength: 1 } },
} as const;

export async function webhooksPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  const onRequest = authenticate(services);
  const config = { permission: 'space:admin' } as const;
  const hooks = services.webhooks;

  app.post('/api/space/webhooks', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Create a webhook: the events of the space it receives, signed with a secret answered this once',
      operationId: 'createWebhook',
      body: { ...webhookBody, required: ['url', 'events'] },
      response: {
        201: { ...webhookSchema, properties: { ...webhookSchema.properties, secret: { type: 'string', description: 'The signing secret: shown this once' } } },
        ...errors([400, 401, 403, 409, 413, 415, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => reply.code(201).send(await hooks.create(spaceOf(request), request.body as WebhookInput)),
  });

  app.get('/api/space/webhooks', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "The space's webhooks (without their secrets)",
      operationId: 'listWebhooks',
      response: { 200: { type: 'object', properties: { items: { type: 'array', items: webhookSchema } } }, ...errors([401, 403, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => ({ items: await hooks.list(spaceOf(request)) }),
  });

  app.get('/api/space/webhooks/:webhookId', {
    onRequest,
    config,
    schema: { tags: TAGS, security: securedBy, summary: 'One webhook', operationId: 'getWebhook', params: webhookParams, response: { 200: webhookSchema, ...errors([401, 403, 404, 429, 500]) } },
    handler: async (request: FastifyRequest) => hooks.get(spaceOf(request), (request.params as { webhookId: string }).webhookId),
  });

  app.patch('/api/space/webhooks/:webhookId', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "Change a webhook's URL, events or whether it is enabled",
      description: 'Enabling a webhook the dispatcher disabled forgives its failures; its pending deliveries are sent again while their retry window lasts.',
      operationId: 'updateWebhook',
      params: webhookParams,
      body: webhookBody,
      response: { 200: webhookSchema, ...errors([400, 401, 403, 404, 413, 415, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => hooks.update(spaceOf(request), (request.params as { webhookId: string }).webhookId, (request.body ?? {}) as WebhookInput),
  });

  app.delete('/api/space/webhooks/:webhookId', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Delete a webhook with its delivery log',
      operationId: 'deleteWebhook',
      params: webhookParams,
      response: { 200: { type: 'object', properties: { id: { type: 'string' }, deleted: { type: 'boolean' } } }, ...errors([401, 403, 404, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => {
      const { webhookId } = request.params as { webhookId: string };
      await hooks.delete(spaceOf(request), webhookId);
      return { id: webhookId, deleted: true };
    },
  });

  app.post('/api/space/webhooks/:webhookId/test', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Send a webhook.test event to this webhook',
      description: 'Answers the queued delivery at once; its outcome shows in the delivery log.',
      operationId: 'testWebhook',
      params: webhookParams,
      response: { 202: deliverySchema, ...errors([401, 403, 404, 409, 429, 500]) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { webhookId } = request.params as { webhookId: string };
      return reply.code(202).send(await hooks.sendTest(spaceOf(request), webhookId, principalOf(request).actor));
    },
  });

  app.get('/api/space/webhooks/:webhookId/deliveries', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "The webhook's delivery log, newest first",
      operationId: 'listWebhookDeliveries',
      params: webhookParams,
      querystring: {
        type: 'object',
        properties: { limit: limitSchema(DEFAULT_LIMIT, MAX_LIMIT), cursor: { type: 'string', description: 'nextCursor of the previous page' } },
      },
      response: {
        200: { type: 'object', properties: { items: { type: 'array', items: deliverySchema }, nextCursor: { type: 'string', nullable: true } } },
        ...errors([400, 401, 403, 404, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest) => {
      const { webhookId } = request.params as { webhookId: string };
      const query = request.query as { limit?: string; cursor?: string };
      return hooks.deliveries(spaceOf(request), { webhookId, limit: limitParam(query.limit, DEFAULT_LIMIT, MAX_LIMIT), cursor: query.cursor });
    },
  });

  app.get('/api/space/webhooks/:webhookId/deliveries/:deliveryId', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'One delivery with each of its attempts',
      operationId: 'getWebhookDelivery',
      params: deliveryParams,
      response: {
        200: { ...deliverySchema, properties: { ...deliverySchema.properties, attemptLog: { type: 'array', items: attemptSchema } } },
        ...errors([401, 403, 404, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest) => {
      const { webhookId, deliveryId } = request.params as { webhookId: string; deliveryId: string };
      return hooks.delivery(spaceOf(request), webhookId, deliveryId);
    },
  });

  app.post('/api/space/webhooks/:webhookId/deliveries/:deliveryId/redeliver', {
    onRequest,
    config,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "Send a delivery's event again, as a new delivery",
      operationId: 'redeliverWebhookDelivery',
      params: deliveryParams,
      response: { 202: deliverySchema, ...errors([401, 403, 404, 409, 429, 500]) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { webhookId, deliveryId } = request.params as { webhookId: string; deliveryId: string };
      return reply.code(202).send(await hooks.redeliver(spaceOf(request), webhookId, deliveryId));
    },
  });
}
