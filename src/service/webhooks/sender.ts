// One attempt of a delivery: a POST of the event's JSON, signed, to the webhook's URL, within a time limit, to an
// address the target rules allow (targets.ts). Redirects are not followed (a redirect is the classic way around an
// allowlist) and count as a failure; the answer's body is read up to a small bound and dropped.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signature } from './signature.ts';
import { guardedLookup, literalRefusal, RefusedTargetError } from './targets.ts';

export interface SendRequest {
  url: string;
  secret: string;
  deliveryId: string;
  eventType: string;
  body: string;
  /** Unix seconds to sign with. */
  unixSeconds: number;
}

/** The receiver's status (null when there was none) and, on failure, what went wrong. */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
  delivered: boolean;
}

export interface SenderOptions {
  allow: readonly string[];
  timeoutMs: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export type Sender = (request: SendRequest) => Promise<SendResult>;

export function httpSender(options: SenderOptions): Sender {
  return (req) => new Promise<SendResult>((resolve) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      resolve({ statusCode: null, error: `"${req.url}" is not an absolute URL`, delivered: false });
      return;
    }
    const refusal = literalRefusal(url, options.allow);
    if (refusal !== undefined) {
      resolve({ statusCode: null, error: refusal, delivered: false });
      return;
    }
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    // The whole attempt, connection to answer, within the limit: the request is aborted at the deadline.
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let outgoing: ClientRequest;
    try {
      outgoing = send(url, {
        method: 'POST',
        signal: deadline,
        lookup: guardedLookup(url, options.allow) as never,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(req.body),
          'user-agent': 'Verdict-Webhooks/1',
          [SIGNATURE_HEADER]: signature(req.secret, req.unixSeconds, req.body),
          [EVENT_HEADER]: req.eventType,
          [DELIVERY_HEADER]: req.deliveryId,
        },
      }, (answer: IncomingMessage) => {
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) answer.destroy();
        });
        const done = () => {
          const status = answer.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          finish({ statusCode: status, error: ok ? null : `the receiver answered HTTP ${status}`, delivered: ok });
        };
        answer.on('end', done);
        answer.on('close', done);
        answer.on('error', done);
      });
    } catch (err) {
      finish({ statusCode: null, error: err instanceof Error ? err.message : String(err), delivered: false });
      return;
    }
    outgoing.on('error', (err: Error) => {
      const message = deadline.aborted
        ? `no answer within ${options.timeoutMs} ms (WEBHOOKS_TIMEOUT_MS)`
        : err instanceof RefusedTargetError ? err.message : `could not reach ${url.host}: ${err.message}`;
      finish({ statusCode: null, error: message, delivered: false });
    });
    outgoing.end(req.body);
  });
}
