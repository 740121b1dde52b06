// Logging without a per-request cost. Given a logger instance, Fastify builds a pino child for every request and
// listens for the end of every response (two listeners and two clock reads) whether or not anything is logged; at
// the default LOG_LEVEL almost no request writes a line, and that bookkeeping was about 4 µs of a 36 µs solve
// (docs/decisions/perf-http-request-path.md). So Fastify is built without a logger and the server's logger is used
// explicitly, through Fastify's public `log` properties:
// - app.log is `httpLog(logger)`: the logger with the req/res/err serialisers of Fastify's lines;
// - request.log and reply.log are set by the first onRequest hook to a RequestLog, which makes the pino child
//   (bindings: the correlation id) on its first line at an enabled level.
// Every line written is the line the pino child Fastify made would have written.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = [obj: unknown, msg?: string, ...args: unknown[]];

/**
 * The shapes Fastify's own lines give `req` and `res` (`{ req: request }`, `{ res: reply }`), as its logger would
 * serialise them (Fastify 5's pino serialisers), and pino's `err`.
 */
const HTTP_SERIALIZERS = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: request.url,
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
  res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
  err: pino.stdSerializers.err,
};

/** The server's HTTP log: `logger` with the serialisers of Fastify's lines. */
export function httpLog(logger: Logger): Logger {
  return logger.child({}, { serializers: HTTP_SERIALIZERS });
}

/** A request's log: the pino child with its correlation id, made on the first line written at an enabled level. */
export class RequestLog {
  readonly #parent: Logger;
  readonly #correlationId: string;
  #child: Logger | undefined;

  constructor(parent: Logger, correlationId: string) {
    this.#parent = parent;
    this.#correlationId = correlationId;
  }

  /** The pino child, made on first use. */
  #real(): Logger {
    return (this.#child ??= this.#parent.child({ correlationId: this.#correlationId }));
  }

  #log(level: Level, args: LogArgs): void {
    // Until a child exists the request logs at its parent's level, so the parent can tell whether to write.
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
    return (this.#child ?? this.#parent).isLevelEnabled(level);
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

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.#real().child(bindings, options);
  }

  bindings(): Bindings {
    return this.#real().bindings();
  }
}

/** Gives a request (and its reply) its RequestLog; called by the first onRequest hook, before anything logs. */
export function attachRequestLog(log: Logger, request: FastifyRequest, reply: FastifyReply): void {
  const requestLog = new RequestLog(log, request.id) as unknown as FastifyBaseLogger;
  request.log = requestLog;
  reply.log = requestLog;
}
