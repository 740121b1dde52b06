// The dispatcher of one instance (docs/decisions/webhooks.md): every WEBHOOKS_POLL_MS it leases the due deliveries
// of the outbox (no other instance gets the same rows), sends them concurrently and records each attempt. A failed
// attempt is retried with exponential backoff (WEBHOOKS_RETRY_BASE_MS doubled per attempt, at most an hour apart)
// until WEBHOOKS_RETRY_HOURS after its event; a webhook failing WEBHOOKS_DISABLE_AFTER attempts in a row is disabled.
// A lease outlives an attempt's time limit, so a row whose instance died mid-send is sent again by another: at least
// once, which the delivery id in every attempt lets receivers deduplicate. Requests never wait for any of this.
// Finished deliveries are kept in the delivery log for DELIVERY_LOG_DAYS, then purged (checked once an hour).
import type { WebhooksConfig } from '../../config.ts';
import type { AttemptOutcome, LeasedDelivery, WebhookStore } from '../../store/ports.ts';
import type { Clock } from '../clock.ts';
import type { ServiceLogger } from '../logger.ts';
import { SecretBox, SecretUnreadableError } from './secret-box.ts';
import type { Sender, SendResult } from './sender.ts';

/** Deliveries leased at once; the next batch is leased at once when a batch was full. */
const BATCH = 20;
const MAX_DELAY_MS = 3_600_000;
/** Days a delivered or failed delivery stays in the log. */
export const DELIVERY_LOG_DAYS = 30;
const PURGE_EVERY_MS = 3_600_000;

/** The delay before attempt `attempts + 1`, after `attempts` failed ones. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
}

export interface DispatcherOptions {
  store: WebhookStore;
  clock: Clock;
  config: WebhooksConfig;
  send: Sender;
  log: ServiceLogger;
  /** Opens the stored secrets; default: none sealed (no secrets key). */
  secrets?: SecretBox;
}

export class WebhookDispatcher {
  readonly #options: DispatcherOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #purgedAt = 0;

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Looks for due deliveries now rather than at the next poll (a test event, a redelivery). */
  wake(): void {
    if (this.#stopped || this.#running) return;
    this.#schedule(0);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#running = this.#loop().finally(() => {
        this.#running = undefined;
        if (!this.#stopped) this.#schedule(this.#options.config.pollMs);
      });
    }, ms);
    this.#timer.unref();
  }

  async #loop(): Promise<void> {
    try {
      while (!this.#stopped && (await this.dispatchOnce()) === BATCH);
      await this.#purge();
    } catch (err) {
      this.#options.log.error({ err }, 'webhook dispatch failed');
    }
  }

  /** Leases one batch of due deliveries, sends them and records the outcomes; answers how many were leased. */
  async dispatchOnce(): Promise<number> {
    const { store, clock, config } = this.#options;
    const now = clock();
    // The lease outlives the attempt's time limit with room for recording it.
    const leased = await store.lease(new Date(now).toISOString(), new Date(now + config.timeoutMs * 2 + 30_000).toISOString(), BATCH);
    await Promise.all(leased.map((d) => this.#attempt(d)));
    return leased.length;
  }

  async #purge(): Promise<void> {
    const now = this.#options.clock();
    if (now - this.#purgedAt < PURGE_EVERY_MS) return;
    this.#purgedAt = now;
    const purged = await this.#options.store.purge(new Date(now - DELIVERY_LOG_DAYS * 86_400_000).toISOString());
    if (purged > 0) this.#options.log.info({ purged }, 'old webhook deliveries purged');
  }

  async #attempt(leased: LeasedDelivery): Promise<void> {
    const { store, clock, config, send, log } = this.#options;
    const { delivery } = leased;
    const giveUpAt = Date.parse(delivery.createdAt) + config.retryHours * 3_600_000;
    if (clock() > giveUpAt) {
      // Waited past its window (its webhook was disabled): too late to be news, and no fault of the receiver.
      const error = `not sent: its ${config.retryHours}-hour retry window ended while the webhook was disabled`;
      await store.finish(delivery.space, delivery.id, { at: new Date(clock()).toISOString(), statusCode: null, error, delivered: false, nextAt: null, disableAfter: config.disableAfter, expired: true });
      return;
    }
    let secret: string;
    try {
      secret = (this.#options.secrets ?? new SecretBox(undefined)).open(leased.secret, delivery.webhookId);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      // A misconfigured instance (no key, or another one): the attempt fails with the reason in the delivery log,
      // and a retry may land on an instance with the right key.
      log.error({ webhook: delivery.webhookId, delivery: delivery.id }, error.message);
      return this.#record(leased, { delivered: false, statusCode: null, error: `not sent: ${error.message}` }, giveUpAt);
    }
    const result = await send({
      url: leased.url,
      secret,
      deliveryId: delivery.id,
      eventType: delivery.eventType,
      body: delivery.payload,
      unixSeconds: Math.floor(clock() / 1000),
    });
    await this.#record(leased, result, giveUpAt);
  }

  /** Records an attempt's outcome: delivered, or failed with the next attempt's time within the retry window. */
  async #record(leased: LeasedDelivery, result: SendResult, giveUpAt: number): Promise<void> {
    const { store, clock, config, log } = this.#options;
    const { delivery } = leased;
    const at = clock();
    let nextAt: string | null = null;
    if (!result.delivered) {
      const next = at + retryDelayMs(delivery.attempts + 1, config.retryBaseMs);
      nextAt = next <= giveUpAt ? new Date(next).toISOString() : null;
    }
    const outcome: AttemptOutcome = {
      at: new Date(at).toISOString(),
      statusCode: result.statusCode,
      error: result.error,
      delivered: result.delivered,
      nextAt,
      disableAfter: config.disableAfter,
    };
    const { disabled } = await store.finish(delivery.space, delivery.id, outcome);
    if (!result.delivered) {
      log.warn({ space: delivery.space, webhook: delivery.webhookId, delivery: delivery.id, attempt: delivery.attempts + 1, error: result.error, retryAt: nextAt }, 'webhook delivery failed');
    }
    if (disabled) log.warn({ space: delivery.space, webhook: delivery.webhookId, failures: config.disableAfter }, 'webhook disabled after repeated failures');
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#running) await this.#running;
  }
}
