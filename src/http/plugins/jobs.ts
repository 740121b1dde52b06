// Batch jobs over HTTP (docs/jobs.md), on DecisionRules' paths with a solver key as Bearer:
//   POST /job/start/{ruleIdOrAlias}/{version?}   inputs: a JSON array (or {"data": [...]}), NDJSON or CSV upload
//   GET  /job/{jobId}                            the job: state, processed, total, rate, times
//   GET  /job/{jobId}/result                     NDJSON, one line per input in input order
//   POST /job/cancel/{jobId}, /job/cancelAll/space/{spaceId}, /job/cancelAll/rule/{ruleIdOrAlias}/{version}
// The Studio's Jobs page uses the same routes under /api/space/jobs with its session (management/jobs.ts). NDJSON
// and CSV bodies reach the use case as the request stream, never read whole here.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Services } from '../../service/index.ts';
import type { JobInputSource, JobView } from '../../service/jobs/service.ts';
import type { Permission } from '../../service/roles.ts';
import { MAX_VERSION, VERSION_RANGE } from '../../rules/bounds.ts';
import { principalOf, requireKey } from '../auth.ts';
import { HttpError } from '../errors.ts';
import { errorResponses } from '../schemas.ts';

/** Upload types read as a stream; the first of each list is the one documented. */
const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];
const CSV_TYPES = ['text/csv'];

export const jobSchema = {
  type: 'object',
  properties: {
    jobId: { type: 'string' },
    state: { type: 'string', enum: ['Waiting', 'Running', 'Completed', 'Error', 'Canceled', 'Cancelling'] },
    ruleId: { type: 'string' },
    ruleAlias: { type: 'string' },
    version: { type: 'integer' },
    processed: { type: 'integer', description: 'Inputs answered so far (with a result or an error)' },
    total: { type: 'integer', description: 'Inputs of the job (still growing while receiving)' },
    failed: { type: 'integer', description: 'Inputs answered with an error' },
    receiving: { type: 'boolean', description: 'The inputs are still being uploaded' },
    rate: { type: 'number', description: 'Inputs answered per second since the job started running' },
    createdAt: { type: 'string', format: 'date-time' },
    startedAt: { type: 'string', format: 'date-time', nullable: true },
    finishedAt: { type: 'string', format: 'date-time', nullable: true },
    expiresAt: { type: 'string', format: 'date-time', nullable: true, description: 'When the job and its results are deleted (JOBS_RESULTS_TTL)' },
    error: { type: 'string', nullable: true },
  },
} as const;

interface JobRouteOptions {
  /** Path prefix: /job (solver API) or /api/space/jobs (the Studio's session). */
  prefix: string;
  authenticate: onRequestHookHandler;
  /** The route-table permission (the Studio's routes); the solver routes need a solver key instead. */
  permission?: Permission;
  tag: string;
  security: Array<Record<string, string[]>>;
  /** Whether to register the DecisionRules cancelAll paths. */
  cancelAll: boolean;
}

function pathVersion(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > MAX_VERSION) throw new HttpError(400, `The version in the path must be ${VERSION_RANGE}`);
  return Number(value);
}

function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

/** The inputs of a start request: the parsed JSON body, or the request stream of an upload. */
function inputSource(request: FastifyRequest): JobInputSource {
  const type = mediaType(request);
  if (NDJSON_TYPES.includes(type)) return { format: 'ndjson', stream: request.body as Readable };
  if (CSV_TYPES.includes(type)) return { format: 'csv', stream: request.body as Readable };
  const body = request.body;
  const inputs = Array.isArray(body) ? body : (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(inputs)) {
    throw new HttpError(400, 'A job needs its inputs: a JSON array of input objects (or {"data": [...]}), an NDJSON upload (Content-Type: application/x-ndjson) or a CSV upload (Content-Type: text/csv)');
  }
  return { format: 'json', inputs };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Registers the job routes under `options.prefix`. */
export function registerJobRoutes(app: FastifyInstance, services: Services, options: JobRouteOptions): void {
  const { prefix, tag, security } = options;
  const config = options.permission === undefined ? {} : { permission: options.permission };
  const onRequest = options.authenticate;
  const jobResponse = { 200: jobSchema, ...errorResponses([400, 401, 404, 429, 500]) };
  const listResponse = { 200: { type: 'array', items: jobSchema }, ...errorResponses([400, 401, 404, 429, 500]) };
  const jobParams = { type: 'object', required: ['jobId'], properties: { jobId: { type: 'string', maxLength: 100 } } } as const;

  // Uploads reach the route as the request stream: their size is bounded by JOBS_MAX_UPLOAD_BYTES as they are read.
  app.addContentTypeParser([...NDJSON_TYPES, ...CSV_TYPES], (_request, payload, done) => done(null, payload));

  const start = async (request: FastifyRequest): Promise<JobView> => {
    const params = request.params as { ruleIdOrAlias: string; version?: string };
    return services.jobs.start(
      principalOf(request),
      { idOrAlias: params.ruleIdOrAlias, version: pathVersion(params.version), strategy: header(request.headers['x-strategy']) },
      inputSource(request),
    );
  };
  for (const withVersion of [false, true]) {
    app.post(withVersion ? `${prefix}/start/:ruleIdOrAlias/:version` : `${prefix}/start/:ruleIdOrAlias`, {
      onRequest,
      config,
      schema: {
        tags: [tag],
        security,
        summary: `Start a job${withVersion ? '' : ' on the latest published version'}`,
        description: 'The body holds the inputs: a JSON array of input objects (or {"data": [...]}) within BODY_LIMIT_BYTES, or a streamed upload: NDJSON (application/x-ndjson, one input object per line) or CSV (text/csv, a header row of field paths such as order.total) within JOBS_MAX_UPLOAD_BYTES. Answers the job once every input is stored.',
        response: { ...jobResponse, ...errorResponses([413]) },
      },
      handler: start,
    });
  }

  app.get(`${prefix}/:jobId`, {
    onRequest,
    config,
    schema: { tags: [tag], security, summary: 'A job: state, processed and total, rate, times', params: jobParams, response: jobResponse },
    handler: (request) => services.jobs.get(principalOf(request).space, (request.params as { jobId: string }).jobId),
  });

  app.get(`${prefix}/:jobId/result`, {
    onRequest,
    config,
    schema: {
      tags: [tag],
      security,
      summary: "A completed job's results",
      description: 'NDJSON: one line per input, in input order: the result array a solve answers, or {"error": {"message": ...}}.',
      params: jobParams,
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { jobId } = request.params as { jobId: string };
      const pieces = await services.jobs.results(principalOf(request).space, jobId);
      void reply.type('application/x-ndjson; charset=utf-8').header('content-disposition', `attachment; filename="job-${jobId}.ndjson"`);
      return reply.send(Readable.from(pieces));
    },
  });

  app.post(`${prefix}/cancel/:jobId`, {
    onRequest,
    config,
    schema: { tags: [tag], security, summary: 'Cancel a job', params: jobParams, response: { ...jobResponse, ...errorResponses([409]) } },
    handler: (request) => services.jobs.cancel(principalOf(request), (request.params as { jobId: string }).jobId),
  });

  if (options.cancelAll) {
    app.post(`${prefix}/cancelAll/space/:spaceId`, {
      onRequest,
      config,
      schema: { tags: [tag], security, summary: "Cancel every active job of the key's space", response: listResponse },
      handler: (request) => services.jobs.cancelAll(principalOf(request), { space: (request.params as { spaceId: string }).spaceId }),
    });
    app.post(`${prefix}/cancelAll/rule/:ruleIdOrAlias/:version`, {
      onRequest,
      config,
      schema: { tags: [tag], security, summary: 'Cancel every active job of a rule version', response: listResponse },
      handler: (request) => {
        const params = request.params as { ruleIdOrAlias: string; version: string };
        return services.jobs.cancelAll(principalOf(request), { rule: params.ruleIdOrAlias, version: pathVersion(params.version) });
      },
    });
  }
}

/** The solver API's job routes: a solver key (or a machine token) as Bearer, like POST /rule/solve. */
export async function jobsPlugin(app: FastifyInstance, options: { services: Services }): Promise<void> {
  registerJobRoutes(app, options.services, {
    prefix: '/job',
    authenticate: requireKey(options.services, 'solver'),
    tag: 'Jobs',
    security: [{ solverKey: [] }],
    cancelAll: true,
  });
}
