// GET /api/space/activity: the space's activity log, newest first, with filters and cursor paging
// (docs/decisions/activity-log.md). Who did what: rule writes, keys, settings, members, reviews, jobs, failing test
// runs. GET /api/space/events: the same log as the event log, each entry with its event type and filtered by types
// (docs/decisions/event-log.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EVENT_TYPE_NAMES } from '../../../store/ports.ts';
import { instantParam, limitParam, limitSchema, withCursor } from '../../paging.ts';
import { authenticate, errors, securedBy, setUpScope, spaceOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

interface ActivityQuery {
  actor?: string;
  rule?: string;
  action?: string;
  type?: string;
  from?: string;
  to?: string;
  limit?: string;
  cursor?: string;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

const actorSchema = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['key', 'user', 'token', 'cli'] },
    id: { type: 'string' },
    name: { type: 'string' },
  },
} as const;

const entrySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    actor: actorSchema,
    action: { type: 'string', description: 'rule.create, rule.update, rule.publish, ... (the rule history actions), key.create, key.revoke, settings.update, member.add, member.role, member.remove, review.request, review.approve, review.reject' },
    rule: {
      type: 'object',
      nullable: true,
      properties: { ruleId: { type: 'string' }, version: { type: 'integer', nullable: true }, alias: { type: 'string', nullable: true }, name: { type: 'string', nullable: true } },
    },
    detail: { type: 'object', nullable: true, additionalProperties: true },
  },
} as const;

export async function activityPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  app.get('/api/space/activity', {
    onRequest: authenticate(services),
    config: { permission: 'audit:read' },
    schema: {
      tags: ['Space'],
      security: securedBy,
      summary: "The space's activity log: who did what, newest first",
      operationId: 'listSpaceActivity',
      querystring: {
        type: 'object',
        properties: {
          actor: { type: 'string', description: "The actor's name (user name, key name, token client) or id" },
          rule: { type: 'string', description: "The rule's id or alias" },
          action: { type: 'string', description: 'One action, e.g. rule.publish' },
          from: { type: 'string', description: 'ISO-8601; entries at or after' },
          to: { type: 'string', description: 'ISO-8601; entries at or before' },
          limit: limitSchema(DEFAULT_LIMIT, MAX_LIMIT),
          cursor: { type: 'string', description: 'nextCursor of the previous page' },
        },
      },
      response: {
        200: { type: 'object', properties: { items: { type: 'array', items: entrySchema }, nextCursor: { type: 'string', nullable: true } } },
        ...errors([400, 401, 403, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest) => {
      const query = request.query as ActivityQuery;
      const limit = limitParam(query.limit, DEFAULT_LIMIT, MAX_LIMIT);
      return withCursor(() => services.activity.list(spaceOf(request), {
        actor: query.actor,
        rule: query.rule,
        action: query.action,
        from: instantParam(query.from, 'from'),
        to: instantParam(query.to, 'to'),
        limit,
        cursor: query.cursor,
      }));
    },
  });
}

const eventSchema = {
  type: 'object',
  properties: {
    ...entrySchema.properties,
    type: { type: 'string', description: `The event type: ${EVENT_TYPE_NAMES.join(', ')}` },
  },
} as const;

export async function eventsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  app.get('/api/space/events', {
    onRequest: authenticate(services),
    config: { permission: 'audit:read' },
    schema: {
      tags: ['Space'],
      security: securedBy,
      summary: "The space's event log: rule, key, member, review, job and test events, newest first",
      description: 'The activity log with each entry\'s event type (what webhooks subscribe to). Filters combine; `type` takes one type or several separated by commas.',
      operationId: 'listSpaceEvents',
      querystring: {
        type: 'object',
        properties: {
          type: { type: 'string', description: `Event types, comma-separated: ${EVENT_TYPE_NAMES.join(', ')}` },
          actor: { type: 'string', description: "The actor's name (user name, key name, token client) or id" },
          rule: { type: 'string', description: "The rule's id or alias" },
          from: { type: 'string', description: 'ISO-8601; events at or after' },
          to: { type: 'string', description: 'ISO-8601; events at or before' },
          limit: limitSchema(DEFAULT_LIMIT, MAX_LIMIT),
          cursor: { type: 'string', description: 'nextCursor of the previous page' },
        },
      },
      response: {
        200: { type: 'object', properties: { items: { type: 'array', items: eventSchema }, nextCursor: { type: 'string', nullable: true } } },
        ...errors([400, 401, 403, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest) => {
      const query = request.query as ActivityQuery;
      const limit = limitParam(query.limit, DEFAULT_LIMIT, MAX_LIMIT);
      const types = query.type?.split(',').map((t) => t.trim()).filter((t) => t !== '');
      return withCursor(() => services.activity.events(spaceOf(request), {
        types: types === undefined || types.length === 0 ? undefined : types,
        actor: query.actor,
        rule: query.rule,
        from: instantParam(query.from, 'from'),
        to: instantParam(query.to, 'to'),
        limit,
        cursor: query.cursor,
      }));
    },
  });
}
