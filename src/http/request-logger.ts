// Logging without a per-request cost. Given a logger instance, Fastify builds a pino child for every request
// (serialising the correlation id binding) and listens for the end of every response to time it; at the default
// LOG_LEVEL almost no request writes a line, and that bookkeeping was about 3 µs of a 40 µs solve
// (docs/decisions/perf-http-request-path.md). So Fastify is built without one: the server's log is the logger
// Fastify would have made (httpLogger), and request.log is a RequestLogger, which makes the pino child on its
// first enabled line. Every line written is the line Fastify's own child would have written.
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = [obj: unknown, msg?: string, ...args: unknown[]];

/** Fastify's loggers are pino loggers. */
type PinoLike = FastifyBaseLogger & { isLevelEnabled(level: string): boolean; serializers?: Record<string, unknown> };

interface FastifyPino {
  createPinoLogger(options: { logger: FastifyBaseLogger; serializers: Record<string, unknown> }): FastifyBaseLogger;
  serializers: Record<string, unknown>;
}

/**
 * The server logger Fastify makes of a logger instance (fastify/lib/logger-factory.js): a child with Fastify's
 * req/res/err serialisers. Fastify's own module, so the two cannot drift.
 */
export function httpLogger(instance: FastifyBaseLogger): FastifyBaseLogger {
  const { createPinoLogger, serializers } = createRequire(import.meta.url)('fastify/lib/logger-pino.js') as FastifyPino;
  return createPinoLogger({ logger: instance, serializers: { ...serializers, ...(instance as PinoLike).serializers } });
}

export class RequestLogger {
  readonly #parent: PinoLike;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent as PinoLike;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The pino child, made on first use. */
  #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  #log(level: Level, args: LogArgs): void {
    // Until a child exists the request logs at its parent's level (requestLoggerFactory keeps routes with their own
    // level out of here), so the parent can tell whether the line would be written.
    if (this.#child === undefined && !this.#parent.isLevelEnabled(level)) return;
    (this.#real()[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return ((this.#child as PinoLike | undefined) ?? this.#parent).isLevelEnabled(level);
  }

  fatal(...args: LogArgs): void {
    this.#log('fatal', args);
  }

  error(...args: LogArgs): void {
    this.#log('error', args);
  }

  warn(...args: LogArgs): void {
    this.#log('warn', args);
  }

  info(...args: LogArgs): void {
    this.#log('info', args);
  }

  debug(...args: LogArgs): void {
    this.#log('debug', args);
  }

  trace(...args: LogArgs): void {
    this.#log('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  bindings(): Bindings {
    return (this.#real() as FastifyBaseLogger & { bindings(): Bindings }).bindings();
  }
}

/**
 * A `childLoggerFactory` whose request loggers are children of `server` (Fastify passes its own logger, which is
 * silent when it was built without one). A route with its own log level or serialisers gets pino's child at once.
 */
export function requestLoggerFactory(server: FastifyBaseLogger) {
  return (_fastifyLogger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
    options.level !== undefined || options.serializers !== undefined
      ? server.child(bindings, options)
      : (new RequestLogger(server, bindings, options) as unknown as FastifyBaseLogger);
}
