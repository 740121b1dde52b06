// KAFKA_EXACTLY_ONCE=true against a real broker: `verdict serve` is SIGKILLed twice while it answers 20,000
// requests, restarted each time with the same transactional id, and kcat (librdkafka, not our client) reading the
// response topic with isolation.level=read_committed must see every request answered exactly once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { volume } from './fixtures.ts';
import {
  channelEnv, ensureKcat, kafkaSuite, seedServeSpace, spawnServe, tempDb, TestClient, uniqueId,
} from './harness.ts';
import type { ServeProcess } from './harness.ts';

const { skip, kafka, createdTopics } = await kafkaSuite();

const TOTAL = 20_000;

/** Reads a whole topic with kcat; returns how often each x-correlation-id was answered, and bad lines. */
function readWithKcat(kcat: string, topic: string, isolation: 'read_committed' | 'read_uncommitted') {
  const read = spawnSync(
    kcat,
    ['-C', '-b', kafka.bootstrap, '-t', topic, '-X', `isolation.level=${isolation}`, '-o', 'beginning', '-e', '-q', '-f', '%h|%s\\n'],
    { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(read.status, 0, `kcat failed: ${read.stderr}`);
  const counts = new Map<string, number>();
  const malformed: string[] = [];
  for (const line of read.stdout.split('\n')) {
    if (line === '') continue;
    const bar = line.indexOf('|');
    const id = /(?:^|,)x-correlation-id=([^,|]*)/.exec(line.slice(0, bar))?.[1];
    let body: { correlationId?: string; data?: unknown[] } | undefined;
    try {
      body = JSON.parse(line.slice(bar + 1)) as typeof body;
    } catch {
      body = undefined;
    }
    if (id === undefined || body?.correlationId !== id || !Array.isArray(body.data) || body.data.length === 0) malformed.push(line);
    else counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return { counts, malformed };
}

describe('Kafka channel: exactly once (KAFKA_EXACTLY_ONCE=true)', { skip }, () => {
  test('SIGKILL twice during 20,000 requests: a read_committed reader (kcat) sees each answered exactly once', async (t) => {
    const kcat = ensureKcat();
    if (kcat === undefined) {
      if (process.env.CI === 'true') assert.fail('kcat is required when CI=true (apt-get install kcat)');
      t.skip('kcat not installed');
      return;
    }
    const db = tempDb();
    // The same transactional id across restarts: each new process fences the one killed before it.
    const env = channelEnv(kafka.bootstrap, db, uniqueId('verdict-eos'), { KAFKA_EXACTLY_ONCE: 'true', KAFKA_TRANSACTIONAL_ID: uniqueId('verdict-eos-tx') });
    const { key, pair } = await seedServeSpace(kafka.bootstrap, db, 'eos', 'eos');
    createdTopics.push(pair.requestTopic, pair.responseTopic);
    const client = new TestClient({ bootstrap: kafka.bootstrap });
    let serve: ServeProcess | undefined;
    const started = Date.now();
    try {
      // Our client's reader is read_committed too; it only paces the kills.
      const responses = await client.collect(pair.responseTopic);
      const requests = volume('x', TOTAL, key, 3);
      // The backlog arrives in three parts, the next one written only after each kill: the service usually has
      // work queued when it is killed, and, however fast or slow the machine, each kill lands before everything is
      // answered, so each restarted process must resume from what the killed one committed.
      const parts = [requests.slice(0, 8000), requests.slice(8000, 16_000), requests.slice(16_000)];
      await client.produce(pair.requestTopic, parts[0]!, 2000);
      const produced = Date.now();
      serve = await spawnServe(env);
      const killedAt: number[] = [];
      for (const [i, threshold] of [4000, 11_000].entries()) {
        await responses.waitFor((all) => all.length >= threshold, 120_000, `${threshold} committed answers`);
        serve.child.kill('SIGKILL');
        assert.equal(await serve.exited, null, 'killed, not exited');
        killedAt.push(responses.responses.length);
        await client.produce(pair.requestTopic, parts[i + 1]!, 2000);
        serve = await spawnServe(env);
      }
      await responses.waitForAll('x', TOTAL, 180_000);
      serve.child.kill('SIGTERM');
      assert.equal(await serve.exited, 0);
      serve = undefined;

      const committed = readWithKcat(kcat, pair.responseTopic, 'read_committed');
      const uncommitted = readWithKcat(kcat, pair.responseTopic, 'read_uncommitted');
      const missing = volume('x', TOTAL, key, 1).map((r) => r.key!).filter((id) => !committed.counts.has(id));
      const duplicates = [...committed.counts].filter(([, n]) => n > 1).map(([id]) => id);
      const aborted = [...uncommitted.counts.values()].reduce((sum, n) => sum + n, 0) - TOTAL;
      console.log(
        `kafka exactly once: SIGKILL after ${killedAt.join(' and ')} committed answers; kcat read_committed: ` +
          `${committed.counts.size} answered, ${missing.length} lost, ${duplicates.length} duplicates; ` +
          `read_uncommitted shows ${aborted} aborted answers; first part produced in ${produced - started} ms, all in ${Date.now() - started} ms`,
      );
      assert.deepEqual(committed.malformed, [], 'every response names its correlation id and carries the answer');
      assert.deepEqual(missing, [], 'no request lost');
      assert.deepEqual(duplicates, [], 'no request answered twice');
      assert.equal(committed.counts.size, TOTAL);
    } finally {
      serve?.child.kill('SIGKILL');
      if (serve) await serve.exited;
      await client.close();
      db.cleanup();
    }
  });
});
