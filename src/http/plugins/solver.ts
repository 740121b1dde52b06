// The Solver API (SPEC 3.1, 3.3): POST /rule/solve/{ruleIdOrAlias}/{version?} and the deprecated
// POST /composition/solve/... for rule flows. A trailing slash is accepted (the official SDK always sends one).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services, SolveResponse } from '../../service/index.ts';
import type { SolveChannel } from '../../service/solve.ts';
import { principalOf, requireKey } from '../auth.ts';
import { MAX_VERSION, VERSION_RANGE, auditTtlFromText } from '../../rules/bounds.ts';
import type { DmnOptions } from '../../engine/types.ts';
import { HttpError, statusOf } from '../errors.ts';
import {
  AUDIT_TTL_MESSAGE, errorResponses, solveBodySchema, solveHeadersSchema, solveParamsSchema, solveResponseSchema, solveVersionParamsSchema,
} from '../schemas.ts';
import { solveDocsTransform } from '../solve-docs.ts';

/** A solve's body; its options are also the test bench's (management/tools.ts). */
export interface SolveBody {
  data: unknown;
  options?: { includedConditionCols?: string[]; excludedConditionCols?: string[]; decisions?: string[]; decisionService?: string; nullOnError?: boolean };
}

interface SolveParams {
  ruleIdOrAlias: string;
  version?: string;
}

export interface SolverPluginOptions {
  services: Services;
}

/** The DMN options of a solve's options; both a list of decisions and a decision service is a 400. */
export function dmnOptionsOf(options: SolveBody['options']): DmnOptions | undefined {
  if (options?.decisions === undefined && options?.decisionService === undefined && options?.nullOnError === undefined) return undefined;
  if (options.decisions !== undefined && options.decisionService !== undefined) {
    throw new HttpError(400, 'body.options: give decisions or decisionService, not both');
  }
  return {
    ...(options.decisions !== undefined ? { decisions: options.decisions } : {}),
    ...(options.decisionService !== undefined ? { decisionService: options.decisionService } : {}),
    ...(options.nullOnError !== undefined ? { nullOnError: options.nullOnError } : {}),
  };
}

/** Solves over HTTP are recorded (audit, metrics) with the status the client got. */
const HTTP_CHANNEL: SolveChannel = { name: 'http', codeOf: (failure) => (failure === undefined ? 200 : statusOf(failure)) };

function flag(value: string | string[] | undefined): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === 'true';
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function auditTtl(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const days = auditTtlFromText(value);
  if (days === undefined) throw new HttpError(400, AUDIT_TTL_MESSAGE);
  return days;
}

/** The path's version; 0 is left to the resolver (an unknown version, as documented), past MAX_VERSION is refused. */
function pathVersion(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const version = Number(value);
  if (version > MAX_VERSION) throw new HttpError(400, `The version in the path must be ${VERSION_RANGE}`);
  return version;
}

/**
 * The result as JSON text. A string payload with a JSON content type goes out as is: the results are arbitrary
 * JSON, which the response schema (there for the OpenAPI document) could only pass to JSON.stringify anyway.
 */
function respond(reply: FastifyReply, solved: SolveResponse): string {
  void reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(solved.body);
}

export async function solverPlugin(app: FastifyInstance, options: SolverPluginOptions): Promise<void> {
  const { services } = options;
  const authenticate = requireKey(services, 'solver');
  const body = solveBodySchema(services.config.bulkLimit);
  const response = { 200: solveResponseSchema, ...errorResponses([400, 401, 413, 415, 429, 500]) };

  // Synchronous when the solve is (a warm rule): no promise between the parsed body and the written response.
  const handler = (ruleFlowsOnly: boolean) => (request: FastifyRequest, reply: FastifyReply): string | Promise<string> => {
    const params = request.params as SolveParams;
    const requestBody = request.body as SolveBody;
    const headers = request.headers;
    const version = pathVersion(params.version);
    const result = services.solver.solveNow(
      principalOf(request),
      {
        idOrAlias: params.ruleIdOrAlias,
        version,
        data: requestBody.data,
        includedConditionCols: requestBody.options?.includedConditionCols,
        excludedConditionCols: requestBody.options?.excludedConditionCols,
        dmnOptions: dmnOptionsOf(requestBody.options),
        strategy: header(headers['x-strategy']),
        lookupMethod: header(headers['x-lookup-method']),
        audit: flag(headers['x-audit']),
        auditTtlDays: auditTtl(header(headers['x-audit-ttl'])),
        debug: flag(headers['x-debug']),
        correlationId: request.id,
        ruleFlowsOnly,
        channel: HTTP_CHANNEL,
      },
    );
    return result instanceof Promise ? result.then((solved) => respond(reply, solved)) : respond(reply, result);
  };

  const routes = [
    { prefix: '/rule/solve', ruleFlowsOnly: false },
    { prefix: '/composition/solve', ruleFlowsOnly: true },
  ];
  for (const { prefix, ruleFlowsOnly } of routes) {
    const deprecated = ruleFlowsOnly;
    const describe = ruleFlowsOnly
      ? 'Deprecated: solves a rule flow. Use /rule/solve. Responses carry Deprecation: true.'
      : 'Solves a rule (any type) with the input in `data`: an object, or an array of objects for a bulk solve.';
    for (const withVersion of [false, true]) {
      app.route({
        method: 'POST',
        url: withVersion ? `${prefix}/:ruleIdOrAlias/:version` : `${prefix}/:ruleIdOrAlias`,
        schema: {
          tags: [ruleFlowsOnly ? 'Rule flows (deprecated)' : 'Solver'],
          summary: `${ruleFlowsOnly ? 'Solve a rule flow' : 'Solve a rule'}${withVersion ? ', given version' : ', latest published version'}`,
          description: describe,
          deprecated,
          operationId: `${ruleFlowsOnly ? 'solveRuleFlow' : 'solveRule'}${withVersion ? 'Version' : 'Latest'}`,
          security: [{ solverKey: [] }],
          params: withVersion ? solveVersionParamsSchema : solveParamsSchema,
          headers: solveHeadersSchema,
          body,
          response,
        },
        // The deprecated flow endpoint gets no example: the example rule is a decision table, not a flow.
        config: ruleFlowsOnly ? {} : { swaggerTransform: solveDocsTransform },
        onRequest: deprecated
          ? [(_request, reply, done) => {
            void reply.header('deprecation', 'true');
            done();
          }, authenticate]
          : authenticate,
        handler: handler(ruleFlowsOnly),
      });
    }
  }
}
