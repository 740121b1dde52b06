// Page cursors of newest-first listings (audit records, test runs): opaque to clients, a bad one is InvalidCursorError.
import { InvalidCursorError } from './ports.ts';

/** A page cursor after the row (createdAt, id) of a newest-first listing (audit records, test runs). */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

export function decodeCursor(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return [value[0], value[1]];
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError();
}
