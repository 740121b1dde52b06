// Reviews of rule versions (docs/decisions/approvals.md), read and written inside management transactions so that
// publishing checks the approval in the same transaction that publishes.
import type { Kysely } from 'kysely';
import type { ActivityActor, ReviewRecord } from './ports.ts';

export interface RuleReviewsTable {
  space: string;
  rule_id: string;
  version: number;
  state: string;
  content_tag: string;
  requested_by: string | null;
  requested_at: string | null;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
}

export interface ReviewDb {
  rule_reviews: RuleReviewsTable;
}

function actor(text: string | null): ActivityActor | null {
  return text === null ? null : (JSON.parse(text) as ActivityActor);
}

export async function readReview(db: Kysely<ReviewDb>, space: string, ruleId: string, version: number): Promise<ReviewRecord | undefined> {
  const row = await db.selectFrom('rule_reviews').selectAll().where('space', '=', space).where('rule_id', '=', ruleId).where('version', '=', version).executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    ruleId: row.rule_id,
    version: Number(row.version),
    state: row.state as ReviewRecord['state'],
    contentTag: row.content_tag,
    requestedBy: actor(row.requested_by),
    requestedAt: row.requested_at,
    decidedBy: actor(row.decided_by),
    decidedAt: row.decided_at,
    comment: row.comment,
  };
}

export async function writeReview(db: Kysely<ReviewDb>, space: string, review: ReviewRecord): Promise<void> {
  const row: RuleReviewsTable = {
    space,
    rule_id: review.ruleId,
    version: review.version,
    state: review.state,
    content_tag: review.contentTag,
    requested_by: review.requestedBy === null ? null : JSON.stringify(review.requestedBy),
    requested_at: review.requestedAt,
    decided_by: review.decidedBy === null ? null : JSON.stringify(review.decidedBy),
    decided_at: review.decidedAt,
    comment: review.comment,
  };
  await db.deleteFrom('rule_reviews').where('space', '=', space).where('rule_id', '=', review.ruleId).where('version', '=', review.version).execute();
  await db.insertInto('rule_reviews').values(row).execute();
}
