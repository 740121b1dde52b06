// Connection settings for every Kafka client of the channel (consumer, producer, admin), from KAFKA_* config:
// brokers, client id, TLS with an optional CA file, SASL (PLAIN or SCRAM) over it.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import type { SASLMechanismValue } from '@platformatic/kafka';
import type { KafkaConfig } from '../config.ts';

export interface ClientConnection {
  clientId: string;
  bootstrapBrokers: string[];
  tls?: TlsOptions;
  sasl?: { mechanism: SASLMechanismValue; username: string; password: string };
  connectTimeout: number;
}

export type ConnectionConfig = Pick<
  KafkaConfig,
  'brokers' | 'clientId' | 'ssl' | 'sslCaFile' | 'saslMechanism' | 'saslUsername' | 'saslPassword'
>;

/** The channel's clients share one client id prefix so broker logs and quotas can tell them apart by role. */
export function clientConnection(config: ConnectionConfig, role: string): ClientConnection {
  const connection: ClientConnection = {
    clientId: `${config.clientId}-${role}`,
    bootstrapBrokers: config.brokers,
    connectTimeout: 10_000,
  };
  if (config.ssl) {
    connection.tls = config.sslCaFile === undefined ? {} : { ca: readFileSync(config.sslCaFile) };
  }
  if (config.saslMechanism !== undefined) {
    connection.sasl = {
      mechanism: config.saslMechanism as SASLMechanismValue,
      username: config.saslUsername ?? '',
      password: config.saslPassword ?? '',
    };
  }
  return connection;
}

/** How the channel reports a connection it could not make: what, where, and the likely fix. */
export class KafkaStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KafkaStartError';
  }
}

/**
 * The client nests errors (MultipleErrors > NetworkError > AuthenticationError > ...); the innermost messages
 * say what happened. Returns them joined, without repeats, on one line.
 */
export function describeKafkaError(error: unknown): string {
  const messages: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number) => {
    if (e === null || e === undefined || seen.has(e) || depth > 8) return;
    seen.add(e);
    if (!(e instanceof Error)) {
      messages.push(String(e));
      return;
    }
    const children: unknown[] = [];
    if (e instanceof AggregateError) children.push(...(e.errors as unknown[]));
    if (e.cause !== undefined) children.push(e.cause);
    const message = e.message.trim();
    if (message !== '' && !messages.includes(message)) messages.push(message);
    for (const child of children) visit(child, depth + 1);
  };
  visit(error, 0);
  return messages.join(': ') || 'unknown error';
}

/** A start-up failure in words an operator can act on. */
export function startError(config: ConnectionConfig, error: unknown): KafkaStartError {
  const detail = describeKafkaError(error);
  let hint = '';
  if (/SASL authentication failed/i.test(detail)) hint = ' (check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD)';
  else if (/certificate|self[- ]signed|unable to verify/i.test(detail)) hint = ' (check KAFKA_SSL_CA_FILE)';
  else if (/TLS handshake/i.test(detail)) hint = ' (is KAFKA_SSL right for this listener?)';
  else if (/ECONNREFUSED|ENOTFOUND|Cannot connect|timed? ?out/i.test(detail)) hint = ' (check KAFKA_BROKERS)';
  const user = config.saslMechanism !== undefined ? ` as ${config.saslUsername} (${config.saslMechanism})` : '';
  return new KafkaStartError(`Kafka: cannot connect to ${config.brokers.join(',')}${user}: ${detail}${hint}`, { cause: error });
}
