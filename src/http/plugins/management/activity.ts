// GET /api/space/activity: the space's activity log, newest first, with filters and cursor paging
// (docs/decisions/activity-log.md). Who did what: rule writes, keys, settings, members, reviews.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidCursorError } from '../../../store/ports.ts';
import { HttpError } from '../../errors.ts';
import { authenticate, errors, securedBy, setUpScope, spaceOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

interface ActivityQuery {
  actor?: string;
  rule?: string;
  action?: string;
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

function instant(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new HttpError(400, `Query parameter ${name} must be an ISO-8601 date or date-time, got "${value}"`);
  return new Date(ms).toISOString();
}

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
          limit: {
            type: 'string',
            pattern: '^[0-9]{1,4}$',
            'x-message': `Query parameter limit must be an integer from 1 to ${MAX_LIMIT}`,
            description: `Page size, 1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}`,
          },
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
      const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
      if (limit < 1 || limit > MAX_LIMIT) throw new HttpError(400, `Query parameter limit must be an integer from 1 to ${MAX_LIMIT}`);
      try {
        return await services.activity.list(spaceOf(request), {
          actor: query.actor,
          rule: query.rule,
          action: query.action,
          from: instant(query.from, 'from'),
          to: instant(query.to, 'to'),
          limit,
          cursor: query.cursor,
        });
      } catch (err) {
        if (err instanceof InvalidCursorError) throw new HttpError(400, `Query parameter cursor is invalid: ${err.message}`);
        throw err;
      }
    },
  });
}
