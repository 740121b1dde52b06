// Rule history (docs/decisions/management-rule-history.md), read back per rule or per version, newest first. Writes
// record it with recordHistory (service/rule-history.ts) in their own transaction.
import type { HistoryAction } from '../../store/ports.ts';
import type { ManagementContext } from './context.ts';
import { findRule, findVersion } from './lookup.ts';

export { CLI_ACTOR, recordHistory } from '../rule-history.ts';

/** One history item as the API lists it. */
export interface HistoryItem {
  version: number;
  at: string;
  action: HistoryAction;
  by: string | null;
}

export class RuleHistory {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
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
