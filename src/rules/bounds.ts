// Bounds on the numbers a client chooses and the service must store or compute with (see
// docs/decisions/input-bounds.md). Every channel (rule documents, imports, HTTP paths and headers, Kafka headers,
// the CLI) checks against these, so a value one of them accepts is one every other can reach.

/** Versions are stored in an SQL `integer` column (PostgreSQL int4): 1 ..= 2^31-1. */
export const MAX_VERSION = 2_147_483_647;

/**
 * Audit TTLs are whole days, at most ten years: the expiry (now + TTL) must stay a valid date (a TTL of 1e9 days
 * overflows `Date`), and nobody needs an audit record to outlive the rule it describes by decades.
 */
export const MAX_AUDIT_TTL_DAYS = 3650;

export const VERSION_RANGE = `an integer from 1 to ${MAX_VERSION}`;
export const AUDIT_TTL_RANGE = `a whole number of days from 1 to ${MAX_AUDIT_TTL_DAYS}`;

export function isVersion(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_VERSION;
}

export function isAuditTtlDays(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_AUDIT_TTL_DAYS;
}

/** A version written as decimal digits (a path segment, a header); undefined when it is not a valid version. */
export function versionFromText(text: string): number | undefined {
  if (!/^[0-9]{1,10}$/.test(text)) return undefined;
  const version = Number(text);
  return isVersion(version) ? version : undefined;
}

/** An audit TTL written as decimal digits (a header), surrounding blanks allowed; undefined when out of bounds. */
export function auditTtlFromText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^[0-9]{1,5}$/.test(trimmed)) return undefined;
  const days = Number(trimmed);
  return isAuditTtlDays(days) ? days : undefined;
}
