// Query parameters of the newest-first listings (audit records, the activity log): a time bound, a page size, and
// the store's opaque cursor, each refused with a 400 that names the parameter.
import { InvalidCursorError } from '../store/ports.ts';
import { HttpError } from './errors.ts';

/** An ISO-8601 date or date-time query parameter as an ISO instant; undefined when absent. */
export function instantParam(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new HttpError(400, `Query parameter ${name} must be an ISO-8601 date or date-time, got "${value}"`);
  return new Date(ms).toISOString();
}

/** The `limit` query parameter (already checked to be digits by the route's schema), within 1..max. */
export function limitParam(value: string | undefined, fallback: number, max: number): number {
  const limit = value === undefined ? fallback : Number(value);
  if (limit < 1 || limit > max) throw new HttpError(400, `Query parameter limit must be an integer from 1 to ${max}`);
  return limit;
}

/** The schema of the `limit` query parameter. */
export function limitSchema(fallback: number, max: number) {
  return {
    type: 'string',
    pattern: '^[0-9]{1,4}$',
    'x-message': `Query parameter limit must be an integer from 1 to ${max}`,
    description: `Page size, 1-${max}, default ${fallback}`,
  } as const;
}

/** Runs a listing; a cursor no listing returned is a 400 naming the parameter. */
export async function withCursor<T>(list: () => Promise<T>): Promise<T> {
  try {
    return await list();
  } catch (err) {
    if (err instanceof InvalidCursorError) throw new HttpError(400, `Query parameter cursor is invalid: ${err.message}`);
    throw err;
  }
}
