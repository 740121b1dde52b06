// KAFKA_* configuration (SPEC 7) and the connection options built from it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { clientConnection, describeKafkaError, startError } from '../../src/kafka/connection.ts';

const dir = mkdtempSync(join(tmpdir(), 'verdict-kafka-config-'));
const caFile = join(dir, 'ca.pem');
writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
after(() => rmSync(dir, { recursive: true, force: true }));

const kafka = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env }).kafka;
const rejects = (env: Record<string, string>, variable: string, message: RegExp) => {
  assert.throws(() => kafka(env), (err: unknown) => err instanceof ConfigError && err.variable === variable && message.test(err.message));
};

describe('KAFKA_* configuration', () => {
  test('defaults: off, group and client id "verdict", 3 partitions, 1 MB messages', () => {
    const config = kafka({});
    assert.equal(config.enabled, false);
    assert.equal(config.groupId, 'verdict');
    assert.equal(config.clientId, 'verdict');
    assert.equal(config.partitions, 3);
    assert.equal(config.replicationFactor, undefined);
    assert.equal(config.maxMessageBytes, 1024 * 1024);
    assert.equal(config.sessionTimeoutMs, 10_000);
    assert.equal(config.topicRefreshMs, 5000);
    assert.equal(config.exactlyOnce, false, 'at least once unless asked');
  });

  test('exactly once: the transactional id defaults to client id, group id and host name, or is set', () => {
    const config = kafka({ KAFKA_EXACTLY_ONCE: 'true', KAFKA_CLIENT_ID: 'verdict-eu', KAFKA_GROUP_ID: 'solvers' });
    assert.equal(config.exactlyOnce, true);
    assert.equal(config.transactionalId, `verdict-eu-solvers-${hostname()}`);
    assert.equal(kafka({ KAFKA_EXACTLY_ONCE: 'true', KAFKA_TRANSACTIONAL_ID: 'verdict-0' }).transactionalId, 'verdict-0');
  });

  test('SASL_SSL with PLAIN and a CA file', () => {
    const config = kafka({
      KAFKA_ENABLED: 'true', KAFKA_BROKERS: 'b1:9093, b2:9093', KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: caFile,
      KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'pw', KAFKA_CLIENT_ID: 'verdict-eu',
    });
    assert.deepEqual(config.brokers, ['b1:9093', 'b2:9093']);
    assert.equal(config.saslMechanism, 'PLAIN');
    const connection = clientConnection(config, 'producer');
    assert.equal(connection.clientId, 'verdict-eu-producer');
    assert.deepEqual(connection.bootstrapBrokers, ['b1:9093', 'b2:9093']);
    assert.equal(String(connection.tls?.ca), readCa());
    assert.deepEqual(connection.sasl, { mechanism: 'PLAIN', username: 'svc', password: 'pw' });
    assert.equal(clientConnection(kafka({ KAFKA_BROKERS: 'b:1' }), 'x').tls, undefined, 'no TLS unless KAFKA_SSL=true');
  });

  test('bad settings stop start-up naming the variable', () => {
    rejects({ KAFKA_ENABLED: 'true' }, 'KAFKA_BROKERS', /required when KAFKA_ENABLED=true/);
    rejects({ KAFKA_BROKERS: 'localhost' }, 'KAFKA_BROKERS', /"localhost" is not host:port/);
    rejects({ KAFKA_SASL_MECHANISM: 'GSSAPI' }, 'KAFKA_SASL_MECHANISM', /not PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512/);
    rejects({ KAFKA_SASL_MECHANISM: 'PLAIN' }, 'KAFKA_SASL_USERNAME', /required/);
    rejects({ KAFKA_SASL_MECHANISM: 'PLAIN', KAFKA_SASL_USERNAME: 'u' }, 'KAFKA_SASL_PASSWORD', /required/);
    rejects({ KAFKA_SSL_CA_FILE: caFile }, 'KAFKA_SSL_CA_FILE', /KAFKA_SSL is not true/);
    rejects({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: join(dir, 'missing.pem') }, 'KAFKA_SSL_CA_FILE', /cannot be read/);
    rejects({ KAFKA_SSL: 'maybe' }, 'KAFKA_SSL', /not a boolean/);
    rejects({ KAFKA_PARTITIONS: '0' }, 'KAFKA_PARTITIONS', /out of range/);
    rejects({ KAFKA_MAX_MESSAGE_BYTES: 'lots' }, 'KAFKA_MAX_MESSAGE_BYTES', /not an integer/);
    rejects({ KAFKA_EXACTLY_ONCE: 'twice' }, 'KAFKA_EXACTLY_ONCE', /not a boolean/);
    rejects({ KAFKA_TRANSACTIONAL_ID: 'verdict-0' }, 'KAFKA_TRANSACTIONAL_ID', /KAFKA_EXACTLY_ONCE is not true/);
  });
});

describe('connection errors', () => {
  test('nested client errors read as one line with a hint', () => {
    const nested = new AggregateError([new Error('Connection to b:9094 failed.', { cause: new Error('SASL authentication failed.') })], 'Cannot connect to any broker.');
    assert.equal(describeKafkaError(nested), 'Cannot connect to any broker.: Connection to b:9094 failed.: SASL authentication failed.');
    const config = kafka({ KAFKA_BROKERS: 'b:9094', KAFKA_SASL_MECHANISM: 'PLAIN', KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'x' });
    assert.equal(
      startError(config, nested).message,
      'Kafka: cannot connect to b:9094 as svc (PLAIN): Cannot connect to any broker.: Connection to b:9094 failed.: SASL authentication failed. (check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD)',
    );
    assert.match(startError(config, new Error('self-signed certificate in certificate chain')).message, /\(check KAFKA_SSL_CA_FILE\)$/);
  });
});

function readCa(): string {
  return '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
}
