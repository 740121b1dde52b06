// The process's one logger: JSON lines on stdout, ISO timestamps, the level as a word.
import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'verdict' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
