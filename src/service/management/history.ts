// Rule history (docs/decisions/management-rule-history.md): every write to a rule version appends what it did,
// when and by which key, in the write's own transaction (a write and its entry commit together or not at all).
// Read back per rule or per version, newest first.
import type { HistoryAction, HistoryEntry, ManagementTransaction, Store } from '../../store/ports.ts';
import type { Clock } from '../clock.ts';
import { isoAt } from '../clock.ts';
import { COMMAND_LINE_ACTOR } from '../keys.ts';
import type { Actor } from '../keys.ts';
import { findRule, findVersion } from './lookup.ts';

/** Who writes through the command line (`verdict import`, `verdict rule publish`). */
export const CLI_ACTOR = 'cli';

/** One history item as the API lists it. */
export interface HistoryItem {
  version: number;
  at: string;
  action: HistoryAction;
  by: string | null;
}

/**
 * Appends one history entry per version written, all at the same time, and the same actions to the space's
 * activity log (`rule.<action>`), in the write's transaction. `who.actor` absent: the command line.
 */
export async function recordHistory(
  tx: ManagementTransaction,
  ctx: { clock: Clock },
  versions: ReadonlyArray<{ ruleId: string; version: number; alias?: string; name?: string }>,
  action: HistoryAction,
  who: { by?: string | null; actor?: Actor },
): Promise<void> {
  if (versions.length === 0) return;
  const at = isoAt(ctx.clock);
  await tx.appendHistory(versions.map((v): HistoryEntry => ({ ruleId: v.ruleId, version: v.version, at, action, by: who.by ?? null })));
  const actor = who.actor ?? COMMAND_LINE_ACTOR;
  await tx.appendActivity(versions.map((v) => ({
    at,
    actor,
    action: `rule.${action}`,
    rule: { ruleId: v.ruleId, version: v.version, alias: v.alias ?? null, name: v.name ?? null },
  })));
}

// Only the store is needed (not the whole ManagementContext): rules-io records history too, and importing the
// context here would close an import cycle through documents.ts.
export class RuleHistory {
  readonly #ctx: { store: Store };

  constructor(ctx: { store: Store }) {
    this.#ctx = ctx;
  }

  /**
   * The history of a rule (every version) or of one version, newest first. A rule is named by id or alias as
   * everywhere; a rule (or version) that was deleted keeps its history, reachable by its id.
   */
  async list(space: string, idOrAlias: string, version: number | undefined): Promise<{ items: HistoryItem[] }> {
    const entries = await this.#ctx.store.management.read(space, async (tx) => {
      let rule;
      try {
        rule = findRule(await tx.heads(), idOrAlias);
      } catch (err) {
        // Every version deleted: the id still names the history.
        const kept = await tx.history(idOrAlias, version);
        if (kept.length > 0) return kept;
        throw err;
      }
      const found = await tx.history(rule.ruleId, version);
      // A version neither stored nor ever written is unknown, as on every other route. A stored rule written before
      // history was kept has none: an empty list.
      if (found.length === 0 && version !== undefined) findVersion(rule, version);
      return found;
    });
    return { items: entries.map((e) => ({ version: e.version, at: e.at, action: e.action, by: e.by })) };
  }
}
