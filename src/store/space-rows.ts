// A space's row as the stores read it.
import type { SpaceSettings } from './ports.ts';

/** A space's settings from its row (the space store and the management transactions read them). */
export function spaceSettings(row: { live_edits: string; approvals: number }): SpaceSettings {
  return { liveEdits: row.live_edits === 'forbidden' ? 'forbidden' : 'allowed', approvals: Number(row.approvals) === 1 };
}
