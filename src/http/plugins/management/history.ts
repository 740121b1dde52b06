// Rule history (docs/decisions/management-rule-history.md): GET /api/rule/history/{idOrAlias}[/{version}] lists
// every write to the rule's versions (or to one version), newest first: when, what, and by which key.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HISTORY_ACTIONS } from '../../../store/ports.ts';
import { STANDARD_ERRORS, authenticate, errors, params, securedBy, setUpScope, spaceOf, versionOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const historySchema = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      description: 'Newest first',
      items: {
        type: 'object',
        properties: {
          version: { type: 'integer' },
          at: { type: 'string', format: 'date-time', description: 'When the write committed (ISO-8601 UTC)' },
          action: { type: 'string', enum: [...HISTORY_ACTIONS] },
          by: { type: 'string', nullable: true, description: 'The name of the management key that wrote; "cli" for the command line; null for a key without a name' },
        },
      },
    },
  },
} as const;

export async function historyPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  const onRequest = authenticate(services);
  for (const withVersion of [false, true]) {
    app.get(withVersion ? '/api/rule/history/:idOrAlias/:version' : '/api/rule/history/:idOrAlias', {
      onRequest,
      config: { permission: 'audit:read' },
      schema: {
        tags: ['Rules'],
        summary: withVersion ? 'History of one version of a rule' : 'History of every version of a rule',
        description:
          'Every write (create, update, new version, publish, pending, lock, unlock, tags, delete, import), newest first. A deleted rule keeps its history, reachable by its id.',
        operationId: withVersion ? 'getRuleVersionHistory' : 'getRuleHistory',
        security: securedBy,
        params: params(withVersion),
        response: { 200: historySchema, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return services.management.history.list(spaceOf(request), p.idOrAlias, versionOf(p));
      },
    });
  }
}
