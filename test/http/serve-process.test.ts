// `verdict serve` as a real process: first start prints the keys once and seeds the example rule that the README's
// curl solves; a bad configuration stops start-up with one line; SIGTERM finishes in-flight work and exits 0.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { call, eventually } from './harness.ts';
import { runCli, spawnServe } from './process.ts';

describe('verdict serve (spawned process)', () => {
  let backend: Backend;
  before(() => {
    backend = sqliteBackend();
  });
  after(() => backend.cleanup());

  test('first start: prints both keys once, serves the example rule, stops cleanly on SIGTERM', async () => {
    const server = await spawnServe({ DATABASE_URL: backend.url, LOG_LEVEL: 'info' });
    try {
      const solverKey = /solver key: +(vsk_\S+)/.exec(server.stdout())?.[1];
      const managementKey = /management key: +(vmk_\S+)/.exec(server.stdout())?.[1];
      assert.ok(solverKey, server.stdout());
      assert.ok(managementKey);
      assert.match(server.stdout(), /Example rules imported: shipping-fee/);

      // The README quickstart call.
      const reply = await call(server.url, 'POST', '/rule/solve/shipping-fee', {
        key: solverKey,
        body: { data: { order: { country: 'CZ', total: 120 } } },
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, [{ shipping: { fee: 0, currency: 'EUR' }, message: 'Free domestic shipping' }]);
      const abroad = await call(server.url, 'POST', '/rule/solve/shipping-fee', { key: solverKey, body: { data: { order: { country: 'US', total: 300 } } } });
      assert.deepEqual(abroad.json, [{ shipping: { fee: 30, currency: 'EUR' }, message: 'International shipping' }]);

      // Every log line is JSON; request lines carry the correlation id.
      const lines = server.stdout().split('\n').filter((l) => l.startsWith('{'));
      assert.ok(lines.every((l) => JSON.parse(l)));
      assert.ok(lines.some((l) => JSON.parse(l).correlationId === reply.headers.get('x-correlation-id')));
      assert.equal(await server.stop(), 0);
      assert.match(server.stdout(), /"msg":"stopped"/);
    } finally {
      await server.stop();
    }

    // Second start on the same store: no keys printed, the data is still there.
    const again = await spawnServe({ DATABASE_URL: backend.url });
    try {
      assert.doesNotMatch(again.stdout(), /solver key/);
      assert.equal((await call(again.url, 'GET', '/health/ready')).status, 200);
    } finally {
      assert.equal(await again.stop(), 0);
    }
  });

  test('SIGTERM lets an in-flight request finish', async () => {
    const server = await spawnServe({ DATABASE_URL: backend.url, RULE_TIMEOUT_MS: '800' });
    try {
      const created = await runCli(['space', 'create', 'graceful', '--json'], { DATABASE_URL: backend.url });
      const { solverKey } = JSON.parse(created.stdout) as { solverKey: string };
      const rule = { name: 'Slow', type: 'complex-rule', status: 'published', ruleAlias: 'slow', inputSchema: {}, outputSchema: {}, script: 'const end = Date.now() + (input.busyMs || 0); while (Date.now() < end) {} return {done: true};' };
      const imported = await importRule(backend.url, 'graceful', rule);
      assert.equal(imported.code, 0, imported.stderr);
      // The running server picks up the CLI's write (SQLite data_version) within a second.
      await eventually(async () => {
        const probe = await call(server.url, 'POST', '/rule/solve/slow', { key: solverKey, body: { data: {} } });
        return probe.status === 200 ? true : undefined;
      }, 2000);
      const inFlight = call(server.url, 'POST', '/rule/solve/slow', { key: solverKey, body: { data: { busyMs: 500 } } });
      // Let the request reach the server before the signal.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const exit = server.stop();
      const reply = await inFlight;
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, [{ done: true }]);
      assert.equal(await exit, 0);
    } finally {
      await server.stop();
    }
  });

  test('a bad configuration stops start-up with one line naming the variable, exit non-zero', async () => {
    for (const [name, value] of [['PORT', 'eighty'], ['DATABASE_URL', 'mysql://x'], ['RULE_TIMEOUT_MS', '-5'], ['TIMEZONE', 'Mars/Olympus']]) {
      const result = await runCli(['serve'], { [name!]: value!, DATABASE_URL: name === 'DATABASE_URL' ? value! : backend.url });
      assert.notEqual(result.code, 0);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, new RegExp(`Invalid configuration: ${name}`));
    }
  });
});

async function importRule(databaseUrl: string, space: string, rule: unknown) {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'verdict-import-'));
  try {
    writeFileSync(join(dir, 'rule.json'), JSON.stringify(rule));
    return await runCli(['import', join(dir, 'rule.json'), '--space', space, '--json'], { DATABASE_URL: databaseUrl });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
