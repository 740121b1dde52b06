// Approvals, four eyes (docs/decisions/approvals.md): with the space setting `approvals` on, a version is published
// only after a user other than its last editor approved its content. An approval is bound to the content it saw
// (contentTag), so an edit after it needs a new one. Publishing checks it inside the publishing transaction.
import { createHash } from 'node:crypto';
import type { ActivityActor, ManagementTransaction, ReviewRecord } from '../../store/ports.ts';
import { isoAt } from '../clock.ts';
import { ServiceError } from '../errors.ts';
import type { Actor } from '../keys.ts';
import type { ManagementContext } from './context.ts';
import { badRequest } from './errors.ts';
import { checkIfMatch, etagOf } from './etag.ts';
import { documentOf, findRule, findVersion } from './lookup.ts';

/** The activity actions that change a version's content: their newest actor is its "last editor". */
export const EDIT_ACTIONS = ['rule.create', 'rule.update', 'rule.new-version', 'rule.import'] as const;

/** Fields that change without changing what the version computes or says. */
const VOLATILE = new Set(['status', 'lastUpdate', 'locked', 'tags', 'createdIn']);

/** A digest of a version's content: the document without its status, lock, tags and times. */
export function contentTag(document: Record<string, unknown>): string {
  const content = Object.fromEntries(Object.entries(document).filter(([key]) => !VOLATILE.has(key)));
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 27);
}

export interface ReviewState {
  state: 'none' | ReviewRecord['state'];
  /** False when the content changed since the review's state was set (an approval of older content holds nothing). */
  current: boolean;
  requestedBy: ActivityActor | null;
  requestedAt: string | null;
  decidedBy: ActivityActor | null;
  decidedAt: string | null;
  comment: string | null;
  lastEditor: ActivityActor | null;
  /** The version's ETag as read here: a decision sent with it as If-Match is of exactly this content. */
  etag: string;
}

function sameActor(a: ActivityActor | null | undefined, b: ActivityActor): boolean {
  return a !== null && a !== undefined && a.kind === b.kind && a.id === b.id;
}

/**
 * Refuses to publish a version of `ruleId` with `document` as content unless the space does not require approvals
 * or the version's review approved exactly this content. Call inside the publishing transaction.
 */
export async function assertApproved(tx: ManagementTransaction, target: { ruleId: string; version: number } | undefined, document: Record<string, unknown>): Promise<void> {
  if (!(await tx.settings()).approvals) return;
  const review = target === undefined ? undefined : await tx.review(target.ruleId, target.version);
  if (review?.state === 'approved' && review.contentTag === contentTag(document)) return;
  const which = target === undefined ? 'A new version' : `Version ${target.version} of rule ${target.ruleId}`;
  const why = target === undefined
    ? 'create it with "status": "pending", then request a review'
    : review?.state === 'approved'
      ? 'its content changed after it was approved; request a new review'
      : 'request a review (POST /api/rule/review/{idOrAlias}/{version}/request) and have another user approve it';
  throw new ServiceError('approval-required', `${which} needs an approval by a user other than its last editor before it is published (space setting approvals): ${why}`);
}

export class RuleReviews {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
    this.#ctx = ctx;
  }

  async get(space: string, idOrAlias: string, version: number | undefined): Promise<ReviewState> {
    return this.#ctx.store.management.read(space, async (tx) => {
      const head = findVersion(findRule(await tx.heads(), idOrAlias), version);
      const stored = await documentOf(tx, head);
      const review = await tx.review(head.ruleId, head.version);
      const lastEditor = (await tx.lastActor(head.ruleId, head.version, EDIT_ACTIONS)) ?? null;
      return {
        state: review?.state ?? 'none',
        current: review === undefined || review.contentTag === contentTag(stored.document),
        requestedBy: review?.requestedBy ?? null,
        requestedAt: review?.requestedAt ?? null,
        decidedBy: review?.decidedBy ?? null,
        decidedAt: review?.decidedAt ?? null,
        comment: review?.comment ?? null,
        lastEditor,
        etag: etagOf(stored),
      };
    });
  }

  /**
   * Asks for a review of the version's current content. `ifMatch` (each decision takes it): the ETag of the version
   * as the caller saw it; a version changed since is refused (412), so nobody approves content they never saw.
   */
  request(space: string, idOrAlias: string, version: number | undefined, actor: Actor, comment: string | undefined, ifMatch?: string): Promise<ReviewState> {
    return this.#decide(space, idOrAlias, version, actor, 'requested', comment, ifMatch);
  }

  /** Approves the version's current content; the version's last editor may not (own-approval). */
  approve(space: string, idOrAlias: string, version: number | undefined, actor: Actor, comment: string | undefined, ifMatch?: string): Promise<ReviewState> {
    return this.#decide(space, idOrAlias, version, actor, 'approved', comment, ifMatch);
  }

  reject(space: string, idOrAlias: string, version: number | undefined, actor: Actor, comment: string | undefined, ifMatch?: string): Promise<ReviewState> {
    if (comment === undefined || comment.trim() === '') throw badRequest('A rejection needs a comment saying what to change: {"comment": "..."}');
    return this.#decide(space, idOrAlias, version, actor, 'rejected', comment, ifMatch);
  }

  async #decide(space: string, idOrAlias: string, version: number | undefined, actor: Actor, state: ReviewRecord['state'], comment: string | undefined, ifMatch: string | undefined): Promise<ReviewState> {
    const head = await this.#ctx.store.management.transaction(space, async (tx) => {
      const found = findVersion(findRule(await tx.heads(), idOrAlias), version);
      const stored = await documentOf(tx, found);
      checkIfMatch(ifMatch, stored);
      const previous = await tx.review(found.ruleId, found.version);
      const at = isoAt(this.#ctx.clock);
      if (state !== 'requested') {
        if (actor.kind !== 'user') {
          throw new ServiceError('forbidden', 'Approvals are made by people: sign in as a user to approve or reject (a key or token has no second pair of eyes)');
        }
        const lastEditor = await tx.lastActor(found.ruleId, found.version, EDIT_ACTIONS);
        if (state === 'approved' && sameActor(lastEditor, actor)) {
          throw new ServiceError('own-approval', `You (${actor.name}) were the last to edit version ${found.version} of ${found.alias || found.ruleId}; another user must approve it`);
        }
      }
      const requested = state === 'requested';
      await tx.putReview({
        ruleId: found.ruleId,
        version: found.version,
        state,
        contentTag: contentTag(stored.document),
        requestedBy: requested ? actor : previous?.requestedBy ?? null,
        requestedAt: requested ? at : previous?.requestedAt ?? null,
        decidedBy: requested ? null : actor,
        decidedAt: requested ? null : at,
        comment: comment?.trim() || null,
      });
      await tx.appendActivity([{
        at,
        actor,
        action: `review.${state === 'requested' ? 'request' : state === 'approved' ? 'approve' : 'reject'}`,
        rule: { ruleId: found.ruleId, version: found.version, alias: found.alias, name: found.name },
        ...(comment?.trim() ? { detail: { comment: comment.trim() } } : {}),
      }]);
      return found;
    });
    return this.get(space, head.ruleId, head.version);
  }
}
