// The service's one clock, injectable so tests can move time (audit expiry, retention) without waiting.
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function isoAt(clock: Clock): string {
  return new Date(clock()).toISOString();
}
