// GoRules JDM export (docs/jdm.md): one rule as a JDM file. Importing a JDM file needs no route of its own: the
// rule-flow and folder imports detect the format (src/service/jdm-files.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STANDARD_ERRORS, authenticate, errors, params, securedBy, setUpScope, spaceOf, versionOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['GoRules JDM'];

interface ExportQuery {
  'hit-policy'?: 'first' | 'collect';
}

export async function jdmPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const transfer = services.management.transfer;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  for (const withVersion of [false, true]) {
    app.get(withVersion ? '/api/jdm/export/:idOrAlias/:version' : '/api/jdm/export/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:read' },
      schema: {
        tags: TAGS,
        security: securedBy,
        summary: `Export a rule as a GoRules JDM file (${withVersion ? 'given version' : 'latest version'})`,
        description:
          'A decision graph comes back as it was imported (unknown JDM fields kept); a decision table is converted exactly to input -> decision table -> output with hit-policy (first: what FIRST_MATCH answers, the default; collect: what STANDARD answers). The rule\'s tests whose answer is one object become the file\'s tests. Anything JDM cannot express exactly is a 400 naming each place and reason.',
        operationId: withVersion ? 'exportJdmVersion' : 'exportJdm',
        params: params(withVersion),
        querystring: {
          type: 'object',
          properties: { 'hit-policy': { type: 'string', enum: ['first', 'collect'], description: 'The hit policy a decision table gets (default first)' } },
        },
        response: { 200: { type: 'object', additionalProperties: true, description: 'The JDM file: {contentType, nodes, edges, settings?, tests?}' }, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return transfer.exportJdm(spaceOf(request), p.idOrAlias, versionOf(p), (request.query as ExportQuery)['hit-policy'] ?? 'first');
      },
    });
  }
}
