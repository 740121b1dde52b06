// Tools (SPEC 5.1): duplicate rows and the static analysis of a decision table, and the rules a rule or flow depends on.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STANDARD_ERRORS, authenticate, errors, params, ruleDocumentSchema, securedBy, setUpScope, spaceOf, versionOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';
import { analysisReportSchema } from './analysis-schema.ts';

const TAGS = ['Tools'];

export async function toolsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const tools = services.management.tools;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  for (const withVersion of [false, true]) {
    app.get(withVersion ? '/api/tools/duplicates/:idOrAlias/:version' : '/api/tools/duplicates/:idOrAlias', {
      onRequest,
      schema: {
        tags: TAGS,
        security: securedBy,
        summary: 'Duplicate rows of a decision table',
        description: 'Groups of active rows with identical conditions (and time validity). sameResults: false means the rows contradict each other.',
        operationId: withVersion ? 'findDuplicatesOfVersion' : 'findDuplicates',
        params: params(withVersion),
        response: {
          200: {
            type: 'object',
            properties: {
              rule: ruleDocumentSchema,
              duplicates: {
                type: 'array',
                items: { type: 'object', properties: { rows: { type: 'array', items: { type: 'integer' } }, sameResults: { type: 'boolean' } } },
              },
            },
          },
          ...errors(STANDARD_ERRORS),
        },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return tools.duplicates(spaceOf(request), p.idOrAlias, versionOf(p));
      },
    });

    app.get(withVersion ? '/api/tools/analysis/:idOrAlias/:version' : '/api/tools/analysis/:idOrAlias', {
      onRequest,
      schema: {
        tags: TAGS,
        security: securedBy,
        summary: 'Static analysis of a decision table',
        description:
          'Unreachable rows, overlapping rows with different results, gaps (inputs no row matches, with examples), contradictions, duplicates and type mismatches, as `verdict lint --json` reports them. Without a version: the latest version. A rule that is not a decision table is a 400.',
        operationId: withVersion ? 'analyseDecisionTableVersion' : 'analyseDecisionTable',
        params: params(withVersion),
        response: { 200: analysisReportSchema, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return tools.analysis(spaceOf(request), p.idOrAlias, versionOf(p));
      },
    });

    app.get(withVersion ? '/api/tools/dependencies/:idOrAlias/:version' : '/api/tools/dependencies/:idOrAlias', {
      onRequest,
      schema: {
        tags: TAGS,
        security: securedBy,
        summary: 'Rules a rule or flow uses, transitively',
        description: 'Resolved as a solve resolves them: a reference without a version means the latest published version. Callees come first; unresolvable references are listed in missing; a cycle is a 400.',
        operationId: withVersion ? 'findDependenciesOfVersion' : 'findDependencies',
        params: params(withVersion),
        response: {
          200: {
            type: 'object',
            properties: {
              rule: ruleDocumentSchema,
              dependencies: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    ruleId: { type: 'string' },
                    baseId: { type: 'string' },
                    version: { type: 'integer' },
                    ruleAlias: { type: 'string' },
                    name: { type: 'string' },
                    type: { type: 'string' },
                  },
                },
              },
              missing: { type: 'array', items: { type: 'object', properties: { idOrAlias: { type: 'string' }, version: { type: 'integer' } } } },
            },
          },
          ...errors(STANDARD_ERRORS),
        },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return tools.dependencies(spaceOf(request), p.idOrAlias, versionOf(p));
      },
    });
  }
}
