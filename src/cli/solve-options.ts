// The option values of `verdict solve`, shared by the command line (commands/solve.ts) and the solve itself
// (solve-file.ts, for the same values from the environment). A bad value is a usage error (exit 2) reported by
// commander as one line.
import { InvalidArgumentError } from 'commander';

export const DEFAULT_TIMEOUT_MS = 5000;

export function choice(what: string, allowed: readonly string[]): (value: string) => string {
  return (value) => {
    const upper = value.trim().toUpperCase();
    if (!allowed.includes(upper)) throw new InvalidArgumentError(`unknown ${what} "${value}" (expected ${allowed.join(', ')})`);
    return upper;
  };
}

export function list(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((item) => item.trim()).filter((item) => item !== '')];
}

export function parseNow(value: string): number {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new InvalidArgumentError(`"${value}" is not an ISO-8601 date-time (e.g. 2025-01-31T12:00:00Z)`);
  return time;
}

export function parseTimeZone(value: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidArgumentError(`unknown time zone "${value}" (expected an IANA name such as Europe/Prague)`);
  }
}

export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError(`must be a positive integer (got "${value}")`);
  return number;
}

/** A setting word, lower case (publishing gate: `on`, `off`, `inherit`; live edits: `allowed`, `forbidden`); anything else is a usage error. */
export function gateSetting(values: readonly string[]): (value: string) => string {
  return (value) => {
    const word = value.trim().toLowerCase();
    if (!values.includes(word)) throw new InvalidArgumentError(`must be ${values.join(', ')} (got "${value}")`);
    return word;
  };
}
