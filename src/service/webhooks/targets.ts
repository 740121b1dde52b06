// Where webhooks may send (SSRF, docs/decisions/webhooks.md): any public http(s) address; loopback, private,
// link-local (cloud metadata) and other special ranges only when WEBHOOKS_ALLOW names the host (the syntax and the
// matcher of HTTP_FUNCTIONS_ALLOW). The URL's text is checked when a webhook is saved, and every address its host
// resolves to when a delivery connects (sender.ts passes `guardedLookup` to the socket), so a name that resolves to a
// private address, or starts to later, is refused too.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { hostAllowed } from '../http-client.ts';

const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** True for an address in loopback, private, link-local, shared, multicast or reserved ranges (IPv4-mapped too). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  return INTERNAL.check(address, 'ipv6');
}

function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Whether WEBHOOKS_ALLOW lets `url` reach `address`: the URL's host is listed, or the address itself (with the port). */
function allowed(url: URL, address: string, allow: readonly string[]): boolean {
  if (hostAllowed(url, allow)) return true;
  const literal = new URL(url.href);
  literal.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return hostAllowed(literal, allow);
}

/** Why `text` cannot be a webhook's URL, judged on its text alone; undefined when it can. */
export function urlProblem(text: string, allow: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https URLs can receive webhooks, not ${url.protocol}`;
  if (url.username !== '' || url.password !== '') return 'the URL must not carry a user name or password (they would show in listings and logs); authenticate the signature instead';
  if (text.length > 2048) return 'the URL is longer than 2048 characters';
  const host = bare(url.hostname).toLowerCase();
  const internalName = host === 'localhost' || host.endsWith('.localhost');
  if ((internalName || isInternalAddress(host)) && !allowed(url, internalName ? '127.0.0.1' : host, allow)) {
    return `${url.host} is in a loopback or private range; an operator can add it to WEBHOOKS_ALLOW`;
  }
  return undefined;
}

/** Thrown by the guarded lookup: the host resolved to an address webhooks may not reach. */
export class RefusedTargetError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, in a loopback or private range; an operator can add it to WEBHOOKS_ALLOW`);
    this.name = 'RefusedTargetError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves as usual and fails when any resolved address is internal and not
 * allowed: the socket connects only to an address that was checked.
 */
export function guardedLookup(url: URL, allow: readonly string[]) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, '');
        return;
      }
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => isInternalAddress(a.address) && !allowed(url, a.address, allow));
      if (refused) {
        callback(new RefusedTargetError(hostname, refused.address), '');
        return;
      }
      if (options.all === true) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** The refusal of an IP-literal URL (the socket does no lookup for those), checked at send time too. */
export function literalRefusal(url: URL, allow: readonly string[]): string | undefined {
  const host = bare(url.hostname);
  if (isIP(host) === 0) return undefined;
  return isInternalAddress(host) && !allowed(url, host, allow) ? `${url.host} is in a loopback or private range; an operator can add it to WEBHOOKS_ALLOW` : undefined;
}
