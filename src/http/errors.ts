// Every error leaves as {"error": {"message": "..."}} with the correlation id header (SPEC 3.2). Client mistakes
// say exactly what was wrong; faults of ours say nothing but the correlation id, and are logged in full.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { classify as classifyFailure } from '../service/errors.ts';
import type { ErrorCode, ErrorKind, ServiceError } from '../service/errors.ts';

/** The HTTP status of each kind of the error catalog (SPEC 3.2, docs/decisions/service-error-catalog.md). */
export const HTTP_STATUS: Record<ErrorKind, number> = {
  'not-found': 404,
  'invalid-input': 400,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  // A rule over a configured limit is the rule's problem, answered like any rule error (DecisionRules: 400).
  limit: 400,
  'rate-limited': 429,
  unavailable: 502,
  internal: 500,
};

/**
 * Wire compatibility with the DecisionRules Solver API, which answers an unknown rule (or version) with 400: the
 * one code whose status is not its kind's.
 */
const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  'unknown-rule': 400,
  // HTTP has its own status for a failed precondition (If-Match): 412 rather than the kind's 409.
  'stale-version': 412,
};

/** The status a client gets for a failure of the catalog. */
export function statusOf(error: Pick<ServiceError, 'code' | 'kind'>): number {
  return STATUS_BY_CODE[error.code] ?? HTTP_STATUS[error.kind];
}

/** An HTTP-level client error raised by a route or hook. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
  }
}

export interface ErrorBody {
  error: { message: string };
}

export function errorBody(message: string): ErrorBody {
  return { error: { message } };
}

export interface Classified {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** A fault of ours: logged with the stack, answered generically. */
  internal?: boolean;
}

export interface ErrorLimits {
  bodyLimitBytes: number;
}

/** Response headers a failure carries: Retry-After when rate-limited, the current ETag when a version is stale. */
function headersOf(failure: ServiceError): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
  if (failure.etag !== undefined) headers.etag = failure.etag;
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** The status and message of any failure (the Agent API words its bodies its own way from these). */
export function classify(err: unknown, limits: ErrorLimits, correlationId: string): Classified {
  if (err instanceof HttpError) return { status: err.statusCode, message: err.message, headers: err.headers };
  const service = classifyFailure(err);
  if (service && service.kind !== 'internal') {
    return {
      status: statusOf(service),
      message: service.message,
      headers: headersOf(service),
    };
  }
  const fastifyError = err as Partial<FastifyError> | undefined;
  if (fastifyError && Array.isArray(fastifyError.validation)) return { status: 400, message: fastifyError.message ?? 'invalid request' };
  switch (fastifyError?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: `Request body exceeds the limit of ${limits.bodyLimitBytes} bytes (BODY_LIMIT_BYTES)` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'Unsupported content type: send application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'Request body is empty: send a JSON object such as {"data": {...}}' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: 'Request body is not valid JSON' };
    default:
      break;
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && typeof fastifyError?.code === 'string' && fastifyError.code.startsWith('FST_')) {
    return { status, message: fastifyError.message ?? 'bad request' };
  }
  return { status: 500, message: `Internal server error (correlation id ${correlationId}); the details are in the server log`, internal: true };
}

export function errorHandler(limits: ErrorLimits) {
  return (err: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    const classified = classify(err, limits, request.id);
    if (classified.internal) request.log.error({ err }, 'request failed');
    reply.header('x-correlation-id', request.id);
    if (classified.headers) reply.headers(classified.headers);
    void reply.code(classified.status).type('application/json; charset=utf-8').send(errorBody(classified.message));
  };
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(404).send(errorBody(`No route ${request.method} ${request.url.split('?')[0]}`));
}
