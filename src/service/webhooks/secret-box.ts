// Webhook signing secrets at rest (docs/decisions/webhook-secrets-at-rest.md). Signing needs the secret itself, so
// it cannot be hashed; it is sealed with AES-256-GCM under the server's secrets key (SECRETS_KEY, or the key file
// beside an embedded SQLite database) and bound to its webhook's id, so a sealed value copied onto another
// webhook's row does not open. Values written before a key existed are plain `whsec_...` and still read. Earlier
// keys (SECRETS_KEY_PREVIOUS, or the key file once SECRETS_KEY is set) still open what they sealed; the server's
// start seals those again under the current key (`needsSealing`), so a key is rotated by one restart.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnreadableError';
  }
}

export class SecretBox {
  /** The current key first: it seals; every key opens. */
  readonly #keys: Buffer[];

  /** Without a key secrets are kept as they are (the server warns at start). */
  constructor(key: Buffer | undefined, previous: readonly Buffer[] = []) {
    for (const k of [key, ...previous]) if (k !== undefined && k.length !== 32) throw new Error('a secrets key is 32 bytes');
    this.#keys = key === undefined ? [] : [key, ...previous.filter((k) => !k.equals(key))];
  }

  get encrypts(): boolean {
    return this.#keys.length > 0;
  }

  /** The stored form of `secret`, bound to `owner` (the webhook id). */
  seal(secret: string, owner: string): string {
    const key = this.#keys[0];
    if (key === undefined) return secret;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(owner));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** True when `stored` is a sealed value (not a secret kept as it is). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** The secret of a stored value; throws SecretUnreadableError when no key of this instance sealed it. */
  open(stored: string, owner: string): string {
    return this.#open(stored, owner).secret;
  }

  /**
   * The value to store instead of `stored`, when it is kept as it is or sealed under an earlier key; undefined when
   * it is sealed under the current key. Throws SecretUnreadableError as `open`.
   */
  resealed(stored: string, owner: string): string | undefined {
    if (!this.encrypts) return undefined;
    const { secret, keyIndex } = this.#open(stored, owner);
    return keyIndex === 0 ? undefined : this.seal(secret, owner);
  }

  /** keyIndex: the key that opened it, -1 for a secret kept as it is. */
  #open(stored: string, owner: string): { secret: string; keyIndex: number } {
    if (!SecretBox.isSealed(stored)) return { secret: stored, keyIndex: -1 };
    if (!this.encrypts) {
      throw new SecretUnreadableError('the webhook secret is encrypted, and this instance has no SECRETS_KEY: set the key the other instances use');
    }
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadableError('the stored webhook secret is damaged');
    for (const [keyIndex, key] of this.#keys.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(owner));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const secret = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
        return { secret, keyIndex };
      } catch {
        // Not this key: try the next.
      }
    }
    throw new SecretUnreadableError('the webhook secret was encrypted under a key this instance does not have (SECRETS_KEY, SECRETS_KEY_PREVIOUS): set the same keys on every instance');
  }
}
