// The webhook routes (src/http/plugins/management/webhooks.ts, permission space:admin), typed as the service
// answers them; every call goes through ApiClient.
import type { ApiClient } from '../api/client.ts';
import type { DeliveryAttempt, DeliveryRecord, WebhookRecord } from '../../../src/store/ports.ts';

/** A webhook as listed: without its secret. */
export type Webhook = Omit<WebhookRecord, 'secret' | 'space'>;

/** One delivery of the log, with the event as sent. */
export interface Delivery extends Omit<DeliveryRecord, 'payload' | 'space'> {
  event: { id: string; type: string; at: string; [name: string]: unknown };
}

export interface CreatedWebhook extends Webhook {
  /** The signing secret: answered once. */
  secret: string;
}

export interface DeliveryPage {
  items: Delivery[];
  nextCursor: string | null;
}

const enc = encodeURIComponent;

export const webhooksApi = {
  list: (api: ApiClient) => api.call<{ items: Webhook[] }>('GET', '/api/space/webhooks'),
  create: (api: ApiClient, url: string, events: string[]) => api.call<CreatedWebhook>('POST', '/api/space/webhooks', { url, events }),
  update: (api: ApiClient, id: string, changes: { url?: string; events?: string[]; enabled?: boolean }) =>
    api.call<Webhook>('PATCH', `/api/space/webhooks/${enc(id)}`, changes),
  remove: (api: ApiClient, id: string) => api.call<{ id: string; deleted: boolean }>('DELETE', `/api/space/webhooks/${enc(id)}`),
  test: (api: ApiClient, id: string) => api.call<Delivery>('POST', `/api/space/webhooks/${enc(id)}/test`),
  deliveries: (api: ApiClient, id: string, cursor?: string) =>
    api.call<DeliveryPage>('GET', `/api/space/webhooks/${enc(id)}/deliveries?limit=25${cursor ? `&cursor=${enc(cursor)}` : ''}`),
  delivery: (api: ApiClient, id: string, deliveryId: string) =>
    api.call<Delivery & { attemptLog: DeliveryAttempt[] }>('GET', `/api/space/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}`),
  redeliver: (api: ApiClient, id: string, deliveryId: string) =>
    api.call<Delivery>('POST', `/api/space/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}/redeliver`),
};

/** What a delivery's last attempt came to, in words. */
export function responseText(d: Pick<Delivery, 'lastStatusCode' | 'lastError' | 'attempts'>): string {
  if (d.attempts === 0) return 'not sent yet';
  if (d.lastStatusCode !== null) return `HTTP ${d.lastStatusCode}`;
  return d.lastError ?? 'no answer';
}
