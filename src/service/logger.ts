// What the use cases log through: the server's pino logger, or a test's sink.
export interface ServiceLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}
