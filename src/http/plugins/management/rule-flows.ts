// Rule-flow export and import (SPEC 5.1, rule-format §9.3): `[flow, ...rules it uses]`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VERSION_RANGE, versionFromText } from '../../../rules/bounds.ts';
import { badRequest } from '../../../service/management/errors.ts';
import {
  STANDARD_ERRORS, WRITE_ERRORS, acceptXml, authenticate, errors, params, ruleDocumentSchema, securedBy, setUpScope, spaceOf, versionOf, writeOptions,
} from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['Rule flows'];

interface ImportQuery {
  'new-version'?: string;
  newVersion?: string;
  overwrite?: string;
  version?: string;
  name?: string;
}

export async function ruleFlowsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const transfer = services.management.transfer;
  setUpScope(app, services);
  acceptXml(app);
  const onRequest = authenticate(services);

  for (const withVersion of [false, true]) {
    app.get(withVersion ? '/api/rule-flow/export/:idOrAlias/:version' : '/api/rule-flow/export/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:read' },
      schema: {
        tags: TAGS,
        security: securedBy,
        summary: `Export a rule flow (${withVersion ? 'given version' : 'latest version'}) with every rule it uses`,
        description: 'A JSON array: the flow first, then the rules it uses (transitively, as a solve resolves them). Works for any rule type.',
        operationId: withVersion ? 'exportRuleFlowVersion' : 'exportRuleFlow',
        params: params(withVersion),
        response: { 200: { type: 'array', items: ruleDocumentSchema }, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return transfer.exportRuleFlow(spaceOf(request), p.idOrAlias, versionOf(p));
      },
    });
  }

  app.post('/api/rule-flow/import', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Import a rule flow with its rules',
      description:
        'Per rule: an unknown id is created, a known id and version is overwritten, a known id with a new version is added. new-version=<id> imports the flow as the next version of that rule; overwrite=<id>&version=<n> writes it over that version. All or nothing.',
      operationId: 'importRuleFlow',
      querystring: {
        type: 'object',
        properties: {
          'new-version': { type: 'string', description: 'Rule id or alias: import the flow as its next version' },
          newVersion: { type: 'string', description: 'Same as new-version' },
          overwrite: { type: 'string', description: 'Rule id or alias: import the flow over its version `version`' },
          version: { type: 'string', pattern: '^[0-9]{1,10}$', 'x-message': `Query parameter version must be ${VERSION_RANGE}` },
          name: { type: 'string', minLength: 1, maxLength: 100, description: 'A GoRules JDM body: the decision graph\'s name (default "Decision graph"); a DMN body: the rule\'s name (default the model\'s)' },
        },
      },
      body: { description: 'A rule-flow export: [flow, ...rules] (a single rule object is accepted too), a GoRules JDM file ({nodes, edges}: one decision graph, its embedded tests its suite "JDM tests"), or a DMN 1.1-1.5 model (.dmn XML sent as application/xml or text/xml: one `dmn` rule, named after the model unless `name` says)' },
      response: {
        200: {
          type: 'object',
          properties: {
            imported: {
              type: 'array',
              items: { type: 'object', properties: { ruleId: { type: 'string' }, version: { type: 'integer' }, ruleAlias: { type: 'string' }, type: { type: 'string' } } },
            },
          },
        },
        ...errors(WRITE_ERRORS),
      },
    },
    handler: async (request: FastifyRequest) => {
      const query = request.query as ImportQuery;
      if (request.body === undefined) throw badRequest('Request body must be a rule-flow export: [flow, ...rules]');
      const version = query.version === undefined ? undefined : versionFromText(query.version);
      if (query.version !== undefined && version === undefined) throw badRequest(`Query parameter version must be ${VERSION_RANGE}`);
      const imported = await transfer.importRuleFlow(spaceOf(request), request.body, {
        newVersion: query['new-version'] ?? query.newVersion,
        overwrite: query.overwrite,
        version,
        name: query.name,
        ...writeOptions(request),
      });
      return { imported };
    },
  });
}
