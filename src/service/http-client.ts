// Outbound HTTP for HTTP_* functions, DR.http and HTTP nodes. Only hosts listed in HTTP_FUNCTIONS_ALLOW may be
// called (none by default), redirects are followed only within the same host (a redirect is the classic way
// around an allowlist), and request size, response size, redirect count and time are bounded (rule-format §4.9.7).
import type { HttpFunctionsConfig } from '../config.ts';
import { RuleError } from '../engine/errors.ts';
import type { HttpClient, HttpRequest, HttpResponse } from '../engine/types.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** True when `url`'s host matches an allowlist entry: `host` (any port), `host:port`, or `*.domain`. */
export function hostAllowed(url: URL, allow: readonly string[]): boolean {
  const hostname = url.hostname.toLowerCase();
  const port = url.port || defaultPort(url.protocol);
  for (const entry of allow) {
    const colon = entry.lastIndexOf(':');
    const hasPort = colon > 0 && !entry.endsWith(']') && /^\d+$/.test(entry.slice(colon + 1));
    const host = hasPort ? entry.slice(0, colon) : entry;
    if (hasPort && entry.slice(colon + 1) !== port) continue;
    if (host.startsWith('*.')) {
      if (hostname.endsWith(host.slice(1)) && hostname.length > host.length - 1) return true;
    } else if (hostname === host) {
      return true;
    }
  }
  return false;
}

async function readLimited(response: Response, limit: number, host: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new RuleError(`HTTP response from ${host} exceeds the limit of ${limit} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new RuleError(`HTTP response from ${host} exceeds the limit of ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class AllowlistHttpClient implements HttpClient {
  readonly #config: HttpFunctionsConfig;
  readonly #fetch: typeof fetch;

  constructor(config: HttpFunctionsConfig, fetchImpl: typeof fetch = fetch) {
    this.#config = config;
    this.#fetch = fetchImpl;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new RuleError(`HTTP call: "${req.url}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RuleError(`HTTP call: only http and https URLs may be called, not ${url.protocol}`);
    }
    if (!hostAllowed(url, this.#config.allow)) {
      throw new RuleError(`HTTP call to host "${url.host}" is not allowed; an operator can add it to HTTP_FUNCTIONS_ALLOW`);
    }
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    let body: string | undefined;
    if (req.body !== undefined && req.method !== 'GET' && req.method !== 'DELETE') {
      body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      if (Buffer.byteLength(body) > this.#config.maxRequestBytes) {
        throw new RuleError(`HTTP request body to ${url.host} exceeds the limit of ${this.#config.maxRequestBytes} bytes`);
      }
    }
    let method: string = req.method;
    const signal = AbortSignal.timeout(this.#config.timeoutMs);
    const origin = url.host;
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await this.#fetch(url, { method, headers, body, redirect: 'manual', signal });
        const location = response.headers.get('location');
        if (REDIRECTS.has(response.status) && location !== null) {
          await response.body?.cancel();
          if (redirects >= this.#config.maxRedirects) {
            throw new RuleError(`HTTP call to ${origin} was redirected more than ${this.#config.maxRedirects} times`);
          }
          const next = new URL(location, url);
          if (next.host !== origin || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
            throw new RuleError(`HTTP call to ${origin} was redirected to another host (${next.host}); refused`);
          }
          if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
          }
          url = next;
          continue;
        }
        const text = await readLimited(response, this.#config.maxResponseBytes, origin);
        let parsed: unknown = text;
        if (text !== '') {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        }
        return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: parsed };
      }
    } catch (err) {
      if (err instanceof RuleError) throw err;
      if (signal.aborted) throw new RuleError(`HTTP call to ${origin} took longer than ${this.#config.timeoutMs} ms`);
      throw new RuleError(`HTTP call to ${origin} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
