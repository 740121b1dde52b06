// A token issuer made in the test: a key pair whose public half a small HTTP server publishes as a JWKS. It signs
// the tokens a real provider cannot be made to issue on demand (expired, not yet valid, unsigned, HMAC-signed).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWTPayload } from 'jose';

export interface LocalIssuer {
  issuer: string;
  jwksUri: string;
  /** Signs with the published key (kid local-1), or with `key` and `header` when given. */
  sign(claims: JWTPayload, key?: CryptoKey | Uint8Array, header?: { alg: string; kid?: string }): Promise<string>;
  close(): Promise<void>;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export async function startLocalIssuer(): Promise<LocalIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'local-1', alg: 'RS256', use: 'sig' };
  const server = createServer((request, response) => {
    if (request.url === '/local/jwks') response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer: `${base}/local`,
    jwksUri: `${base}/local/jwks`,
    sign: (claims, key = privateKey, header = { alg: 'RS256', kid: 'local-1' }) => new SignJWT(claims).setProtectedHeader(header).sign(key),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A token with `alg: none` and an empty signature. */
export function unsignedToken(claims: JWTPayload): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}
