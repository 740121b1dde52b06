// Appending rule history entries (docs/decisions/management-rule-history.md): every write to a rule version, from
// the management API or the command line, records what it did, when and by whom, in the write's own transaction.
// Apart from the management use cases so that `verdict import` (rules-io.ts) records through the same function.
import type { HistoryAction, HistoryEntry, ManagementTransaction } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';

/** Who writes through the command line (`verdict import`, `verdict rule publish`). */
export const CLI_ACTOR = 'cli';

/** Appends one entry per version written, all at the same time. */
export async function recordHistory(
  tx: ManagementTransaction,
  ctx: { clock: Clock },
  versions: ReadonlyArray<{ ruleId: string; version: number }>,
  action: HistoryAction,
  by: string | null | undefined,
): Promise<void> {
  if (versions.length === 0) return;
  const at = isoAt(ctx.clock);
  await tx.appendHistory(versions.map((v): HistoryEntry => ({ ruleId: v.ruleId, version: v.version, at, action, by: by ?? null })));
}
