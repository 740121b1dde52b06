// Rules of the Management API (SPEC 5.1): get, create, new version, update, status, lock, delete, alias. Paths and
// bodies as the DecisionRules SDKs send them; a trailing slash and a missing version are accepted everywhere the
// SDKs may produce them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RuleStatus } from '../../../store/ports.ts';
import {
  PRECONDITION_WRITE_ERRORS, STANDARD_ERRORS, WRITE_ERRORS, authenticate, errors, ifMatchHeaders, params, ruleDocumentSchema,
  securedBy, setUpScope, spaceOf, versionedRuleSchema, versionOf, withETag, writeOptions,
} from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

interface RuleParams {
  idOrAlias: string;
  version?: string;
}

const TAGS = ['Rules'];

/** `?force=true` publishes although the version's tests fail (the publishing gate; recorded in the run history). */
const forceQuery = {
  type: 'object',
  properties: {
    force: {
      type: 'string',
      enum: ['true', 'false'],
      'x-message': 'Query parameter force must be true or false',
      description: 'With the publishing gate on: publish even when the version\'s tests fail (409 otherwise). Recorded in the test run history.',
    },
  },
} as const;

function forceOf(request: FastifyRequest): { force: boolean } {
  return { force: (request.query as { force?: string }).force === 'true' };
}

export async function rulesPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const rules = services.management.rules;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  for (const withVersion of [false, true]) {
    const url = withVersion ? '/api/rule/:idOrAlias/:version' : '/api/rule/:idOrAlias';
    const which = withVersion ? 'the given version' : 'the latest version';

    app.get(url, {
      onRequest,
      config: { permission: 'rules:read' },
      schema: {
        tags: TAGS,
        summary: `Get a rule, ${which}`,
        description: 'Any status: management keys see pending versions too. The ETag header identifies this state of the version (for If-Match on writes).',
        operationId: withVersion ? 'getRuleVersion' : 'getRule',
        security: securedBy,
        params: params(withVersion),
        response: { 200: versionedRuleSchema, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as RuleParams;
        return withETag(reply, await rules.get(spaceOf(request), p.idOrAlias, versionOf(p)));
      },
    });

    app.put(url, {
      onRequest,
      config: { permission: 'rules:edit' },
      schema: {
        tags: TAGS,
        summary: `Replace the content of ${which}`,
        description:
          'The rule id, version, alias, lock and creation time stay; the document is validated first. A locked version refuses (409). With If-Match (the ETag of a GET), the write happens only if the version is unchanged since; otherwise 412 with the current ETag. Content that will be published passes the publishing gate (409 listing failing tests, unless ?force=true). A published version refuses (409) when the space setting liveEdits is "forbidden" (GET/PUT /api/space/settings): create a new version instead.',
        operationId: withVersion ? 'updateRuleVersion' : 'updateRule',
        security: securedBy,
        params: params(withVersion),
        headers: ifMatchHeaders,
        querystring: forceQuery,
        body: ruleDocumentSchema,
        response: { 200: versionedRuleSchema, ...errors(PRECONDITION_WRITE_ERRORS) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as RuleParams;
        return withETag(reply, await rules.update(spaceOf(request), p.idOrAlias, versionOf(p), request.body, { ...writeOptions(request), ...forceOf(request) }));
      },
    });

    app.delete(url, {
      onRequest,
      config: { permission: 'rules:publish' },
      schema: {
        tags: TAGS,
        summary: withVersion ? 'Delete one version of a rule' : 'Delete every version of a rule',
        description: 'Version numbers of deleted versions are never given again. A locked version refuses (409).',
        operationId: withVersion ? 'deleteRuleVersion' : 'deleteRule',
        security: securedBy,
        params: params(withVersion),
        response: {
          200: {
            type: 'object',
            properties: { ruleId: { type: 'string' }, deletedVersions: { type: 'array', items: { type: 'integer' } } },
          },
          ...errors([...STANDARD_ERRORS, 409]),
        },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as RuleParams;
        return rules.delete(spaceOf(request), p.idOrAlias, versionOf(p), writeOptions(request));
      },
    });

    app.put(withVersion ? '/api/rule/status/:idOrAlias/:status/:version' : '/api/rule/status/:idOrAlias/:status', {
      onRequest,
      config: { permission: 'rules:publish' },
      schema: {
        tags: TAGS,
        summary: `Publish ${which}, or set it back to pending`,
        description: 'With the publishing gate on, publishing a pending version runs its tests first and is refused (409, failing tests in error.problems) unless ?force=true.',
        operationId: withVersion ? 'setRuleVersionStatus' : 'setRuleStatus',
        security: securedBy,
        params: params(withVersion, {
          status: { type: 'string', enum: ['published', 'pending'], 'x-message': 'The status in the path must be published or pending' },
        }),
        headers: ifMatchHeaders,
        querystring: forceQuery,
        response: { 200: versionedRuleSchema, ...errors([...STANDARD_ERRORS, 409, 412]) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as RuleParams & { status: RuleStatus };
        return withETag(reply, await rules.setStatus(spaceOf(request), p.idOrAlias, p.status, versionOf(p), { ...writeOptions(request), ...forceOf(request) }));
      },
    });

    app.patch(withVersion ? '/api/rule/lock/:idOrAlias/:version' : '/api/rule/lock/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:publish' },
      schema: {
        tags: TAGS,
        summary: `Lock or unlock ${which}`,
        description: 'A locked version is still solvable and exportable, but refuses every change until unlocked.',
        operationId: withVersion ? 'lockRuleVersion' : 'lockRule',
        security: securedBy,
        params: params(withVersion),
        body: {
          type: 'object',
          required: ['locked'],
          properties: { locked: { type: 'boolean' } },
          'x-message': 'Request body must be {"locked": true} or {"locked": false}',
        },
        headers: ifMatchHeaders,
        response: { 200: versionedRuleSchema, ...errors([...STANDARD_ERRORS, 412]) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as RuleParams;
        const locked = (request.body as { locked: boolean }).locked;
        return withETag(reply, await rules.setLock(spaceOf(request), p.idOrAlias, locked, versionOf(p), writeOptions(request)));
      },
    });
  }

  app.post('/api/rule', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      summary: 'Create a rule',
      description:
        'Creates version 1, published unless the body says pending. The body\'s ruleId and ruleAlias are kept when free in the space (409 otherwise); a missing alias is the name\'s slug (`Discount tier` -> `discount-tier`), with -2, -3, ... only when another rule has it. `path` places the rule in a folder.',
      operationId: 'createRule',
      security: securedBy,
      querystring: { type: 'object', properties: { path: { type: 'string', description: 'Folder path, e.g. /Pricing/EU' } } },
      body: ruleDocumentSchema,
      response: { 200: versionedRuleSchema, ...errors(WRITE_ERRORS) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as { path?: string };
      return withETag(reply, await rules.create(spaceOf(request), request.body, query.path, writeOptions(request)));
    },
  });

  app.post('/api/rule/:idOrAlias/new-version', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      summary: 'Add a version to a rule',
      description: 'The new version gets the number after the highest ever used, starts pending, and keeps the rule\'s id, alias and name.',
      operationId: 'createRuleVersion',
      security: securedBy,
      params: params(false),
      body: ruleDocumentSchema,
      response: { 200: versionedRuleSchema, ...errors(WRITE_ERRORS) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const p = request.params as RuleParams;
      return withETag(reply, await rules.newVersion(spaceOf(request), p.idOrAlias, request.body, writeOptions(request)));
    },
  });

  app.put('/api/rule/:idOrAlias/alias', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      summary: 'Change the alias of a rule',
      description:
        'Every version of the rule takes the new alias at once: solving by it works immediately and the old alias answers 404. Refused when another rule of the space has the alias or has it as its id (409, naming that rule), or when it is not 1-100 letters, digits and "-" (400). Locked versions take it too (a lock freezes content, not the rule\'s name). Flows that call the rule by its old alias must be updated. Recorded in the rule history (action "alias"). Answers the latest version.',
      operationId: 'setRuleAlias',
      security: securedBy,
      params: params(false),
      body: {
        type: 'object',
        required: ['ruleAlias'],
        properties: { ruleAlias: { type: 'string', description: 'The new alias: 1-100 letters, digits and "-"', examples: ['discount-tier'] } },
        'x-message': 'Request body must be {"ruleAlias": "new-alias"}',
      },
      response: { 200: versionedRuleSchema, ...errors([...STANDARD_ERRORS, 409]) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const p = request.params as RuleParams;
      return withETag(reply, await rules.setAlias(spaceOf(request), p.idOrAlias, request.body, writeOptions(request)));
    },
  });
}
