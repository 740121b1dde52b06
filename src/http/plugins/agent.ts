// The GoRules Agent API (docs/jdm.md, docs/decisions/gorules-agent-api.md), so GoRules clients switch by changing
// the base address: POST /api/rules/{project}/evaluate/{key} and the legacy POST /api/projects/{project}/evaluate/
// {key}, header X-Access-Token (a solver key of the space), body {"context": {...}, "trace": bool}, answer
// {"result", "performance", "trace"?}. The project is the space's name, the key a rule's alias or id, as GoRules
// keys come (`pricing.json`, `folder/pricing.json`: folders and the .json suffix are dropped). Every rule type
// that solves is evaluated through the one solve use case; a decision graph answers its output object, the other
// types their result array. Errors come in each family's own shape: {code, details?, key?} (rules) and {message}
// or zen's {type, ...} (legacy), each with a `message` naming what was wrong.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Services } from '../../service/index.ts';
import { classify as classifyFailure } from '../../service/errors.ts';
import type { ServiceError } from '../../service/errors.ts';
import type { SolveChannel } from '../../service/solve.ts';
import { principalOf, requireKey, requireManagement } from '../auth.ts';
import { classify, statusOf } from '../errors.ts';

export interface AgentPluginOptions {
  services: Services;
}

type Family = 'rules' | 'projects';

interface EvaluateBody {
  context: Record<string, unknown>;
  trace?: boolean;
}

/** Agent solves are HTTP solves (metrics, audit) with the status the client got. */
const AGENT_CHANNEL: SolveChannel = { name: 'http', codeOf: (failure) => (failure === undefined ? 200 : agentStatus(failure)) };

/** The rule a GoRules key names: `folder/pricing.json` -> `pricing` (alias or id). */
export function ruleOfKey(key: string): string {
  const last = key.split('/').filter((part) => part !== '').pop() ?? '';
  return last.replace(/\.json$/i, '');
}

/** A duration as zen and the Agent print it (Rust's `{:.1?}`): `152.3µs`, `1.2ms`, `1.0s`. */
export function formatPerformance(ms: number): string {
  const ns = ms * 1e6;
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(1)}s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(1)}ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)}µs`;
  return `${ns.toFixed(1)}ns`;
}

/**
 * The trace as zen answers it: an object keyed by node id, each entry with its `order` of execution. A decision
 * graph's trace is an array of nodes (src/engine/graph); another rule type's trace is passed as Verdict records it.
 */
export function agentTrace(trace: unknown): unknown {
  if (!Array.isArray(trace) || !trace.every((n) => n !== null && typeof n === 'object' && typeof (n as { id?: unknown }).id === 'string')) return trace ?? null;
  const out: Record<string, unknown> = {};
  trace.forEach((node: Record<string, unknown>, order) => {
    out[node.id as string] = { ...node, order };
  });
  return out;
}

/** Unknown and unpublished keys are both "no such released document" to an Agent client: 404. */
function isMissingDocument(failure: ServiceError): boolean {
  return failure.code === 'unknown-rule' || failure.code === 'not-published';
}

function agentStatus(failure: ServiceError): number {
  return isMissingDocument(failure) ? 404 : statusOf(failure);
}

class ProjectNotFound extends Error {}

/** Failures of the evaluation itself (zen's EvaluationError), as opposed to the request's. */
const EVALUATION_FAILURES: ReadonlySet<string> = new Set(['rule-error', 'timeout', 'limit-exceeded', 'ambiguous-alias']);

/** An error body in the family's shape. */
function agentBody(family: Family, status: number, message: string, failure: ServiceError | undefined, key: string | undefined): Record<string, unknown> {
  const engineType = failure?.code === 'timeout' || failure?.code === 'limit-exceeded' ? 'DepthLimitExceeded' : 'NodeError';
  if (family === 'rules') {
    if (status === 404 && failure !== undefined && isMissingDocument(failure)) return { code: 'documents.invalid', details: 'File not found', key, message };
    if (status === 404) return { code: 'project.notFound', message };
    if (status === 401) return { code: 'unauthorized', message };
    if (status === 403) return { code: 'forbidden', message };
    if (status === 429) return { code: 'rateLimited', message };
    if (status >= 500) return { code: 'internal', message };
    if (failure !== undefined && /custom node/i.test(failure.message)) {
      return { code: 'evaluate.integrationsNotSupported', details: 'This endpoint does not evaluate graphs containing integration (custom) nodes.', message };
    }
    if (failure !== undefined && EVALUATION_FAILURES.has(failure.code)) return { code: 'evaluate.failed', details: { type: engineType, source: message }, message };
    return { code: 'request.invalid', message };
  }
  if (status === 404 && failure !== undefined && isMissingDocument(failure)) return { type: 'LoaderError', key, message };
  if (failure !== undefined && EVALUATION_FAILURES.has(failure.code)) return { type: engineType, source: message, message };
  return { message };
}

function errorHandlerFor(family: Family, services: Services) {
  const limits = { bodyLimitBytes: services.config.bodyLimitBytes };
  return (err: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    const key = (request.params as { '*'?: string } | undefined)?.['*'];
    void reply.header('x-correlation-id', request.id);
    if (err instanceof ProjectNotFound) {
      void reply.code(404).type('application/json; charset=utf-8').send(agentBody(family, 404, err.message, undefined, key));
      return;
    }
    const failure = classifyFailure(err);
    const classified = classify(err, limits, request.id);
    if (classified.internal) request.log.error({ err }, 'request failed');
    const status = failure !== undefined && failure.kind !== 'internal' ? agentStatus(failure) : classified.status;
    if (classified.headers) void reply.headers(classified.headers);
    const known = failure !== undefined && failure.kind !== 'internal' ? failure : undefined;
    void reply.code(status).type('application/json; charset=utf-8').send(agentBody(family, status, classified.message, known, key));
  };
}

/**
 * Who is calling: X-Access-Token is the Agent's name for a solver key, checked as `Authorization: Bearer` is on
 * /rule/solve (key cache, rate limit, machine tokens); without it, a session or management key of the space with
 * permission rules:solve (the Studio's users), as every other /api/ route.
 */
function authenticate(services: Services) {
  const solverKey = requireKey(services, 'solver');
  const management = requireManagement(services);
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const token = request.headers['x-access-token'];
    if (typeof token === 'string' && token !== '') {
      request.headers.authorization = `Bearer ${token}`;
      solverKey(request, reply, done);
      return;
    }
    management(request, reply, done);
  };
}

const bodySchema = {
  type: 'object',
  required: ['context'],
  properties: {
    context: { type: 'object', description: 'The input of the decision', additionalProperties: true },
    trace: { type: 'boolean', description: 'Answer the per-node trace too' },
  },
} as const;

const responseSchema = {
  type: 'object',
  properties: {
    result: { description: 'A decision graph\'s output object; the result array for the other rule types' },
    performance: { type: 'string', description: 'Time the evaluation took, as zen prints it (1.2ms)' },
    trace: { description: 'With trace: true. A decision graph: an object keyed by node id ({id, name, input, output, performance, traceData, order})' },
  },
} as const;

export async function agentPlugin(app: FastifyInstance, options: AgentPluginOptions): Promise<void> {
  const { services } = options;
  const onRequest = authenticate(services);
  for (const family of ['rules', 'projects'] as const) {
    await app.register(async (scope) => {
      scope.setErrorHandler(errorHandlerFor(family, services));
      scope.post(`/api/${family}/:project/evaluate/*`, {
        onRequest,
        config: { permission: 'rules:solve' },
        schema: {
          tags: ['GoRules Agent API'],
          summary: family === 'rules' ? 'Evaluate a rule (GoRules Agent API)' : 'Evaluate a rule (GoRules Agent API, legacy path)',
          description: `GoRules clients work unchanged: the project is the space's name, the key a rule alias or id (a .json suffix and folders are dropped); X-Access-Token is a solver key of the space. Errors: ${family === 'rules' ? '{code, details?, key?, message}' : '{message} or {type, source | key, message}'}; an unknown key is a 404.`,
          operationId: family === 'rules' ? 'agentEvaluate' : 'agentEvaluateLegacy',
          deprecated: family === 'projects',
          security: [{ accessToken: [] }],
          body: bodySchema,
          response: { 200: responseSchema },
        },
        handler: async (request: FastifyRequest) => {
          const params = request.params as { project: string; '*': string };
          const principal = principalOf(request);
          // A key opens its own space only; any other project is one this caller cannot see, whether it exists or not.
          if (principal.space !== params.project) throw new ProjectNotFound(`Project not found: "${params.project}" is not the space of this access token`);
          const body = request.body as EvaluateBody;
          const trace = body.trace === true;
          const started = performance.now();
          const solved = await services.solver.solveNow(principal, {
            idOrAlias: ruleOfKey(params['*']),
            version: undefined,
            data: body.context,
            debug: trace,
            correlationId: request.id,
            channel: AGENT_CHANNEL,
          });
          const elapsed = performance.now() - started;
          const results = solved.body as unknown[];
          return {
            result: solved.ruleType === 'decision-graph' ? (results[0] ?? null) : results,
            performance: formatPerformance(elapsed),
            ...(trace ? { trace: agentTrace(solved.traces?.[0]) } : {}),
          };
        },
      });
    });
  }
}
