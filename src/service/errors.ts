// Failures the use cases report. Each adapter maps a kind to its own channel: HTTP statuses here (SPEC 3.2),
// Kafka error codes in src/kafka. Messages are the exact texts clients see.

export type FailureKind =
  | 'unauthenticated'
  | 'invalid-key'
  | 'unknown-rule'
  | 'not-published'
  | 'ambiguous-alias'
  | 'bad-request'
  | 'rule-error'
  | 'timeout'
  | 'rate-limited';

export const HTTP_STATUS: Record<FailureKind, number> = {
  unauthenticated: 401,
  'invalid-key': 401,
  'unknown-rule': 400,
  'not-published': 400,
  'ambiguous-alias': 400,
  'bad-request': 400,
  'rule-error': 400,
  timeout: 400,
  'rate-limited': 429,
};

export const MESSAGES = {
  tokenMissing: 'Authentication token missing',
  bearerSchemeMissing: 'Authorization header must use the Bearer scheme: "Authorization: Bearer <key>"',
  invalidKey: 'Invalid API key',
  unknownRule: 'Unknown rule or rule version',
  unknownRuleFlow: 'Unknown ruleFlow or version',
  notPublished: 'Rule state is not published',
} as const;

export class ServiceError extends Error {
  readonly kind: FailureKind;
  /** Seconds, for rate-limited. */
  readonly retryAfter: number | undefined;
  constructor(kind: FailureKind, message: string, retryAfter?: number) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.retryAfter = retryAfter;
  }

  get status(): number {
    return HTTP_STATUS[this.kind];
  }
}

export function ambiguousAlias(alias: string, count: number): ServiceError {
  return new ServiceError(
    'ambiguous-alias',
    `Rule alias "${alias}" is ambiguous: ${count} rules in this space use it; solve by rule id instead`,
  );
}
