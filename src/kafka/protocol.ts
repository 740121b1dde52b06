// The Kafka wire contract (SPEC 4), pure: reading a request message's headers and value, and writing the
// response value `{"data": [...], "errors": [{code, message}], "correlationId": "..."}`.
import type { DmnOptions, Json } from '../engine/types.ts';
import { VERSION_RANGE, versionFromText } from '../rules/bounds.ts';
import { NON_FINITE_MESSAGE, firstNonFinite } from '../rules/non-finite.ts';

export const HEADERS = {
  apiKey: 'api-key',
  ruleId: 'rule-id',
  ruleFlowId: 'ruleflow-id',
  version: 'version',
  correlationId: 'x-correlation-id',
  strategy: 'x-strategy',
  dmnDecisions: 'x-dmn-decisions',
  dmnDecisionService: 'x-dmn-decision-service',
  dmnNullOnError: 'x-dmn-null-on-error',
} as const;

/** Error codes of SPEC 4. */
export const CODES = {
  badRequest: 400,
  unauthorized: 401,
  /** Not found or another space's rule: DecisionRules answers 500 here, so do we. */
  notFound: 500,
  internal: 500,
} as const;

export const RULE_NOT_FOUND_MESSAGE = 'This rule belongs to another user OR rule not found';
export const INTERNAL_ERROR_MESSAGE = 'Internal error; the service log has the details under this correlation id';

export interface ResponseError {
  code: number;
  message: string;
}

/** One header as it comes off the wire: Kafka allows null keys and values and repeated keys. */
export type RawHeader = readonly [Buffer | null | undefined, Buffer | null | undefined];

/** Header names are compared case-insensitively; the first occurrence of a repeated header wins. */
export function readHeaders(entries: Iterable<RawHeader>): Map<string, string> {
  const headers = new Map<string, string>();
  for (const [key, value] of entries) {
    if (key === null || key === undefined) continue;
    const name = key.toString('utf8').trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, value === null || value === undefined ? '' : value.toString('utf8'));
  }
  return headers;
}

/** What a request asks for, once its headers and value are known to be well-formed. */
export interface SolveCall {
  idOrAlias: string;
  /** `ruleflow-id` was used: only rule flows are solved. */
  ruleFlowsOnly: boolean;
  version: number | undefined;
  strategy: string | undefined;
  /** DMN models: the decisions or decision service answered, and DMN's null on error (docs/dmn.md). */
  dmnOptions: DmnOptions | undefined;
  input: Record<string, unknown>;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ResponseError };

function fail(message: string): { ok: false; error: ResponseError } {
  return { ok: false, error: { code: CODES.badRequest, message } };
}

function nonEmpty(headers: Map<string, string>, name: string): string | undefined {
  const value = headers.get(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The key from `api-key`; undefined when missing or empty. */
export function apiKeyOf(headers: Map<string, string>): string | undefined {
  return nonEmpty(headers, HEADERS.apiKey);
}

/** The request's correlation id exactly as sent (an empty header still counts as sent). */
export function correlationIdOf(headers: Map<string, string>): string | undefined {
  return headers.get(HEADERS.correlationId);
}

/** Value and rule headers of an authenticated request. Checks in the order a client would fix them. */
export function parseSolveCall(headers: Map<string, string>, value: Buffer | null | undefined, maxBytes: number): Parsed<SolveCall> {
  const size = value?.length ?? 0;
  if (size > maxBytes) {
    return fail(`Message value is ${size} bytes, over the limit of ${maxBytes} bytes`);
  }
  if (value === null || value === undefined || size === 0) {
    return fail('Message value is empty; it must be the input JSON object');
  }
  let input: unknown;
  const text = value.toString('utf8');
  try {
    input = JSON.parse(text);
  } catch (err) {
    return fail(`Message value is not valid JSON: ${(err as Error).message}`);
  }
  const overflow = firstNonFinite(text, input, 'value');
  if (overflow !== undefined) return fail(`Message ${overflow} ${NON_FINITE_MESSAGE}`);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const kind = input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}`;
    return fail(`Message value must be a JSON object (the input data), got ${kind}`);
  }
  const ruleId = nonEmpty(headers, HEADERS.ruleId);
  const ruleFlowId = nonEmpty(headers, HEADERS.ruleFlowId);
  if (ruleId !== undefined && ruleFlowId !== undefined) {
    return fail(`Headers ${HEADERS.ruleId} and ${HEADERS.ruleFlowId} are exclusive; send one of them`);
  }
  if (ruleId === undefined && ruleFlowId === undefined) {
    return fail(`Header ${HEADERS.ruleId} (or ${HEADERS.ruleFlowId}) is missing; it names the rule to solve`);
  }
  const rawVersion = nonEmpty(headers, HEADERS.version);
  let version: number | undefined;
  if (rawVersion !== undefined) {
    version = versionFromText(rawVersion);
    if (version === undefined) return fail(`Header ${HEADERS.version} must be ${VERSION_RANGE}, got "${rawVersion}"`);
  }
  const dmnOptions = dmnOptionsOf(headers);
  if (!dmnOptions.ok) return dmnOptions;
  return {
    ok: true,
    value: {
      idOrAlias: (ruleId ?? ruleFlowId)!,
      ruleFlowsOnly: ruleId === undefined,
      version,
      strategy: nonEmpty(headers, HEADERS.strategy),
      dmnOptions: dmnOptions.value,
      input: input as Record<string, unknown>,
    },
  };
}

/** The DMN headers: decisions comma-separated, or one decision service; null-on-error `true` or `false`. */
function dmnOptionsOf(headers: Map<string, string>): Parsed<DmnOptions | undefined> {
  const decisions = nonEmpty(headers, HEADERS.dmnDecisions)?.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const decisionService = nonEmpty(headers, HEADERS.dmnDecisionService);
  const nullOnError = nonEmpty(headers, HEADERS.dmnNullOnError)?.toLowerCase();
  if (decisions !== undefined && decisionService !== undefined) {
    return fail(`Headers ${HEADERS.dmnDecisions} and ${HEADERS.dmnDecisionService} are exclusive; send one of them`);
  }
  if (nullOnError !== undefined && nullOnError !== 'true' && nullOnError !== 'false') {
    return fail(`Header ${HEADERS.dmnNullOnError} must be true or false, got "${nullOnError}"`);
  }
  if (decisions === undefined && decisionService === undefined && nullOnError === undefined) return { ok: true, value: undefined };
  return {
    ok: true,
    value: {
      ...(decisions !== undefined && decisions.length > 0 ? { decisions } : {}),
      ...(decisionService !== undefined ? { decisionService } : {}),
      ...(nullOnError === 'true' ? { nullOnError: true } : {}),
    },
  };
}

/** The response value: `errors` only on failure (then `data` is []), `correlationId` only when the request had one. */
export function responseBody(outcome: { data: Json[] } | { error: ResponseError }, correlationId: string | undefined): string {
  const body: { data: Json[]; errors?: ResponseError[]; correlationId?: string } =
    'error' in outcome ? { data: [], errors: [{ code: outcome.error.code, message: outcome.error.message }] } : { data: outcome.data };
  if (correlationId !== undefined) body.correlationId = correlationId;
  return JSON.stringify(body);
}
