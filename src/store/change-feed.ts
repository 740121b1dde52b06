// Change feeds tell caches what to drop. Local writes are emitted after commit by the store itself; other
// processes' writes arrive through PostgreSQL LISTEN/NOTIFY, or, on SQLite, through `PRAGMA data_version`
// (which changes when another connection commits). See docs/decisions/service-cache-invalidation.md.
import pg from 'pg';
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

/**
 * One dedicated connection LISTENs for changes. A lost connection (error, end, or a liveness ping that fails)
 * marks the feed not live and emits `all`, so caches empty themselves and stop retaining entries until the
 * listener is back; on reconnect `all` is emitted again for whatever was missed meanwhile.
 */
export class PostgresChangeFeed extends LocalChangeFeed {
  readonly #connectionString: string;
  readonly #log: FeedLogger | undefined;
  readonly #pingIntervalMs: number;
  #client: pg.Client | undefined;
  #closed = false;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #pingTimer: NodeJS.Timeout | undefined;
  #backoffMs = 100;

  constructor(connectionString: string, log?: FeedLogger, pingIntervalMs = 1000) {
    super();
    this.live = false;
    this.#connectionString = connectionString;
    this.#log = log;
    this.#pingIntervalMs = pingIntervalMs;
  }

  /** Resolves once listening; rejects when the first connection fails. */
  async start(): Promise<void> {
    await this.#connect();
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#connectionString, keepAlive: true });
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, undefined));
    client.on('notification', (message) => {
      if (message.channel === NOTIFY_CHANNEL) this.emit(decodeChange(message.payload));
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#backoffMs = 100;
    this.live = true;
    this.emit({ kind: 'all' });
    this.#schedulePing(client);
  }

  #schedulePing(client: pg.Client): void {
    this.#pingTimer = setTimeout(() => {
      let timedOut = false;
      const guard = setTimeout(() => {
        timedOut = true;
        this.#lost(client, new Error('liveness ping timed out'));
      }, this.#pingIntervalMs);
      client.query('SELECT 1').then(
        () => {
          clearTimeout(guard);
          if (!timedOut && this.#client === client) this.#schedulePing(client);
        },
        (err: unknown) => {
          clearTimeout(guard);
          this.#lost(client, err);
        },
      );
    }, this.#pingIntervalMs);
    this.#pingTimer.unref();
  }

  #lost(client: pg.Client, err: unknown): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    clearTimeout(this.#pingTimer);
    this.live = false;
    this.emit({ kind: 'all' });
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#log?.warn({ err: err instanceof Error ? err.message : err }, 'change listener connection lost; compiled-rule cache disabled until it is back');
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const delay = this.#backoffMs;
    this.#backoffMs = Math.min(this.#backoffMs * 2, 2000);
    this.#reconnectTimer = setTimeout(() => {
      this.#connect().then(
        () => this.#log?.info({}, 'change listener reconnected; cache enabled'),
        () => {
          if (!this.#closed) this.#scheduleReconnect();
        },
      );
    }, delay);
    this.#reconnectTimer.unref();
  }

  /** Test seam: drop the listener connection as a network failure would. */
  simulateConnectionLoss(): void {
    if (this.#client) this.#lost(this.#client, new Error('simulated'));
  }

  override async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    clearTimeout(this.#pingTimer);
    const client = this.#client;
    this.#client = undefined;
    this.live = false;
    if (client) await client.end().catch(() => undefined);
  }
}
