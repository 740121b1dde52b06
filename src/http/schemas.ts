// JSON schemas shared by routes. They validate requests and generate the OpenAPI documents, so the two cannot
// drift. Keep them OpenAPI 3.0 compatible (no type arrays; `nullable` rather than null types).
import { AUDIT_TTL_RANGE, MAX_AUDIT_TTL_DAYS, VERSION_RANGE } from '../rules/bounds.ts';

export const errorSchema = {
  type: 'object',
  description: 'Every error has this shape; the X-Correlation-Id response header identifies the request in the logs.',
  properties: { error: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
  required: ['error'],
} as const;

export function errorResponses(statuses: number[]): Record<string, unknown> {
  const descriptions: Record<number, string> = {
    400: 'Unknown rule or version, rule not published, ambiguous alias, invalid body or header, rule evaluation error or timeout',
    401: 'Authentication token missing, or invalid API key',
    404: 'No such route',
    413: 'Request body over BODY_LIMIT_BYTES',
    415: 'Content type other than application/json',
    429: 'Over the per-key rate limit (when enabled); see Retry-After',
    500: 'A fault of the service; details only in the server log',
  };
  return Object.fromEntries(statuses.map((s) => [String(s), { ...errorSchema, description: descriptions[s] ?? 'Error' }]));
}

export const AUDIT_TTL_MESSAGE = `Header X-Audit-Ttl must be ${AUDIT_TTL_RANGE}`;

const TRUE_FALSE = '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$';

export const solveHeadersSchema = {
  type: 'object',
  properties: {
    authorization: { type: 'string', description: 'Bearer <solver key>' },
    'x-strategy': {
      type: 'string',
      description: 'STANDARD (default), FIRST_MATCH, ARRAY or EVALUATE_ALL. Missing, unknown, or not supported by the rule type: STANDARD.',
    },
    'x-lookup-method': { type: 'string', description: 'Lookup tables: LOOKUP_VALUE (default) or LOOKUP_EXISTS.' },
    'x-correlation-id': {
      type: 'string',
      maxLength: 256,
      'x-message': 'Header X-Correlation-Id must be at most 256 characters',
      description: 'Echoed on the response; a UUID is generated when absent.',
    },
    'x-audit': { type: 'string', pattern: TRUE_FALSE, 'x-message': 'Header X-Audit must be "true" or "false"', description: 'true: store an audit record of this solve.' },
    'x-audit-ttl': {
      type: 'string',
      pattern: '^\\s*[0-9]{1,5}\\s*$',
      'x-message': AUDIT_TTL_MESSAGE,
      description: `Days until the audit record is deleted (1 to ${MAX_AUDIT_TTL_DAYS}); default AUDIT_TTL_DAYS (14).`,
    },
    'x-debug': {
      type: 'string',
      pattern: TRUE_FALSE,
      'x-message': 'Header X-Debug must be "true" or "false"',
      description: 'true: record the evaluation trace in the audit record (the response does not change).',
    },
  },
} as const;

export function solveBodySchema(bulkLimit: number) {
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        description: `An input object (simple solve) or an array of at most ${bulkLimit} input objects (bulk solve, BULK_LIMIT).`,
        'x-message': 'body.data must be a JSON object (one input) or an array of JSON objects (bulk)',
        anyOf: [
          { type: 'object', additionalProperties: true },
          {
            type: 'array',
            maxItems: bulkLimit,
            'x-message': `body.data has more than ${bulkLimit} inputs (BULK_LIMIT)`,
            items: { type: 'object', additionalProperties: true },
          },
        ],
      },
      options: {
        type: 'object',
        description: 'Condition columns: decision tables only (includedConditionCols wins when both are given). decisions, decisionService (give one of them) and nullOnError: DMN models only.',
        properties: {
          includedConditionCols: { type: 'array', items: { type: 'string' }, description: 'Condition columns to evaluate (input path or column alias); the others count as true.' },
          excludedConditionCols: { type: 'array', items: { type: 'string' }, description: 'Condition columns to skip (count as true).' },
          decisions: {
            type: 'array',
            minItems: 1,
            items: { type: 'string', minLength: 1 },
            description: 'DMN models: the decisions to answer, by name (and what they require is evaluated); default every decision of the model.',
          },
          decisionService: { type: 'string', minLength: 1, description: 'DMN models: evaluate this decision service, by name; its output decisions answer.' },
          nullOnError: {
            type: 'boolean',
            description: 'DMN models: answer null where an evaluation error happens (DMN semantics) instead of a 400 naming each error (the default).',
          },
        },
      },
    },
  } as const;
}

export const solveParamsSchema = {
  type: 'object',
  required: ['ruleIdOrAlias'],
  properties: {
    ruleIdOrAlias: { type: 'string', minLength: 1, description: "The rule's id (shared by its versions) or its alias." },
  },
} as const;

export const solveVersionParamsSchema = {
  type: 'object',
  required: ['ruleIdOrAlias', 'version'],
  properties: {
    ruleIdOrAlias: solveParamsSchema.properties.ruleIdOrAlias,
    version: {
      type: 'string',
      pattern: '^[0-9]{1,10}$',
      'x-message': `The version in the path must be ${VERSION_RANGE}`,
      description: 'Version number (integer). Omitted: the highest published version.',
    },
  },
} as const;

export const solveResponseSchema = {
  type: 'array',
  description:
    'Simple solve: the result array (for STANDARD one object per matched row; the X-Strategy header describes the others). Bulk solve: one such array per input, in input order.',
  items: {},
} as const;
