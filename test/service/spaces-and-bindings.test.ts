// The service operations adapters use instead of the store: the one space check, key listing, and Kafka bindings
// (checked in the order an operator fixes them, recorded only once the topics exist, topics removed when the
// binding cannot be recorded).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { brokerProvisioner } from '../../src/kafka/provision.ts';
import { ServiceError } from '../../src/service/errors.ts';
import { Services } from '../../src/service/index.ts';
import type { TopicPair, TopicProvisioner } from '../../src/service/kafka-bindings.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/ports.ts';

const quiet = { error() {}, warn() {}, info() {} };

function failsWith(code: string, message: string | RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof ServiceError, String(err));
    assert.equal(err.code, code);
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  };
}

describe('space and binding operations', () => {
  let store: Store;
  /** Topic pairs created and deleted by the stand-in provisioner (the brokers are not the subject here). */
  const created: TopicPair[] = [];
  const deleted: TopicPair[] = [];
  let counter = 0;
  const recording: TopicProvisioner = {
    checkCompany: brokerProvisioner(loadConfig({}).kafka).checkCompany,
    createPair: async (company) => {
      const pair = { requestTopic: `${company}-${++counter}-request`, responseTopic: `${company}-${counter}-response` };
      created.push(pair);
      return pair;
    },
    deletePair: async (pair) => {
      deleted.push(pair);
    },
  };
  const services = (env: Record<string, string>, provisioner?: TopicProvisioner) =>
    new Services({
      config: loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env }),
      store,
      log: quiet,
      sandbox: null,
      defaultMetrics: false,
      topicProvisioner: provisioner && (async () => provisioner),
    });

  before(async () => {
    store = await openStore('sqlite::memory:');
  });
  after(async () => {
    await store.close();
  });

  test('spaces: list, exists, and require with the one not-found error', async () => {
    const s = services({});
    await s.spaces.create('alpha');
    assert.deepEqual((await s.spaces.list()).map((space) => space.name), ['alpha']);
    assert.equal(await s.spaces.exists('alpha'), true);
    assert.equal(await s.spaces.exists('beta'), false);
    await s.spaces.require('alpha');
    await assert.rejects(s.spaces.require('beta'), failsWith('space-not-found', 'space "beta" does not exist'));
    await assert.rejects(s.keys.create('beta', 'solver'), failsWith('space-not-found', 'space "beta" does not exist'));
    await assert.rejects(s.rulesIO.importContainer('beta', []), failsWith('space-not-found', 'space "beta" does not exist'));
    await assert.rejects(s.spaces.create('alpha'), failsWith('space-exists', 'space "alpha" already exists'));
    await assert.rejects(s.spaces.create('-bad'), failsWith('invalid-space-name', /^space name "-bad" is invalid/));
  });

  test('keys.list lists a space\'s keys without the secrets', async () => {
    const s = services({});
    const space = await s.spaces.create('keyed');
    const extra = await s.keys.create('keyed', 'solver');
    const keys = await s.keys.list('keyed');
    assert.deepEqual(keys.map((k) => k.id).sort(), [space.solverKeyId, space.managementKeyId, extra.id].sort());
    assert.equal(JSON.stringify(keys).includes(extra.key), false);
  });

  test('kafka.enable checks brokers, company, partitions, then the space, before creating anything', async () => {
    await services({}).spaces.create('shop');
    await assert.rejects(
      services({}, recording).kafka.enable({ space: 'shop', company: 'acme' }),
      failsWith('kafka-not-configured', 'KAFKA_BROKERS is not set: it names the brokers to create the topics on'),
    );
    const s = services({ KAFKA_BROKERS: '127.0.0.1:1' }, recording);
    await assert.rejects(s.kafka.enable({ space: 'nowhere', company: 'a b' }), failsWith('invalid-kafka-binding', /^company "a b" must be 1-200 characters/));
    await assert.rejects(s.kafka.enable({ space: 'nowhere', company: 'acme', partitions: 0 }), failsWith('invalid-kafka-binding', 'partitions must be an integer from 1 to 10000, got 0'));
    await assert.rejects(s.kafka.enable({ space: 'nowhere', company: 'acme' }), failsWith('space-not-found', 'space "nowhere" does not exist'));
    assert.deepEqual(created, [], 'no topics for a refused request');
    await assert.rejects(
      services({ KAFKA_BROKERS: '127.0.0.1:1' }).kafka.enable({ space: 'shop', company: 'acme' }),
      failsWith('kafka-not-configured', 'Kafka provisioning is not available in this process'),
    );
  });

  test('kafka.enable records the binding; list and unbind see it', async () => {
    const s = services({ KAFKA_BROKERS: '127.0.0.1:1' }, recording);
    const binding = await s.kafka.enable({ space: 'shop', company: 'acme', partitions: 2 });
    assert.deepEqual({ ...binding, createdAt: undefined }, { space: 'shop', company: 'acme', ...created.at(-1)!, createdAt: undefined });
    assert.deepEqual(await s.kafka.list('shop'), [binding]);
    assert.equal(await s.kafka.unbind(binding.requestTopic), true);
    assert.equal(await s.kafka.unbind(binding.requestTopic), false);
    assert.deepEqual(await s.kafka.list('shop'), []);
  });

  test("kafka.spaceState: the space's pairs, each consumed or not by the attached channel, and the channel's state", async () => {
    const s = services({ KAFKA_BROKERS: '127.0.0.1:1' }, recording);
    await s.spaces.create('streamed');
    const one = await s.kafka.enable({ space: 'streamed', company: 'one' });
    const two = await s.kafka.enable({ space: 'streamed', company: 'two' });
    const before = await s.kafka.spaceState('streamed');
    assert.deepEqual({ ...before, bindings: undefined }, { space: 'streamed', channelEnabled: false, channelRunning: false, brokersConfigured: true, bindings: undefined });
    assert.deepEqual(before.bindings.map((b) => [b.company, b.consuming]), [['one', false], ['two', false]]);
    s.kafka.attachChannel({ topics: () => [one.requestTopic, 'elsewhere-request'] });
    const running = await s.kafka.spaceState('streamed');
    assert.equal(running.channelRunning, true);
    assert.deepEqual(running.bindings.map((b) => [b.requestTopic, b.consuming]), [[one.requestTopic, true], [two.requestTopic, false]]);
    assert.ok(!('space' in running.bindings[0]!), 'bindings are answered without the space');
    s.kafka.attachChannel(undefined);
    assert.equal((await s.kafka.spaceState('streamed')).channelRunning, false);
    assert.deepEqual((await s.kafka.spaceState('shop')).bindings.map((b) => b.company).includes('one'), false, 'another space sees none of them');
  });

  test('a binding that cannot be recorded removes the topics it created', async () => {
    // Two pairs with the same names: the store refuses the second binding (its request topic is taken).
    const clashing: TopicProvisioner = { ...recording, createPair: async () => ({ requestTopic: 'same-request', responseTopic: 'same-response' }) };
    const s = services({ KAFKA_BROKERS: '127.0.0.1:1' }, clashing);
    await s.kafka.enable({ space: 'shop', company: 'same' });
    await assert.rejects(s.kafka.enable({ space: 'shop', company: 'same' }));
    assert.deepEqual(deleted, [{ requestTopic: 'same-request', responseTopic: 'same-response' }]);
  });
});
