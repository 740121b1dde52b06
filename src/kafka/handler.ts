// Answers one request message: authenticate the api-key against the space bound to the topic, read the value
// and rule headers, solve through the service layer (the same use case as HTTP), and shape the response value.
// Never throws: every failure becomes an error response, faults of ours are logged under the correlation id.
import { randomUUID } from 'node:crypto';
import type { Json } from '../engine/types.ts';
import type { Principal, SolveRequest, SolveResponse } from '../service/index.ts';
import { classify, ERROR_CATALOG, MESSAGES } from '../service/errors.ts';
import type { ErrorCode, ErrorKind, ServiceError } from '../service/errors.ts';
import type { SolveChannel } from '../service/solve.ts';
import {
  apiKeyOf, CODES, correlationIdOf, INTERNAL_ERROR_MESSAGE, parseSolveCall, readHeaders, responseBody, RULE_NOT_FOUND_MESSAGE,
} from './protocol.ts';
import type { RawHeader, ResponseError } from './protocol.ts';

/** The parts of the service layer the channel uses (Services satisfies it). */
export interface SolveDeps {
  keys: { authenticateKey(token: string, type: 'solver'): Promise<Principal> };
  /** JWT access tokens of the configured issuers, accepted in the api-key header like a solver key. */
  machineTokens?: { accepts(token: string): boolean; authenticate(token: string): Promise<Principal> };
  solver: { solve(principal: Principal, request: SolveRequest): Promise<SolveResponse> };
}

export interface ChannelLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RequestMessage {
  topic: string;
  partition: number;
  offset: bigint;
  key?: Buffer | null;
  headers: Iterable<RawHeader>;
  value: Buffer | null | undefined;
}

export interface Answer {
  /** The response value (JSON text). */
  value: string;
  /** Copied into the response headers when the request carried one. */
  correlationId: string | undefined;
  /** 200, or the error code in the body. */
  code: number;
}

/** The SPEC 4 error code of each kind of the error catalog (docs/decisions/service-error-catalog.md). */
export const KAFKA_CODE: Record<ErrorKind, number> = {
  unauthorized: CODES.unauthorized,
  // Not produced by a solve today (solver keys carry no role); a refusal all the same.
  forbidden: CODES.unauthorized,
  'not-found': CODES.notFound,
  'invalid-input': CODES.badRequest,
  conflict: CODES.badRequest,
  limit: CODES.badRequest,
  'rate-limited': CODES.badRequest,
  unavailable: CODES.internal,
  internal: CODES.internal,
};

/** The SPEC 4 code of an error of the catalog. */
export function codeOf(code: ErrorCode): number {
  return KAFKA_CODE[ERROR_CATALOG[code]];
}

/** Solves over Kafka are recorded (audit, metrics) with the code the response carries. */
export const KAFKA_CHANNEL: SolveChannel = { name: 'kafka', codeOf: (failure) => (failure === undefined ? 200 : KAFKA_CODE[failure.kind]) };

function errorOf(err: ServiceError): ResponseError {
  // DecisionRules' wording: a missing rule and another space's rule are indistinguishable.
  return { code: KAFKA_CODE[err.kind], message: err.kind === 'not-found' ? RULE_NOT_FOUND_MESSAGE : err.message };
}

export async function answer(
  deps: SolveDeps,
  log: ChannelLogger,
  space: string,
  message: RequestMessage,
  maxBytes: number,
): Promise<Answer> {
  const headers = readHeaders(message.headers);
  const correlationId = correlationIdOf(headers);
  const fail = (error: ResponseError): Answer => ({ value: responseBody({ error }, correlationId), correlationId, code: error.code });

  const apiKey = apiKeyOf(headers);
  if (apiKey === undefined) return fail({ code: CODES.unauthorized, message: `${MESSAGES.tokenMissing}: header api-key is missing` });
  try {
    const token = deps.machineTokens?.accepts(apiKey) === true;
    const principal = token ? await deps.machineTokens!.authenticate(apiKey) : await deps.keys.authenticateKey(apiKey, 'solver');
    // A key of another space is answered exactly like an unknown key: nothing about other spaces leaks. A token's
    // holder knows its space already.
    if (principal.space !== space) {
      return fail({ code: CODES.unauthorized, message: token ? `This token is for space ${JSON.stringify(principal.space)}, not this topic's` : MESSAGES.invalidKey });
    }
    const call = parseSolveCall(headers, message.value, maxBytes);
    if (!call.ok) return fail(call.error);
    const result = await deps.solver.solve(principal, {
      idOrAlias: call.value.idOrAlias,
      version: call.value.version,
      data: call.value.input,
      strategy: call.value.strategy,
      ...(call.value.dmnOptions ? { dmnOptions: call.value.dmnOptions } : {}),
      correlationId: correlationId ?? randomUUID(),
      ruleFlowsOnly: call.value.ruleFlowsOnly,
      channel: KAFKA_CHANNEL,
    });
    return { value: responseBody({ data: result.body as Json[] }, correlationId), correlationId, code: 200 };
  } catch (err) {
    const failure = classify(err);
    if (failure !== undefined && failure.kind !== 'internal') return fail(errorOf(failure));
    log.error(
      { err, correlationId, topic: message.topic, partition: message.partition, offset: String(message.offset) },
      'kafka request failed',
    );
    return fail({ code: CODES.internal, message: INTERNAL_ERROR_MESSAGE });
  }
}
