// The error catalog (docs/decisions/service-error-catalog.md): every failure a use case reports is a ServiceError
// with a code (what went wrong, stable), a message (the exact text clients see) and a kind (the class of failure).
// Adapters map kinds to their channel: HTTP statuses in src/http/errors.ts, Kafka codes in src/kafka/handler.ts,
// CLI exit codes in src/cli/errors.ts. `classify` is the one place that turns anything thrown into a ServiceError.
import { LimitError, RuleError, TimeoutError, UnresolvedRuleError, ValidationError } from '../engine/errors.ts';
import type { Problem } from '../engine/errors.ts';

/** The classes of failure every channel knows how to answer. */
export type ErrorKind =
  /** What the request names is not there. */
  | 'not-found'
  /** The request (or the rule it runs) is wrong as sent. */
  | 'invalid-input'
  /** Clashes with what is stored. */
  | 'conflict'
  /** No credentials, or not valid ones. */
  | 'unauthorized'
  /** Valid credentials whose role does not allow the action (src/service/roles.ts). */
  | 'forbidden'
  /** A configured limit was reached: rule timeout, recursion depth, size. */
  | 'limit'
  /** Too many requests for this key; retry after `retryAfter` seconds. */
  | 'rate-limited'
  /** A system we depend on (the Kafka brokers) failed. */
  | 'unavailable'
  /** A fault of ours: logged in full, answered without details. */
  | 'internal';

/** Every error code with its kind. A new failure is one line here. */
export const ERROR_CATALOG = {
  // Authentication (SPEC 3.2).
  unauthenticated: 'unauthorized',
  'invalid-key': 'unauthorized',
  /** A JWT access token refused: unsigned, bad signature, expired, wrong issuer or audience, claims missing. */
  'invalid-token': 'unauthorized',
  /** The keys (JWKS) of a configured token issuer cannot be fetched. */
  'token-issuer-unavailable': 'unavailable',
  // Single sign-on (OIDC_PROVIDERS, src/service/sso.ts).
  'sso-unknown-provider': 'not-found',
  /** The provider's redirect does not complete a sign-in this browser started (state, code, ID token). */
  'sso-failed': 'unauthorized',
  /** The provider vouched for the user, but no value of the role claim maps to a role. */
  'sso-no-role': 'forbidden',
  'sso-unavailable': 'unavailable',
  /** The caller's role lacks the permission (roles.ts names it in the message). */
  forbidden: 'forbidden',
  /** A state-changing request made with a session cookie without its X-CSRF-Token. */
  csrf: 'forbidden',
  // Solving (SPEC 3, 4).
  'unknown-rule': 'not-found',
  'not-published': 'invalid-input',
  'ambiguous-alias': 'invalid-input',
  'bad-request': 'invalid-input',
  'rule-error': 'invalid-input',
  'limit-exceeded': 'limit',
  timeout: 'limit',
  'rate-limited': 'rate-limited',
  // Management (docs/decisions/management-api-semantics.md).
  'not-found': 'not-found',
  conflict: 'conflict',
  /** A write's If-Match no longer matches the version (docs/decisions/management-etag-if-match.md). */
  'stale-version': 'conflict',
  /** A rule id that is another rule's alias, or an alias that is another rule's id (docs/decisions/id-alias-namespace.md). */
  'id-alias-clash': 'conflict',
  /** A client-chosen rule id outside the safe character set. */
  'invalid-rule-id': 'invalid-input',
  // Spaces, keys and Kafka bindings (admin API, CLI).
  'space-not-found': 'not-found',
  'space-exists': 'conflict',
  'invalid-space-name': 'invalid-input',
  'invalid-key-name': 'invalid-input',
  /** No active key with that id in the caller's space (the Studio's API keys page). */
  'key-not-found': 'not-found',
  /** A management key asked to revoke itself (docs/decisions/studio-space-pages.md). */
  'own-key': 'conflict',
  'kafka-not-configured': 'invalid-input',
  'invalid-kafka-binding': 'invalid-input',
  'kafka-unavailable': 'unavailable',
  // Rule tests: the publishing gate refused a version whose tests fail (docs/decisions/rule-tests-publishing-gate.md).
  'tests-failed': 'conflict',
  /** The space forbids replacing a published version's content in place (docs/decisions/live-edits.md). */
  'live-edits-forbidden': 'conflict',
  /** An XLSX file that is refused (hostile) or does not describe a decision table; problems name sheet and cell (docs/xlsx.md). */
  'invalid-spreadsheet': 'invalid-input',
  /** Only decision tables have a spreadsheet form (XLSX export and import). */
  'not-a-decision-table': 'invalid-input',
  /** A rule another format cannot express exactly (JDM export, convert); problems name each place and reason (docs/jdm.md). */
  'not-convertible': 'invalid-input',
  /** The space requires approval (four eyes) and this version's content has none (docs/decisions/approvals.md). */
  'approval-required': 'conflict',
  /** A user asked to approve a version they were the last to edit. */
  'own-approval': 'conflict',
  /** Unknown user or wrong password: one message for both. */
  'wrong-credentials': 'unauthorized',
  'sign-in-throttled': 'rate-limited',
  /** STUDIO_KEY_SIGNIN=false. */
  'key-sign-in-disabled': 'forbidden',
  'user-not-found': 'not-found',
  'user-exists': 'conflict',
  'member-exists': 'conflict',
  'invalid-username': 'invalid-input',
  'invalid-role': 'invalid-input',
  'invalid-password': 'invalid-input',
  /** The change would leave a space without a user of role admin. */
  'last-admin': 'conflict',
  internal: 'internal',
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const MESSAGES = {
  tokenMissing: 'Authentication token missing',
  bearerSchemeMissing: 'Authorization header must use the Bearer scheme: "Authorization: Bearer <key>"',
  invalidKey: 'Invalid API key',
  /** A valid solver key on a management route (docs/decisions/service-api-keys.md: why saying so leaks nothing). */
  solverKeyOnManagement: 'This is a solver key; the management API needs a management key',
  unknownRule: 'Unknown rule or rule version',
  unknownRuleFlow: 'Unknown ruleFlow or version',
  notPublished: 'Rule state is not published',
} as const;

export interface ServiceErrorDetails {
  /** Seconds, for rate-limited. */
  retryAfter?: number;
  /** Every problem, each with its path, when the failure is about a document. */
  problems?: Problem[];
  /** The current entity tag of the rule version, for stale-version. */
  etag?: string;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly retryAfter: number | undefined;
  readonly problems: Problem[] | undefined;
  readonly etag: string | undefined;
  constructor(code: ErrorCode, message: string, details: ServiceErrorDetails = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.kind = ERROR_CATALOG[code];
    this.retryAfter = details.retryAfter;
    this.problems = details.problems;
    this.etag = details.etag;
  }
}

export function ambiguousAlias(alias: string, count: number): ServiceError {
  return new ServiceError(
    'ambiguous-alias',
    `Rule alias "${alias}" is ambiguous: ${count} rules in this space use it; solve by rule id instead`,
  );
}

export function spaceNotFound(space: string): ServiceError {
  return new ServiceError('space-not-found', `space "${space}" does not exist`);
}

/**
 * The one classification of failures: a ServiceError as is, the engine's errors by what they mean, anything else
 * undefined (a fault of ours, or a framework error the adapter knows better).
 */
export function classify(err: unknown): ServiceError | undefined {
  if (err instanceof ServiceError) return err;
  if (err instanceof TimeoutError) return new ServiceError('timeout', err.message);
  if (err instanceof LimitError) return new ServiceError('limit-exceeded', err.message);
  if (err instanceof RuleError || err instanceof ValidationError) return new ServiceError('rule-error', err.message);
  if (err instanceof UnresolvedRuleError) return new ServiceError('rule-error', `rule ${err.idOrAlias} could not be loaded`);
  return undefined;
}

/** The same failure, its message prefixed with where it happened (`data[3]: ...` in a bulk solve). */
export function prefixed(err: unknown, where: string): unknown {
  const failure = classify(err);
  if (failure === undefined) return err;
  return new ServiceError(failure.code, `${where}: ${failure.message}`, { retryAfter: failure.retryAfter, problems: failure.problems });
}
