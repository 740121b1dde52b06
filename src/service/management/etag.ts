// Entity tags of rule versions, for optimistic concurrency (docs/decisions/management-etag-if-match.md): a client
// reads a version with its ETag and sends it back in If-Match; a write whose tag no longer matches is refused
// instead of overwriting a change the client never saw. The tag is derived from what the store holds for the
// version (its last-change time and its document), so every write to the version changes it, in every instance,
// with no counter to keep.
import { createHash } from 'node:crypto';
import type { StoredRule } from '../../store/ports.ts';
import { ServiceError } from '../errors.ts';
import { badRequest } from './errors.ts';

/** The strong ETag of a stored rule version, quoted as the header carries it. */
export function etagOf(rule: Pick<StoredRule, 'updatedAt' | 'document'>): string {
  const digest = createHash('sha256').update(rule.updatedAt).update('\u0000').update(JSON.stringify(rule.document)).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

const ENTITY_TAG = /(W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g;

/** The entity tags of an If-Match header, or '*'; a header that is neither is a 400 naming the form. */
export function parseIfMatch(header: string): '*' | Array<{ weak: boolean; tag: string }> {
  const text = header.trim();
  if (text === '*') return '*';
  const tags = [...text.matchAll(ENTITY_TAG)].map((m) => ({ weak: m[1] !== undefined, tag: m[0].slice(m[1]?.length ?? 0) }));
  const rest = text.replace(ENTITY_TAG, '').replace(/[\s,]/g, '');
  if (tags.length === 0 || rest !== '') {
    throw badRequest(`Header If-Match must be * or the ETag of the version as a GET answered it, in quotes (e.g. If-Match: "${'x'.repeat(8)}"); got ${header}`);
  }
  return tags;
}

/**
 * Throws ServiceError 'stale-version' (HTTP 412, with the current tag) unless `ifMatch` (the header as sent; undefined: no precondition) matches the stored
 * version. Comparison is strong (RFC 9110 13.1.1): a weak tag never matches.
 */
export function checkIfMatch(ifMatch: string | undefined, current: StoredRule): void {
  if (ifMatch === undefined) return;
  const wanted = parseIfMatch(ifMatch);
  if (wanted === '*') return;
  const etag = etagOf(current);
  if (wanted.some((w) => !w.weak && w.tag === etag)) return;
  throw new ServiceError(
    'stale-version',
    `Rule ${current.alias || current.ruleId} version ${current.version} was changed since you read it (If-Match ${ifMatch.trim()}, current ${etag})`,
    { etag },
  );
}
