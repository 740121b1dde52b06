// The signature of a webhook delivery, as Stripe signs: `X-Verdict-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
// of "<t>.<raw body>" keyed by the webhook's secret>`. The time is signed with the body, so a receiver that rejects
// old timestamps cannot be replayed an old delivery (docs/webhooks.md shows the check).
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-verdict-signature';
export const EVENT_HEADER = 'x-verdict-event';
export const DELIVERY_HEADER = 'x-verdict-delivery';

/** A new signing secret: shown once when the webhook is created. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The header value for `body` sent at `unixSeconds`. */
export function signature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
