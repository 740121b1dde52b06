// Rule tests over the Management API (issue 13): suites and tests of a rule, runs (a rule version, a suite,
// selected tests, the whole space), the run history, and the publishing gate. Paths under /api/tests; a suite and a
// test are named by id, a rule by id or alias. The use cases live in src/service/rule-tests.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseVersion } from '../../../service/management/lookup.ts';
import { readSelection } from '../../../service/rule-tests/service.ts';
import { principalOf } from '../../auth.ts';
import {
  STANDARD_ERRORS, WRITE_ERRORS, authenticate, errors, idParam, securedBy, setUpScope, spaceOf, versionOf, versionParam,
} from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['Rule tests'];

const anyJson = {} as const;
const stringList = { type: 'array', items: { type: 'string' } } as const;

const testDefinitionProperties = {
  name: { type: 'string', description: 'Unique enough to recognise in a report' },
  input: { type: 'object', additionalProperties: true, description: 'The solve input' },
  expected: { type: 'array', items: anyJson, description: 'The result array the solve should return' },
  ignore: { ...stringList, description: 'Output paths left out of the comparison: `price` (in every result element), `[0].items[1].price`, `items[*].price`, `["net price"]`' },
  strategy: { type: 'string', nullable: true, description: 'STANDARD, FIRST_MATCH, ARRAY or EVALUATE_ALL (decision tables)' },
  includedConditionCols: { type: 'array', nullable: true, items: { type: 'string' } },
  excludedConditionCols: { type: 'array', nullable: true, items: { type: 'string' } },
} as const;

const testSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    suiteId: { type: 'string' },
    ...testDefinitionProperties,
    position: { type: 'integer' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;

/**
 * Bodies are checked by the service, which lists every problem with its path (a schema would stop at the first);
 * the schema documents the fields.
 */
const testBodySchema = {
  type: 'object',
  additionalProperties: true,
  description:
    'A test: {"name": string, "input": object, "expected": [result, ...], "ignore"?: [path, ...], "strategy"?: STANDARD|FIRST_MATCH|ARRAY|EVALUATE_ALL, "includedConditionCols"?: [string], "excludedConditionCols"?: [string]}',
} as const;

const suiteSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    ruleId: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    tests: { type: 'array', items: testSchema },
  },
} as const;

const suiteBodySchema = {
  type: 'object',
  additionalProperties: true,
  description: 'A suite: {"name": string, "description"?: string, "tests"?: [test, ...]}. On PUT, fields left out stay; "tests" replaces every test of the suite.',
} as const;

const ruleSuitesSchema = {
  type: 'object',
  properties: { ruleId: { type: 'string' }, ruleAlias: { type: 'string' }, suites: { type: 'array', items: suiteSchema } },
} as const;

const differenceSchema = {
  type: 'object',
  description: 'One differing output path; `expected` is absent when kind is unexpected, `received` when kind is missing',
  properties: { path: { type: 'string' }, kind: { type: 'string', enum: ['changed', 'missing', 'unexpected'] }, expected: anyJson, received: anyJson },
} as const;

const resultSchema = {
  type: 'object',
  properties: {
    testId: { type: 'string' },
    suiteId: { type: 'string' },
    suiteName: { type: 'string' },
    testName: { type: 'string' },
    status: { type: 'string', enum: ['passed', 'failed', 'error'] },
    received: { type: 'array', nullable: true, items: anyJson },
    differences: { type: 'array', items: differenceSchema },
    error: { type: 'string', nullable: true },
    durationMs: { type: 'number' },
  },
} as const;

const runSummaryProperties = {
  id: { type: 'string' },
  ruleId: { type: 'string' },
  version: { type: 'integer' },
  createdAt: { type: 'string' },
  trigger: { type: 'string', enum: ['run', 'publish'], description: 'run: asked for; publish: the publishing gate' },
  forced: { type: 'boolean', description: 'A publish with ?force=true' },
  passed: { type: 'integer' },
  failed: { type: 'integer' },
  errors: { type: 'integer' },
} as const;

const runSchema = { type: 'object', properties: { ...runSummaryProperties, results: { type: 'array', items: resultSchema } } } as const;


const gateSchema = {
  type: 'object',
  properties: {
    space: { type: 'boolean', description: 'The space setting' },
    rules: { type: 'array', items: { type: 'object', properties: { ruleId: { type: 'string' }, enabled: { type: 'boolean' } } } },
  },
} as const;

const ruleGateSchema = {
  type: 'object',
  properties: { ruleId: { type: 'string' }, enabled: { type: 'boolean' }, override: { type: 'boolean', nullable: true }, space: { type: 'boolean' } },
} as const;

const suiteParams = { type: 'object', required: ['suiteId'], properties: { suiteId: { type: 'string', minLength: 1 } } } as const;
const testParams = { type: 'object', required: ['suiteId', 'testId'], properties: { suiteId: { type: 'string', minLength: 1 }, testId: { type: 'string', minLength: 1 } } } as const;
const ruleParams = { type: 'object', required: ['idOrAlias'], properties: { idOrAlias: idParam } } as const;
const deletedSchema = { type: 'object', properties: { deleted: { type: 'string' } } } as const;

export async function ruleTestsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const tests = services.ruleTests;
  setUpScope(app, services);
  const onRequest = authenticate(services);
  const common = { tags: TAGS, security: securedBy };

  app.get('/api/tests', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: { ...common, summary: 'Every rule of the space that has tests, with its suites and tests', operationId: 'listRuleTests', response: { 200: { type: 'array', items: ruleSuitesSchema }, ...errors([401, 429, 500]) } },
    handler: async (request: FastifyRequest) => tests.listAll(spaceOf(request)),
  });

  app.get('/api/tests/rule/:idOrAlias', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: { ...common, summary: "A rule's suites with their tests", operationId: 'getRuleTests', params: ruleParams, response: { 200: ruleSuitesSchema, ...errors(STANDARD_ERRORS) } },
    handler: async (request: FastifyRequest) => tests.listForRule(spaceOf(request), (request.params as { idOrAlias: string }).idOrAlias),
  });

  app.post('/api/tests/rule/:idOrAlias/suites', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      ...common,
      summary: 'Create a test suite for a rule (every version of it)',
      description: 'Suite names are unique per rule (409). Every problem of the body is listed with its path (400).',
      operationId: 'createTestSuite',
      params: ruleParams,
      body: suiteBodySchema,
      response: { 200: suiteSchema, ...errors(WRITE_ERRORS) },
    },
    handler: async (request: FastifyRequest) => tests.createSuite(spaceOf(request), (request.params as { idOrAlias: string }).idOrAlias, request.body),
  });

  app.get('/api/tests/suites/:suiteId', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: { ...common, summary: 'A test suite with its tests', operationId: 'getTestSuite', params: suiteParams, response: { 200: suiteSchema, ...errors(STANDARD_ERRORS) } },
    handler: async (request: FastifyRequest) => tests.getSuite(spaceOf(request), (request.params as { suiteId: string }).suiteId),
  });

  app.put('/api/tests/suites/:suiteId', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: { ...common, summary: 'Rename a suite, change its description, or replace its tests', operationId: 'updateTestSuite', params: suiteParams, body: suiteBodySchema, response: { 200: suiteSchema, ...errors(WRITE_ERRORS) } },
    handler: async (request: FastifyRequest) => tests.updateSuite(spaceOf(request), (request.params as { suiteId: string }).suiteId, request.body),
  });

  app.delete('/api/tests/suites/:suiteId', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: { ...common, summary: 'Delete a suite and its tests', operationId: 'deleteTestSuite', params: suiteParams, response: { 200: deletedSchema, ...errors(STANDARD_ERRORS) } },
    handler: async (request: FastifyRequest) => tests.deleteSuite(spaceOf(request), (request.params as { suiteId: string }).suiteId),
  });

  app.post('/api/tests/suites/:suiteId/tests', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: { ...common, summary: 'Add a test to a suite (at its end)', operationId: 'createTest', params: suiteParams, body: testBodySchema, response: { 200: testSchema, ...errors(WRITE_ERRORS) } },
    handler: async (request: FastifyRequest) => tests.addTest(spaceOf(request), (request.params as { suiteId: string }).suiteId, request.body),
  });

  app.get('/api/tests/suites/:suiteId/tests/:testId', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: { ...common, summary: 'A test', operationId: 'getTest', params: testParams, response: { 200: testSchema, ...errors(STANDARD_ERRORS) } },
    handler: async (request: FastifyRequest) => {
      const p = request.params as { suiteId: string; testId: string };
      return tests.getTest(spaceOf(request), p.suiteId, p.testId);
    },
  });

  app.put('/api/tests/suites/:suiteId/tests/:testId', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: { ...common, summary: 'Replace a test', operationId: 'updateTest', params: testParams, body: testBodySchema, response: { 200: testSchema, ...errors(WRITE_ERRORS) } },
    handler: async (request: FastifyRequest) => {
      const p = request.params as { suiteId: string; testId: string };
      return tests.updateTest(spaceOf(request), p.suiteId, p.testId, request.body);
    },
  });

  app.delete('/api/tests/suites/:suiteId/tests/:testId', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: { ...common, summary: 'Delete a test', operationId: 'deleteTest', params: testParams, response: { 200: deletedSchema, ...errors(STANDARD_ERRORS) } },
    handler: async (request: FastifyRequest) => {
      const p = request.params as { suiteId: string; testId: string };
      return tests.deleteTest(spaceOf(request), p.suiteId, p.testId);
    },
  });

  for (const withVersion of [false, true]) {
    app.post(withVersion ? '/api/tests/run/:idOrAlias/:version' : '/api/tests/run/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:run' },
      schema: {
        ...common,
        summary: `Run a rule's tests against ${withVersion ? 'the given version' : 'its latest version'}`,
        description:
          'Any status: a pending version can be tested before it is published. Solves as POST /rule/solve would (flows, scripts, deadlines). The run is stored in the history. Optional body {"suiteIds"?: [id], "testIds"?: [id]}: run the tests of these suites plus these tests; no body: every test of the rule.',
        operationId: withVersion ? 'runRuleVersionTests' : 'runRuleTests',
        params: withVersion ? { ...ruleParams, required: ['idOrAlias', 'version'], properties: { ...ruleParams.properties, version: versionParam } } : ruleParams,
        response: { 200: runSchema, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return tests.runRule(spaceOf(request), p.idOrAlias, versionOf(p), readSelection(request.body), principalOf(request).actor);
      },
    });
  }

  for (const withVersion of [false, true]) {
    app.post(withVersion ? '/api/tests/try/:idOrAlias/:version' : '/api/tests/try/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:run' },
      schema: {
        ...common,
        summary: `Try an input on ${withVersion ? 'the given version' : 'the latest version'} of a rule, without storing anything`,
        description:
          'Solves as a test run would (any status) and answers the result: `received` is the output, to save as a test\'s `expected`; with `expected` in the body, `status` and `differences` compare them. Nothing is stored.',
        operationId: withVersion ? 'tryRuleVersionTest' : 'tryRuleTest',
        params: withVersion ? { ...ruleParams, required: ['idOrAlias', 'version'], properties: { ...ruleParams.properties, version: versionParam } } : ruleParams,
        body: { ...testBodySchema, description: 'A test without name or expected, or a whole one: {"input", "expected"?, "ignore"?, "strategy"?, ...}' },
        response: { 200: resultSchema, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest) => {
        const p = request.params as { idOrAlias: string; version?: string };
        return tests.tryTest(spaceOf(request), p.idOrAlias, versionOf(p), request.body);
      },
    });
  }

  const versionQuery = {
    type: 'object',
    properties: { version: { ...versionParam, description: 'The rule version to test; default: the latest, whatever its status' } },
  } as const;

  app.post('/api/tests/suites/:suiteId/run', {
    onRequest,
    config: { permission: 'rules:run' },
    schema: { ...common, summary: "Run one suite against a version of its rule", operationId: 'runTestSuite', params: suiteParams, querystring: versionQuery, response: { 200: runSchema, ...errors(STANDARD_ERRORS) } },
    handler: async (request: FastifyRequest) => {
      const query = request.query as { version?: string };
      return tests.runSuite(spaceOf(request), (request.params as { suiteId: string }).suiteId, parseVersion(query.version), principalOf(request).actor);
    },
  });

  app.post('/api/tests/run', {
    onRequest,
    config: { permission: 'rules:run' },
    schema: {
      ...common,
      summary: 'Run the tests of every rule of the space',
      description: 'Each rule that has tests, at its latest version; one stored run per rule.',
      operationId: 'runSpaceTests',
      response: { 200: { type: 'object', properties: { passed: { type: 'integer' }, failed: { type: 'integer' }, errors: { type: 'integer' }, runs: { type: 'array', items: runSchema } } }, ...errors([401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => tests.runSpace(spaceOf(request), principalOf(request).actor),
  });

  app.get('/api/tests/runs', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      ...common,
      summary: 'The run history, newest first (without per-test results; read a run for them)',
      operationId: 'listTestRuns',
      querystring: {
        type: 'object',
        properties: {
          rule: { type: 'string', minLength: 1, description: 'Rule id or alias' },
          version: { type: 'string', pattern: '^[0-9]{1,10}$', 'x-message': 'Query parameter version must be a version number' },
          limit: { type: 'string', pattern: '^[0-9]{1,3}$', 'x-message': 'Query parameter limit must be an integer from 1 to 200', description: 'Page size, 1-200, default 50' },
          cursor: { type: 'string', description: "A previous page's nextCursor" },
        },
      },
      response: { 200: { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: runSummaryProperties } }, nextCursor: { type: 'string', nullable: true } } }, ...errors(STANDARD_ERRORS) },
    },
    handler: async (request: FastifyRequest) => {
      const q = request.query as { rule?: string; version?: string; limit?: string; cursor?: string };
      return tests.runs(spaceOf(request), { rule: q.rule, version: parseVersion(q.version), limit: q.limit === undefined ? undefined : Number(q.limit), cursor: q.cursor });
    },
  });

  app.get('/api/tests/runs/:runId', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      ...common,
      summary: 'One run with each test\'s status, received output and differences',
      operationId: 'getTestRun',
      params: { type: 'object', required: ['runId'], properties: { runId: { type: 'string', minLength: 1 } } },
      response: { 200: runSchema, ...errors(STANDARD_ERRORS) },
    },
    handler: async (request: FastifyRequest) => tests.run(spaceOf(request), (request.params as { runId: string }).runId),
  });

  app.get('/api/tests/gate', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: { ...common, summary: 'The publishing gate: the space setting and per-rule overrides', operationId: 'getPublishGate', response: { 200: gateSchema, ...errors([401, 429, 500]) } },
    handler: async (request: FastifyRequest) => tests.gate(spaceOf(request)),
  });

  app.put('/api/tests/gate', {
    onRequest,
    config: { permission: 'space:admin' },
    schema: {
      ...common,
      summary: "Turn the space's publishing gate on or off",
      description: 'When on, publishing a version whose tests fail is refused (409) unless forced with ?force=true.',
      operationId: 'setPublishGate',
      body: { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' } }, 'x-message': 'Request body must be {"enabled": true} or {"enabled": false}' },
      response: { 200: gateSchema, ...errors([400, 401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => tests.setSpaceGate(spaceOf(request), (request.body as { enabled: boolean }).enabled),
  });

  app.get('/api/tests/gate/:idOrAlias', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: { ...common, summary: "Whether publishing a rule is gated, and why", operationId: 'getRulePublishGate', params: ruleParams, response: { 200: ruleGateSchema, ...errors(STANDARD_ERRORS) } },
    handler: async (request: FastifyRequest) => tests.ruleGate(spaceOf(request), (request.params as { idOrAlias: string }).idOrAlias),
  });

  app.put('/api/tests/gate/:idOrAlias', {
    onRequest,
    config: { permission: 'rules:publish' },
    schema: {
      ...common,
      summary: "Override the space's publishing gate for one rule",
      description: '{"enabled": true|false} overrides the space setting for this rule; {"enabled": null} removes the override.',
      operationId: 'setRulePublishGate',
      params: ruleParams,
      body: { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean', nullable: true } }, 'x-message': 'Request body must be {"enabled": true}, {"enabled": false} or {"enabled": null}' },
      response: { 200: ruleGateSchema, ...errors(STANDARD_ERRORS) },
    },
    handler: async (request: FastifyRequest) => tests.setRuleGate(spaceOf(request), (request.params as { idOrAlias: string }).idOrAlias, (request.body as { enabled: boolean | null }).enabled),
  });
}
