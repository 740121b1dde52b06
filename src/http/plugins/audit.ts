// GET /api/audit (SPEC 5.1): the audit records of the management key's space, newest first, cursor pagination.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/index.ts';
import type { AuditRecord } from '../../store/ports.ts';
import { InvalidCursorError } from '../../store/ports.ts';
import { principalOf, requireManagement } from '../auth.ts';
import { HttpError } from '../errors.ts';
import { errorResponses } from '../schemas.ts';

interface AuditQuery {
  correlationId?: string;
  ruleId?: string;
  status?: string;
  from?: string;
  to?: string;
  limit?: string;
  cursor?: string;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const recordSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    correlationId: { type: 'string' },
    ruleId: { type: 'string' },
    ruleAlias: { type: 'string', nullable: true },
    version: { type: 'integer', nullable: true },
    ruleType: { type: 'string', nullable: true },
    strategy: { type: 'string' },
    input: { description: 'The request data' },
    output: { description: 'The response body (null when the solve failed)', nullable: true },
    statusCode: { type: 'integer' },
    errorMessage: { type: 'string', nullable: true },
    errorKind: {
      type: 'string',
      nullable: true,
      description: 'The kind of a failed solve: not-found, invalid-input, unauthorized, limit, rate-limited, internal, ...; null when it succeeded',
    },
    executionTimeMs: { type: 'number' },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: 'string', format: 'date-time' },
    debug: { description: 'Evaluation trace when X-Debug was set (spec/rule-format.md §10.1; a scripting rule: its log() and console lines)', nullable: true },
  },
} as const;

function instant(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new HttpError(400, `Query parameter ${name} must be an ISO-8601 date or date-time, got "${value}"`);
  return new Date(ms).toISOString();
}

function present(record: AuditRecord): Omit<AuditRecord, 'space'> {
  const { space: _space, ...rest } = record;
  return rest;
}

export async function auditPlugin(app: FastifyInstance, options: { services: Services }): Promise<void> {
  const { services } = options;
  app.get('/api/audit', {
    onRequest: requireManagement(services),
    config: { permission: 'audit:read' },
    schema: {
      tags: ['Audit'],
      summary: "List the space's audit records, newest first",
      operationId: 'listAuditRecords',
      security: [{ managementKey: [] }],
      querystring: {
        type: 'object',
        properties: {
          correlationId: { type: 'string' },
          ruleId: { type: 'string', description: 'Rule id or alias' },
          status: { type: 'string', pattern: '^[1-5][0-9]{2}$', 'x-message': 'Query parameter status must be an HTTP status code such as 200 or 400' },
          from: { type: 'string', description: 'ISO-8601; records created at or after' },
          to: { type: 'string', description: 'ISO-8601; records created at or before' },
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
        200: {
          type: 'object',
          properties: { items: { type: 'array', items: recordSchema }, nextCursor: { type: 'string', nullable: true } },
        },
        ...errorResponses([400, 401, 500]),
      },
    },
    handler: async (request: FastifyRequest) => {
      const query = request.query as AuditQuery;
      const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
      if (limit < 1 || limit > MAX_LIMIT) throw new HttpError(400, `Query parameter limit must be an integer from 1 to ${MAX_LIMIT}`);
      try {
        const page = await services.listAudits(principalOf(request).space, {
          correlationId: query.correlationId,
          ruleId: query.ruleId,
          statusCode: query.status === undefined ? undefined : Number(query.status),
          from: instant(query.from, 'from'),
          to: instant(query.to, 'to'),
          limit,
          cursor: query.cursor,
        });
        return { items: page.items.map(present), nextCursor: page.nextCursor };
      } catch (err) {
        if (err instanceof InvalidCursorError) throw new HttpError(400, `Query parameter cursor is invalid: ${err.message}`);
        throw err;
      }
    },
  });
}
