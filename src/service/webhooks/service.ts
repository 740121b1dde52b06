// Webhooks of a space (issue 27, docs/webhooks.md): create (the signing secret shown once), list, update, delete,
// a test event, the delivery log with each attempt, and redelivery. Deliveries of real events are written by the
// event's own transaction (the outbox, store/webhook-store.ts); the dispatcher sends them.
import { randomBytes } from 'node:crypto';
import type { WebhooksConfig } from '../../config.ts';
import type { DeliveryAttempt, DeliveryPage, DeliveryRecord, Store, WebhookRecord } from '../../store/ports.ts';
import { EVENT_TYPE_NAMES, InvalidCursorError } from '../../store/ports.ts';
import type { Clock } from '../clock.ts';
import { isoAt } from '../clock.ts';
import { ServiceError } from '../errors.ts';
import type { Actor } from '../keys.ts';
import { SecretBox, SecretUnreadableError } from './secret-box.ts';
import { newSecret } from './signature.ts';
import { urlProblem } from './targets.ts';

/** Webhooks one space may have. */
export const MAX_WEBHOOKS_PER_SPACE = 20;
export const TEST_EVENT_TYPE = 'webhook.test';

/** A webhook as listed: everything but its secret. */
export type WebhookView = Omit<WebhookRecord, 'secret' | 'space'>;

export interface DeliveryView extends Omit<DeliveryRecord, 'payload' | 'space'> {
  /** The event as sent. */
  event: unknown;
}

export interface WebhookInput {
  url?: unknown;
  events?: unknown;
  enabled?: unknown;
}

function view(hook: WebhookRecord): WebhookView {
  const { secret: _secret, space: _space, ...rest } = hook;
  return rest;
}

function deliveryView(d: DeliveryRecord): DeliveryView {
  const { payload, space: _space, ...rest } = d;
  return { ...rest, event: JSON.parse(payload) as unknown };
}

function invalid(message: string): ServiceError {
  return new ServiceError('invalid-webhook', message);
}

function readEvents(value: unknown): string[] {
  const hint = `"events" must be a non-empty array of event types (${EVENT_TYPE_NAMES.join(', ')}) or ["*"] for every event`;
  if (!Array.isArray(value) || value.length === 0 || value.some((e) => typeof e !== 'string')) throw invalid(hint);
  const unknown = (value as string[]).filter((e) => e !== '*' && !EVENT_TYPE_NAMES.includes(e));
  if (unknown.length > 0) throw invalid(`events[${(value as string[]).indexOf(unknown[0]!)}]: "${unknown[0]}" is no event type; ${hint}`);
  return [...new Set(value as string[])];
}

export class WebhookService {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #config: WebhooksConfig;
  readonly #secrets: SecretBox;
  /** Tells the dispatcher that a delivery is due now (set by the services once it exists). */
  onEnqueued: () => void = () => undefined;

  constructor(store: Store, clock: Clock, config: WebhooksConfig, secrets: SecretBox = new SecretBox(undefined)) {
    this.#store = store;
    this.#clock = clock;
    this.#config = config;
    this.#secrets = secrets;
  }

  /**
   * Seals under the current secrets key every stored secret kept as it is (written before the server had a key) or
   * sealed under an earlier key; run at start, so gaining or rotating a key needs no step but a restart. Answers
   * how many were sealed, and which could not be opened (sealed under a key this instance does not have).
   */
  async sealStoredSecrets(): Promise<{ sealed: number; unreadable: string[] }> {
    const outcome = { sealed: 0, unreadable: [] as string[] };
    if (!this.#secrets.encrypts) return outcome;
    for (const { id, secret } of await this.#store.webhooks.secrets()) {
      let resealed: string | undefined;
      try {
        resealed = this.#secrets.resealed(secret, id);
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
        outcome.unreadable.push(id);
        continue;
      }
      if (resealed !== undefined && (await this.#store.webhooks.replaceSecret(id, secret, resealed))) outcome.sealed += 1;
    }
    return outcome;
  }

  #url(value: unknown): string {
    if (typeof value !== 'string' || value.trim() === '') throw invalid('"url" must be the absolute http or https URL that receives the events');
    const url = value.trim();
    const problem = urlProblem(url, this.#config.allow);
    if (problem !== undefined) throw new ServiceError(problem.includes('WEBHOOKS_ALLOW') ? 'webhook-target-refused' : 'invalid-webhook', `"url": ${problem}`);
    return url;
  }

  async #hook(space: string, id: string): Promise<WebhookRecord> {
    const hook = await this.#store.webhooks.get(space, id);
    if (!hook) throw new ServiceError('webhook-not-found', `Webhook "${id}" not found in this space`);
    return hook;
  }

  /** Creates a webhook; the answer carries its secret, never shown again. */
  async create(space: string, input: WebhookInput): Promise<WebhookView & { secret: string }> {
    const url = this.#url(input.url);
    const events = readEvents(input.events);
    if (input.enabled !== undefined && typeof input.enabled !== 'boolean') throw invalid('"enabled" must be true or false');
    if ((await this.#store.webhooks.list(space)).length >= MAX_WEBHOOKS_PER_SPACE) {
      throw new ServiceError('too-many-webhooks', `A space has at most ${MAX_WEBHOOKS_PER_SPACE} webhooks; delete one first`);
    }
    const now = isoAt(this.#clock);
    const id = `wh_${randomBytes(9).toString('base64url')}`;
    const secret = newSecret();
    const hook: WebhookRecord = {
      id,
      space,
      url,
      events,
      secret: this.#secrets.seal(secret, id),
      enabled: input.enabled !== false,
      consecutiveFailures: 0,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.#store.webhooks.insert(hook);
    return { ...view(hook), secret };
  }

  async list(space: string): Promise<WebhookView[]> {
    return (await this.#store.webhooks.list(space)).map(view);
  }

  async get(space: string, id: string): Promise<WebhookView> {
    return view(await this.#hook(space, id));
  }

  /** Changes the URL, the events or whether it is enabled (enabling forgives the failures that disabled it). */
  async update(space: string, id: string, input: WebhookInput): Promise<WebhookView> {
    await this.#hook(space, id);
    const changes: { url?: string; events?: string[]; enabled?: boolean; updatedAt: string } = { updatedAt: isoAt(this.#clock) };
    if (input.url !== undefined) changes.url = this.#url(input.url);
    if (input.events !== undefined) changes.events = readEvents(input.events);
    if (input.enabled !== undefined) {
      if (typeof input.enabled !== 'boolean') throw invalid('"enabled" must be true or false');
      changes.enabled = input.enabled;
    }
    await this.#store.webhooks.update(space, id, changes);
    if (changes.enabled === true) this.onEnqueued();
    return this.get(space, id);
  }

  async delete(space: string, id: string): Promise<void> {
    if (!(await this.#store.webhooks.delete(space, id))) throw new ServiceError('webhook-not-found', `Webhook "${id}" not found in this space`);
  }

  async #enqueue(delivery: DeliveryRecord): Promise<DeliveryView> {
    await this.#store.webhooks.enqueue(delivery);
    this.onEnqueued();
    return deliveryView(delivery);
  }

  #newDelivery(hook: WebhookRecord, event: { id: string; type: string; payload: string }, redeliveryOf: string | null): DeliveryRecord {
    const now = isoAt(this.#clock);
    return {
      id: `dlv_${randomBytes(12).toString('base64url')}`,
      space: hook.space,
      webhookId: hook.id,
      eventId: event.id,
      eventType: event.type,
      payload: event.payload,
      status: 'pending',
      attempts: 0,
      nextAt: now,
      createdAt: now,
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      redeliveryOf,
    };
  }

  /** Sends a `webhook.test` event to this webhook alone (enabled or not is no matter: it is a check of the receiver). */
  async sendTest(space: string, id: string, actor: Actor): Promise<DeliveryView> {
    const hook = await this.#hook(space, id);
    const eventId = `evt_test_${randomBytes(9).toString('base64url')}`;
    const payload = JSON.stringify({ id: eventId, type: TEST_EVENT_TYPE, at: isoAt(this.#clock), space, action: TEST_EVENT_TYPE, actor, rule: null, detail: { webhookId: hook.id } });
    if (!hook.enabled) throw new ServiceError('webhook-disabled', `Webhook "${id}" is disabled${hook.disabledReason ? ` (${hook.disabledReason})` : ''}; enable it first`);
    return this.#enqueue(this.#newDelivery(hook, { id: eventId, type: TEST_EVENT_TYPE, payload }, null));
  }

  /** The delivery log, newest first; of one webhook when `webhookId` is given. */
  async deliveries(space: string, filter: { webhookId?: string; limit: number; cursor?: string }): Promise<{ items: DeliveryView[]; nextCursor: string | null }> {
    if (filter.webhookId !== undefined) await this.#hook(space, filter.webhookId);
    let page: DeliveryPage;
    try {
      page = await this.#store.webhooks.deliveries(space, filter);
    } catch (err) {
      if (err instanceof InvalidCursorError) throw new ServiceError('bad-request', `Query parameter cursor is invalid: ${err.message}`);
      throw err;
    }
    return { items: page.items.map(deliveryView), nextCursor: page.nextCursor };
  }

  /** One delivery of a webhook with each of its attempts. */
  async delivery(space: string, webhookId: string, id: string): Promise<DeliveryView & { attemptLog: DeliveryAttempt[] }> {
    const found = await this.#store.webhooks.delivery(space, id);
    if (!found || found.webhookId !== webhookId) throw new ServiceError('delivery-not-found', `Delivery "${id}" not found in this space`);
    return { ...deliveryView(found), attemptLog: await this.#store.webhooks.attempts(space, id) };
  }

  /** Sends a delivery's event again, as a new delivery (the log keeps the first); the webhook must be enabled. */
  async redeliver(space: string, webhookId: string, deliveryId: string): Promise<DeliveryView> {
    const original = await this.#store.webhooks.delivery(space, deliveryId);
    if (!original || original.webhookId !== webhookId) throw new ServiceError('delivery-not-found', `Delivery "${deliveryId}" not found in this space`);
    const hook = await this.#hook(space, original.webhookId);
    if (!hook.enabled) throw new ServiceError('webhook-disabled', `Webhook "${hook.id}" is disabled${hook.disabledReason ? ` (${hook.disabledReason})` : ''}; enable it first`);
    return this.#enqueue(this.#newDelivery(hook, { id: original.eventId, type: original.eventType, payload: original.payload }, original.id));
  }
}
