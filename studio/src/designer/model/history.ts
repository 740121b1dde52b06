// Undo/redo over whole rule documents. Documents are immutable and share untouched parts, so a snapshot costs
// little. Edits that carry the same coalescing key within `COALESCE_MS` of each other (typing in one field)
// become one undo step.

export const HISTORY_LIMIT = 200;
export const COALESCE_MS = 1000;

export interface History<T> {
  readonly past: readonly T[];
  readonly present: T;
  readonly future: readonly T[];
  /** Key and time of the last recorded edit, for coalescing. */
  readonly lastKey?: string;
  readonly lastTime?: number;
}

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

export interface RecordOptions {
  /** Edits with the same key in quick succession merge into one step (e.g. `expr:r3:c2`). */
  coalesceKey?: string;
  /** Milliseconds; passed in so the stack is deterministic in tests. */
  now?: number;
}

export function record<T>(history: History<T>, next: T, options: RecordOptions = {}): History<T> {
  if (next === history.present) return history;
  const now = options.now ?? Date.now();
  const key = options.coalesceKey;
  const merge =
    key !== undefined &&
    key === history.lastKey &&
    history.lastTime !== undefined &&
    now - history.lastTime <= COALESCE_MS &&
    history.future.length === 0 &&
    history.past.length > 0;
  if (merge) return { past: history.past, present: next, future: [], lastKey: key, lastTime: now };
  const past = [...history.past, history.present];
  if (past.length > HISTORY_LIMIT) past.splice(0, past.length - HISTORY_LIMIT);
  return { past, present: next, future: [], lastKey: key, lastTime: now };
}

export function canUndo<T>(history: History<T>): boolean {
  return history.past.length > 0;
}

export function canRedo<T>(history: History<T>): boolean {
  return history.future.length > 0;
}

export function undo<T>(history: History<T>): History<T> {
  if (history.past.length === 0) return history;
  const previous = history.past[history.past.length - 1]!;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  if (history.future.length === 0) return history;
  const [next, ...rest] = history.future;
  return { past: [...history.past, history.present], present: next!, future: rest };
}

/** Replaces the present without an undo step (the document came from outside: load, save, server). */
export function reset<T>(present: T): History<T> {
  return startHistory(present);
}
