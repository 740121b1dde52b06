// The PostgreSQL change feed: a LISTEN connection for other processes' writes (change-feed.ts has the feeds every
// store uses). Its own module so that only a PostgreSQL store loads pg.
import pg from 'pg';
import { decodeChange, LocalChangeFeed, NOTIFY_CHANNEL } from './change-feed.ts';
import type { FeedLogger } from './change-feed.ts';

/**
 * One dedicated connection LISTENs for changes. A lost connection (error, end, or a liveness ping that fails)
 * marks the feed not live and emits `all`, so caches empty themselves and stop retaining entries until the
 * listener is back; on reconnect `all` is emitted again for whatever was missed meanwhile.
 */
export class PostgresChangeFeed extends LocalChangeFeed {
  readonly #connectionString: string;
  readonly #log: FeedLogger | undefined;
  readonly #pingIntervalMs: number;
  readonly #pingTimeoutMs: number;
  #client: pg.Client | undefined;
  #closed = false;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #pingTimer: NodeJS.Timeout | undefined;
  #backoffMs = 100;

  /**
   * A ping goes out `pingIntervalMs` after the last answer; one unanswered for `pingTimeoutMs` is a lost connection.
   * The timeout is well above a busy server's answer time: a false loss is safe (caches empty, nothing is stale)
   * but costs every compiled rule of the process.
   */
  constructor(connectionString: string, log?: FeedLogger, pingIntervalMs = 1000, pingTimeoutMs = 5000) {
    super();
    this.live = false;
    this.#connectionString = connectionString;
    this.#log = log;
    this.#pingIntervalMs = pingIntervalMs;
    this.#pingTimeoutMs = pingTimeoutMs;
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
      let answered = false;
      let timedOut = false;
      const guard = setTimeout(() => {
        // When this process's event loop was blocked past the timeout (a large rule compiling), the answer may be
        // waiting on the socket: timers run before sockets are read, so decide only after the next read
        // (setImmediate runs after the poll phase), and a blocked loop is not taken for a lost connection.
        setImmediate(() => {
          if (answered) return;
          timedOut = true;
          this.#lost(client, new Error('liveness ping timed out'));
        });
      }, this.#pingTimeoutMs);
      client.query('SELECT 1').then(
        () => {
          answered = true;
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
