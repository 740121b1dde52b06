// `verdict serve` as a real process: first start prints the keys and the admin's sign-in once and seeds the example rule that the README's
// curl solves; a bad configuration stops start-up with one line; SIGTERM finishes in-flight work and exits 0.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { withServices } from '../../src/server/one-shot.ts';
import { call, eventually } from './harness.ts';
import { heldRule, runCli, spawnServe } from './process.ts';

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

      // The sign-in it prints works: the user admin of the default space, with the password shown once.
      const signIn = /Studio sign-in: +(\S+) as user "admin", password (\S+)$/m.exec(server.stdout());
      assert.ok(signIn, server.stdout());
      assert.equal(signIn[1], `${server.url}/studio/`);
      const login = await call(server.url, 'POST', '/api/auth/login', { body: { username: 'admin', password: signIn[2] } });
      assert.equal(login.status, 200, login.text);
      assert.deepEqual(login.json.spaces.map((s: { space: string; role: string }) => [s.space, s.role]), [['default', 'admin']]);
      assert.equal(server.stdout().split(signIn[2]!).length, 2, 'the password is printed once and never logged');

      // The README quickstart call.
      const reply = await call(server.url, 'POST', '/rule/solve/shipping-fee', {
        key: solverKey,
        body: { data: { order: { country: 'CZ', total: 120 } } },
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, [{ shipping: { fee: 0, currency: 'EUR' }, message: 'Free domestic shipping' }]);
      const abroad = await call(server.url, 'POST', '/rule/solve/shipping-fee', { key: solverKey, body: { data: { order: { country: 'US', total: 300 } } } });
      assert.deepEqual(abroad.json, [{ shipping: { fee: 30, currency: 'EUR' }, message: 'International shipping' }]);
      // The example's tests (examples/tests/shipping-fee.tests.json) are stored with it and pass.
      const tests = await runCli(['test', '--space', 'default'], { DATABASE_URL: backend.url });
      assert.equal(tests.code, 0, tests.stderr);
      assert.match(tests.stdout, /^shipping-fee v1\n {2}Domestic\n/);
      assert.match(tests.stdout, /3 passed, 0 failed\n$/);

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
      assert.doesNotMatch(again.stdout(), /solver key|Studio sign-in/);
      assert.equal((await call(again.url, 'GET', '/health/ready')).status, 200);
    } finally {
      assert.equal(await again.stop(), 0);
    }
  });

  test('SIGTERM lets an in-flight request finish', async () => {
    const held = await heldRule();
    const server = await spawnServe({ DATABASE_URL: backend.url, ...held.env });
    try {
      // Written by another process than the server's, as the CLI would (withServices is what its commands use).
      const solverKey = await withServices(async (services) => {
        const created = await services.spaces.create('graceful');
        await services.rulesIO.importContainer('graceful', [held.rule]);
        return created.solverKey;
      }, { DATABASE_URL: backend.url });
      // The running server picks up that write through SQLite's data_version.
      await eventually(async () => {
        const probe = await call(server.url, 'POST', '/rule/solve/held', { key: solverKey, body: { data: {} } });
        return probe.status === 200 ? true : undefined;
      });
      const inFlight = call(server.url, 'POST', '/rule/solve/held', { key: solverKey, body: { data: { hold: true } } });
      await held.arrived;
      const exit = server.stop();
      await eventually(async () => (/"msg":"shutting down"/.test(server.stdout()) ? true : undefined));
      // The server is stopping, and the request is still in flight: only now may it finish.
      held.release();
      const reply = await inFlight;
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, [{ done: true }]);
      assert.equal(await exit, 0);
    } finally {
      await server.stop();
      await held.close();
    }
  });

  // How each variable is checked is test/service/config.test.ts's (in-process, every variable); here, that the
  // process reports such a refusal as one line and a failing exit, both for a variable serve also takes as an option
  // (PORT, --port) and for one it does not.
  test('a bad configuration stops start-up with one line naming the variable, exit non-zero', async () => {
    for (const [name, value] of [['PORT', 'eighty'], ['TIMEZONE', 'Mars/Olympus']]) {
      const result = await runCli(['serve'], { [name!]: value!, DATABASE_URL: name === 'DATABASE_URL' ? value! : backend.url });
      assert.notEqual(result.code, 0);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, new RegExp(`Invalid configuration: ${name}`));
    }
  });
});
