// Reviews of a rule version (four eyes, issue 32): its state, Request review (rules:edit), Approve and Reject
// (rules:approve; the version's last editor is refused with 409 own-approval). With the space setting `approvals`
// on, the server refuses to publish a version whose current content has no approval (409 approval-required).
import type { Actor } from '../api/auth.ts';
import type { ApiClient } from '../api/client.ts';
import type { ReviewState as Review } from '../../../src/service/management/reviews.ts';

/** The wire shape is the service's own. */
export type { Review };

/** Whether the version may be published: approved, and its content unchanged since. */
export function approved(review: Review | null): boolean {
  return review?.state === 'approved' && review.current;
}

const enc = encodeURIComponent;
const ifMatch = (etag: string | null): Record<string, string> => (etag ? { 'if-match': etag } : {});
const path = (idOrAlias: string, version: number) => `/api/rule/review/${enc(idOrAlias)}/${version}`;

export const reviewApi = {
  get: (api: ApiClient, idOrAlias: string, version: number) => api.call<Review>('GET', path(idOrAlias, version)),
  request: (api: ApiClient, idOrAlias: string, version: number, comment?: string) =>
    api.call<Review>('POST', `${path(idOrAlias, version)}/request`, comment ? { comment } : {}),
  /** `etag`: the version as the reviewer saw it; the server refuses (412) a decision on content changed since. */
  approve: (api: ApiClient, idOrAlias: string, version: number, etag: string | null, comment?: string) =>
    api.call<Review>('POST', `${path(idOrAlias, version)}/approve`, comment ? { comment } : {}, ifMatch(etag)),
  reject: (api: ApiClient, idOrAlias: string, version: number, etag: string | null, comment: string) =>
    api.call<Review>('POST', `${path(idOrAlias, version)}/reject`, { comment }, ifMatch(etag)),
};

/** Who, in words: a user by name, a key or token named as such. */
export function actorText(actor: Actor | null): string {
  if (!actor) return 'someone';
  if (actor.kind === 'cli') return 'the command line';
  return actor.kind === 'user' ? actor.name : `${actor.kind} ${actor.name}`;
}
