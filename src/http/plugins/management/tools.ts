// Tools (SPEC 5.1): duplicate rows and the static analysis of a decision table, and the rules a rule or flow depends
// on; and the test bench's solve of a rule document that is not stored (docs/decisions/management-draft-solve.md).
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { DraftSolveRequest } from '../../../service/management/draft-solve.ts';
import { solveBodySchema } from '../../schemas.ts';
import { dmnOptionsOf } from '../solver.ts';
import type { SolveBody } from '../solver.ts';
import { SOLVE_HEADER_ENUMS } from '../../solve-docs.ts';
import { STANDARD_ERRORS, authenticate, errors, params, ruleDocumentSchema, securedBy, setUpScope, spaceOf, versionOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';
import { analysisReportSchema } from './analysis-schema.ts';

/** A minimal decision table, an input and what solving it answers: the "Try it out" example of POST /api/tools/solve. */
export const DRAFT_SOLVE_EXAMPLE = {
  body: {
    rule: {
      name: 'Greeting',
      type: 'decision-table',
      inputSchema: { country: {} },
      outputSchema: { greeting: {} },
      decisionTable: {
        columns: [
          { columnId: 'c1', type: 'input', condition: { type: 'simple', name: 'Country', definition: { content: 'country', type: 'INPUT_VARIABLE' } } },
          { columnId: 'o1', type: 'output', columnOutput: { type: 'simple', name: 'Greeting', outputVariable: 'greeting' } },
        ],
        rows: [
          {
            active: true,
            cells: [
              { column: 'c1', type: 'input', scalarCondition: { operator: '=', value: 'CZ', type: 'general' } },
              { column: 'o1', type: 'output', outputScalarValue: { type: 'common', value: 'Ahoj' } },
            ],
          },
        ],
      },
    },
    data: { country: 'CZ' },
  },
  response: {
    result: [{ greeting: 'Ahoj' }],
    trace: [
      {
        rowNumber: 1,
        conditions: [{ columnId: 'c1', inputProperty: 'country', inputValue: 'CZ', evaluationResult: true, operator: '=', value: 'CZ' }],
        evaluationResult: true,
      },
    ],
    warnings: [],
  },
} as const;

function draftSolveBodySchema(bulkLimit: number) {
  const solve = solveBodySchema(bulkLimit);
  return {
    type: 'object',
    required: ['rule', 'data'],
    properties: {
      rule: { ...ruleDocumentSchema, description: 'The rule document to solve, as a write would send it; it is not stored.' },
      data: solve.properties.data,
      strategy: {
        type: 'string',
        enum: [...SOLVE_HEADER_ENUMS['x-strategy']!],
        description: 'As X-Strategy of a solve; default STANDARD (a strategy the rule type does not support falls back to STANDARD).',
      },
      lookupMethod: { type: 'string', enum: [...SOLVE_HEADER_ENUMS['x-lookup-method']!], description: 'As X-Lookup-Method of a solve.' },
      options: solve.properties.options,
    },
  } as const;
}

const draftSolveResponseSchema = {
  type: 'object',
  properties: {
    result: { description: 'Exactly what POST /rule/solve answers for this data (bulk: one result array per input).' },
    trace: {
      description: 'The debug trace as an audit record made with X-Debug: true holds it: for one input its trace, for a bulk one trace per input (spec/rule-format.md §10.1). For a scripting rule the trace is its console: the lines log() and console.log/info/debug/warn/error printed, in order.',
    },
    warnings: {
      type: 'array',
      description: 'Warnings of the compiled rule',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
} as const;

function draftSolveDocs({ schema, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  const response = schema.response as Record<string, unknown>;
  return {
    url,
    schema: {
      ...schema,
      body: { ...(schema.body as object), examples: [DRAFT_SOLVE_EXAMPLE.body] },
      response: { ...response, 200: { ...(response['200'] as object), examples: [DRAFT_SOLVE_EXAMPLE.response] } },
    },
  };
}

const TAGS = ['Tools'];

export async function toolsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const tools = services.management.tools;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  app.post('/api/tools/solve', {
    onRequest,
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Solve a rule document that is not stored (test bench)',
      description:
        'Checks the document exactly as a save does (400 with every problem in error.problems, each with its path), then solves it as POST /rule/solve solves a stored rule, with the same time limits, and answers the result with the debug trace. Nothing is stored: no rule, no audit record. Rules the document references (SOLVE, flow nodes) resolve against the rules of the key\'s space.',
      operationId: 'solveDraft',
      body: draftSolveBodySchema(services.config.bulkLimit),
      response: { 200: draftSolveResponseSchema, ...errors([400, 401, 413, 415, 429, 500]) },
    },
    config: { permission: 'rules:run', swaggerTransform: draftSolveDocs },
    handler: async (request: FastifyRequest) => {
      const body = request.body as DraftSolveRequest & { options?: SolveBody['options'] };
      return services.management.drafts.solve(spaceOf(request), {
        rule: body.rule,
        data: body.data,
        strategy: body.strategy,
        lookupMethod: body.lookupMethod,
        includedConditionCols: body.options?.includedConditionCols,
        excludedConditionCols: body.options?.excludedConditionCols,
        // A DMN draft runs the decisions (or service) the bench chose, as a solve's options say.
        dmnOptions: dmnOptionsOf(body.options),
      });
    },
  });

  for (const withVersion of [false, true]) {
    app.get(withVersion ? '/api/tools/duplicates/:idOrAlias/:version' : '/api/tools/duplicates/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:read' },
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
      config: { permission: 'rules:read' },
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
      config: { permission: 'rules:read' },
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
              edges: {
                type: 'array',
                description: 'Each direct use among the rule and its dependencies: `flow` (a flow node), `LOOKUP` (LOOKUP_VALUE / LOOKUP_EXISTS of a lookup table) or `SOLVE` (a SOLVE call, a script\'s DR.solve)',
                items: {
                  type: 'object',
                  properties: {
                    from: { type: 'object', properties: { ruleId: { type: 'string' }, version: { type: 'integer' } } },
                    to: { type: 'object', properties: { ruleId: { type: 'string' }, version: { type: 'integer' } } },
                    kind: { type: 'string', enum: ['flow', 'LOOKUP', 'SOLVE'] },
                  },
                },
              },
              missing: {
                type: 'array',
                items: { type: 'object', properties: { idOrAlias: { type: 'string' }, version: { type: 'integer' }, from: { type: 'string', description: 'The ruleId of the rule that references it' } } },
              },
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
