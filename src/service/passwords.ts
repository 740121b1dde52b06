// Password hashing with Node's scrypt (memory-hard): `scrypt$N$r$p$salt$hash`, salt and hash base64url, a fresh
// 16-byte salt per password, compared in constant time. The parameters travel with each hash, so raising them
// later leaves existing hashes verifiable (docs/decisions/users-and-sessions.md).
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** 128 * N * r bytes is what scrypt needs (32 MiB here); the default maxmem (32 MiB) is just short of it. */
const MAX_MEMORY = 64 * 1024 * 1024;

/** Passwords are 8 to 1024 characters: long enough to resist guessing, short enough to bound the hashing work. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, { N, r: R, p: P }, KEY_LENGTH);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** False for a wrong password and for a stored value that is no scrypt hash (never throws on bad data). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (![n, r, p].every(Number.isSafeInteger) || expected.length === 0 || 128 * n * r > MAX_MEMORY) return false;
  try {
    return timingSafeEqual(await derive(password, salt, { N: n, r, p }, expected.length), expected);
  } catch {
    // Parameters scrypt refuses (N not a power of two, say): no password matches them.
    return false;
  }
}

/** A hash of a random password: verified against when the user is unknown, so both cases take the same time. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('base64url'));
  return decoy;
}

/** A password to hand out once (`verdict user create`, first start, members without a password): 120 random bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** The problem with a chosen password, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `a password must have at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `a password must have at most ${PASSWORD_MAX} characters`;
  return undefined;
}
