// Change feeds tell caches what to drop. Local writes are emitted after commit by the store itself; other
// processes' writes arrive through PostgreSQL LISTEN/NOTIFY, or, on SQLite, through `PRAGMA data_version`
// (which changes when another connection commits); the PostgreSQL listener is in postgres-change-feed.ts. See
// docs/decisions/service-cache-invalidation.md.
import type BetterSqlite3 from 'better-sqlite3';
import type { ChangeEvent, ChangeFeed } from './ports.ts';

export const NOTIFY_CHANNEL = 'verdict_changes';

export interface FeedLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export class LocalChangeFeed implements ChangeFeed {
  #listeners = new Set<(event: ChangeEvent) => void>();
  live = true;

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: ChangeEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export function encodeChange(event: ChangeEvent): string {
  return JSON.stringify(event);
}

export function decodeChange(payload: string | undefined): ChangeEvent {
  try {
    const value = JSON.parse(payload ?? '') as Partial<Record<string, unknown>>;
    if (value.kind === 'rule' && typeof value.space === 'string' && typeof value.ruleId === 'string') {
      return { kind: 'rule', space: value.space, ruleId: value.ruleId };
    }
    if (value.kind === 'key' && typeof value.space === 'string') return { kind: 'key', space: value.space };
  } catch {
    // An unreadable notification still means something changed.
  }
  return { kind: 'all' };
}

/** Polls SQLite's data_version: cheap (no I/O beyond a shared-memory read in WAL mode), catches CLI writes. */
export class SqliteChangeFeed extends LocalChangeFeed {
  #timer: NodeJS.Timeout;
  #version: number;

  constructor(database: BetterSqlite3.Database, intervalMs = 250) {
    super();
    this.#version = database.pragma('data_version', { simple: true }) as number;
    this.#timer = setInterval(() => {
      let version: number;
      try {
        version = database.pragma('data_version', { simple: true }) as number;
      } catch {
        return; // closed
      }
      if (version !== this.#version) {
        this.#version = version;
        this.emit({ kind: 'all' });
      }
    }, intervalMs);
    this.#timer.unref();
  }

  override close(): Promise<void> {
    clearInterval(this.#timer);
    return Promise.resolve();
  }
}
