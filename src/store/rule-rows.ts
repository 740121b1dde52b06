// Rule versions as rows of the `rules` table, shared by the rule store (kysely-store.ts) and the management store
// (management-store.ts): the indexed columns derived from the document, the upsert, and rows back to records.
import type { Kysely } from 'kysely';
import type { RuleHead, RuleStatus, StoredRule } from './ports.ts';
import type { Database, RulesTable } from './schema.ts';

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** Derives the indexed columns from a rule document, so the two can never disagree. */
export function ruleRow(space: string, document: Record<string, unknown>, now: string): RulesTable {
  const ruleId = document.ruleId;
  const version = document.version;
  if (typeof ruleId !== 'string' || ruleId === '') throw new Error('rule document has no ruleId');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw new Error('rule document has no valid version');
  const tags = Array.isArray(document.tags) ? document.tags.filter((t): t is string => typeof t === 'string') : [];
  const status: RuleStatus = document.status === 'pending' ? 'pending' : 'published';
  return {
    space,
    rule_id: ruleId,
    version,
    alias: typeof document.ruleAlias === 'string' ? document.ruleAlias : '',
    name: typeof document.name === 'string' ? document.name : '',
    type: typeof document.type === 'string' ? document.type : '',
    status,
    locked: document.locked === true ? 1 : 0,
    tags: JSON.stringify(tags),
    document: JSON.stringify(document),
    created_at: typeof document.createdIn === 'string' ? document.createdIn : now,
    updated_at: now,
  };
}

/** Writes one rule version, replacing the stored one of the same (space, ruleId, version) but keeping its created_at. */
export async function upsertRuleRow(db: Kysely<Database>, row: RulesTable): Promise<void> {
  await db
    .insertInto('rules')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['space', 'rule_id', 'version']).doUpdateSet({
        alias: row.alias,
        name: row.name,
        type: row.type,
        status: row.status,
        locked: row.locked,
        tags: row.tags,
        document: row.document,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export function toHead(row: Omit<RulesTable, 'document'>): RuleHead {
  return {
    space: row.space,
    ruleId: row.rule_id,
    version: Number(row.version),
    alias: row.alias,
    name: row.name,
    type: row.type,
    status: row.status === 'pending' ? 'pending' : 'published',
    locked: Number(row.locked) === 1,
    tags: parseJson<string[]>(row.tags) ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toStoredRule(row: RulesTable): StoredRule {
  return { ...toHead(row), document: JSON.parse(row.document) as Record<string, unknown> };
}
