// Webhooks and the event log (issue 27, items 3 and 4) over real HTTP, on SQLite and PostgreSQL: a receiver on
// 127.0.0.1 checks every signature, answers 500 twice and sees the retries of the same delivery in order; only the
// subscribed events arrive; a test event and a redelivery; a webhook failing attempt after attempt is disabled; a
// delivery written while no instance dispatches is still sent after a restart; private targets are refused; the
// event log filters by type and pages by cursor.
import assert from 'node:assert/strict';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { backendOf, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { messageTable } from './fixtures.ts';
import { eventually, startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The signature checked against the secret of the webhook at `path`. */
  signed: boolean;
}

/** A webhook receiver: answers each path's scripted statuses in turn (then 200) and checks signatures. */
class Receiver {
  readonly received: Received[] = [];
  readonly secrets = new Map<string, string>();
  readonly script = new Map<string, number[]>();
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body, signed: this.#verify(path, req.headers, body) });
        const status = this.script.get(path)?.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
  }

  /** What docs/webhooks.md tells receivers to do: HMAC-SHA256 of "<t>.<raw body>", compared in constant time. */
  #verify(path: string, headers: IncomingHttpHeaders, body: string): boolean {
    const secret = this.secrets.get(path);
    const header = String(headers['x-verdict-signature'] ?? '');
    const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
    const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
    if (secret === undefined || t === undefined || v1 === undefined) return false;
    if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
    return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

/** No script workers: these rules run no scripts, and each server start forks fewer processes. */
const NO_SCRIPTS = { sandbox: null };
const FAST = { WEBHOOKS_ALLOW: '127.0.0.1', WEBHOOKS_RETRY_BASE_MS: '20', WEBHOOKS_POLL_MS: '20', WEBHOOKS_DISABLE_AFTER: '3' };

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`webhooks and the event log on ${kind}`, { skip: kind === 'postgres' ? await postgresSkip() : false }, () => {
    let backend: Backend;
    let server: TestServer;
    const receiver = new Receiver();

    const admin = (method: string, path: string, body?: unknown) => server.call(method, path, { key: server.space.managementKey, body });

    async function webhook(path: string, events: string[], env = server): Promise<string> {
      const created = await env.call('POST', '/api/space/webhooks', { key: env.space.managementKey, body: { url: `${receiver.url}${path}`, events } });
      assert.equal(created.status, 201, created.text);
      assert.match(created.json.secret, /^whsec_/);
      receiver.secrets.set(path, created.json.secret as string);
      return created.json.id as string;
    }

    before(async () => {
      await receiver.start();
      backend = await backendOf(kind);
      server = await startTestServer({ backend, env: FAST, services: NO_SCRIPTS });
    });

    after(async () => {
      await server?.close();
      await backend?.cleanup();
      await receiver.close();
    });

    test('a published rule reaches its webhook signed; two 500s are retried, in order, with the same delivery', async () => {
      const id = await webhook('/published', ['rule.published']);
      receiver.script.set('/published', [500, 500]);
      const listed = await admin('GET', '/api/space/webhooks');
      assert.equal(listed.json.items.length, 1);
      assert.equal(listed.json.items[0].secret, undefined, 'the secret is shown once, at creation');

      assert.equal((await admin('POST', '/api/rule', messageTable('wh-rule', 'wh-rule', 1, 'hello', 'pending'))).status, 200);
      const published = await admin('PUT', '/api/rule/status/wh-rule/published/1');
      assert.equal(published.status, 200, published.text);

      const log = await eventually(async () => {
        const page = await admin('GET', `/api/space/webhooks/${id}/deliveries`);
        return page.json.items.find((d: { status: string }) => d.status === 'delivered') as Record<string, any> | undefined;
      });
      const attempts = receiver.at('/published');
      assert.equal(attempts.length, 3, 'two failed attempts, then the one answered 200');
      assert.ok(attempts.every((a) => a.signed), 'every attempt carries a valid signature');
      assert.deepEqual(new Set(attempts.map((a) => a.headers['x-verdict-delivery'])), new Set([log.id]), 'one delivery id across its retries');
      assert.deepEqual(new Set(attempts.map((a) => a.body)).size, 1, 'each retry sends the same body');
      assert.deepEqual(attempts.map((a) => a.headers['x-verdict-event']), ['rule.published', 'rule.published', 'rule.published'], 'only the subscribed type');
      const event = JSON.parse(attempts[0]!.body) as Record<string, any>;
      assert.equal(event.type, 'rule.published');
      assert.equal(event.rule.ruleId, 'wh-rule');
      assert.equal(event.space, server.space.space);

      const detail = await admin('GET', `/api/space/webhooks/${id}/deliveries/${log.id as string}`);
      assert.equal(detail.status, 200, detail.text);
      assert.deepEqual(detail.json.attemptLog.map((a: { statusCode: number }) => a.statusCode), [500, 500, 200], 'the log keeps each attempt in order');
      assert.equal(detail.json.attempts, 3);
      const hook = await admin('GET', `/api/space/webhooks/${id}`);
      assert.equal(hook.json.consecutiveFailures, 0, 'a success forgives the failures before it');
    });

    test('a test event and a redelivery: the same event again under a new delivery id', async () => {
      const id = await webhook('/tested', ['key.created']);
      const queued = await admin('POST', `/api/space/webhooks/${id}/test`);
      assert.equal(queued.status, 202, queued.text);
      await eventually(async () => (receiver.at('/tested').length >= 1 ? true : undefined));
      const first = receiver.at('/tested')[0]!;
      assert.equal(first.headers['x-verdict-event'], 'webhook.test');
      assert.ok(first.signed);

      const again = await admin('POST', `/api/space/webhooks/${id}/deliveries/${queued.json.id as string}/redeliver`);
      assert.equal(again.status, 202, again.text);
      assert.equal(again.json.redeliveryOf, queued.json.id);
      await eventually(async () => (receiver.at('/tested').length >= 2 ? true : undefined));
      const second = receiver.at('/tested')[1]!;
      assert.equal(second.body, first.body, 'the same event');
      assert.notEqual(second.headers['x-verdict-delivery'], first.headers['x-verdict-delivery']);
      assert.equal((await admin('POST', `/api/space/webhooks/${id}/deliveries/dlv_nope/redeliver`)).status, 404);
    });

    test('a webhook failing attempt after attempt is disabled at the threshold, and enabled again by a person', async () => {
      const id = await webhook('/broken', ['key.revoked']);
      receiver.script.set('/broken', Array(20).fill(503));
      const key = await admin('POST', '/api/space/keys', { type: 'solver', name: 'short-lived' });
      assert.equal((await admin('DELETE', `/api/space/keys/${key.json.id as string}`)).status, 200);
      const disabled = await eventually(async () => {
        const hook = await admin('GET', `/api/space/webhooks/${id}`);
        return hook.json.enabled === false ? hook.json as Record<string, any> : undefined;
      });
      assert.equal(receiver.at('/broken').length, 3, 'WEBHOOKS_DISABLE_AFTER=3 attempts, then no more');
      assert.match(disabled.disabledReason, /disabled after 3 failed attempts in a row \(last: the receiver answered HTTP 503\)/);
      const refused = await admin('POST', `/api/space/webhooks/${id}/test`);
      assert.equal(refused.status, 409);
      assert.match(refused.json.error.message, /is disabled/);

      receiver.script.set('/broken', []);
      const enabled = await admin('PATCH', `/api/space/webhooks/${id}`, { enabled: true });
      assert.equal(enabled.status, 200, enabled.text);
      assert.deepEqual([enabled.json.enabled, enabled.json.consecutiveFailures, enabled.json.disabledReason], [true, 0, null]);
      await eventually(async () => (receiver.at('/broken').length === 4 ? true : undefined));
      assert.equal(receiver.at('/broken')[3]!.headers['x-verdict-event'], 'key.revoked', 'the pending delivery is sent once enabled');
    });

    test('targets in loopback and private ranges are refused unless WEBHOOKS_ALLOW lists them; bodies are checked', async () => {
      for (const url of ['http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://[::1]:8080/', 'http://192.168.0.10:9000/x', `${receiver.url.replace('127.0.0.1', '127.0.0.2')}/x`]) {
        const refused = await admin('POST', '/api/space/webhooks', { url, events: ['*'] });
        assert.equal(refused.status, 400, url);
        assert.match(refused.json.error.message, /loopback or private range; an operator can add it to WEBHOOKS_ALLOW/, url);
      }
      const cases: Array<[unknown, RegExp]> = [
        [{ url: 'ftp://example.com/', events: ['*'] }, /only http and https/],
        [{ url: 'https://user:pw@example.com/', events: ['*'] }, /must not carry a user name or password/],
        [{ url: 'https://example.com/', events: [] }, /"events" must be a non-empty array/],
        [{ url: 'https://example.com/', events: ['rule.published', 'rule.exploded'] }, /events\[1\]: "rule.exploded" is no event type/],
        [{ url: 'not a url', events: ['*'] }, /is not an absolute URL/],
      ];
      for (const [body, message] of cases) {
        const reply = await admin('POST', '/api/space/webhooks', body);
        assert.equal(reply.status, 400, JSON.stringify(body));
        assert.match(reply.json.error.message, message);
      }
      assert.equal((await admin('PATCH', '/api/space/webhooks/wh_nope', { enabled: false })).status, 404);
      assert.equal((await admin('DELETE', '/api/space/webhooks/wh_nope')).status, 404);
    });

    test('the event log: types mapped from actions, filtered by type, paged by cursor; a failing test run is an event', async () => {
      for (const name of ['e1', 'e2', 'e3']) assert.equal((await admin('POST', '/api/space/keys', { type: 'solver', name })).status, 201);
      const first = await admin('GET', '/api/space/events?type=key.created&limit=2');
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.json.items.map((e: { type: string }) => e.type), ['key.created', 'key.created']);
      assert.deepEqual(first.json.items.map((e: { detail: { name: string } }) => e.detail.name), ['e3', 'e2'], 'newest first');
      const second = await admin('GET', `/api/space/events?type=key.created&limit=2&cursor=${encodeURIComponent(first.json.nextCursor as string)}`);
      assert.equal(second.json.items[0].detail.name, 'e1', 'the next page goes on where the first ended');

      const rules = await admin('GET', '/api/space/events?type=rule.created,rule.published');
      assert.deepEqual(rules.json.items.filter((e: { rule: { ruleId: string } }) => e.rule.ruleId === 'wh-rule').map((e: { type: string; action: string }) => `${e.type}<-${e.action}`),
        ['rule.published<-rule.publish', 'rule.created<-rule.create']);
      const unknown = await admin('GET', '/api/space/events?type=rule.exploded');
      assert.equal(unknown.status, 400);
      assert.match(unknown.json.error.message, /"rule.exploded" is no event type/);
      assert.equal((await admin('GET', '/api/space/activity?action=key.create')).json.items.length >= 3, true, 'the activity log answers as before');

      const suite = await admin('POST', '/api/tests/rule/wh-rule/suites', { name: 'Wrong', tests: [{ name: 'expects another answer', input: {}, expected: [{ nothing: true }] }] });
      assert.equal(suite.status, 200, suite.text);
      const run = await admin('POST', '/api/tests/run/wh-rule');
      assert.equal(run.json.failed, 1, run.text);
      const failed = await admin('GET', '/api/space/events?type=test.failed');
      assert.equal(failed.json.items.length, 1);
      assert.deepEqual([failed.json.items[0].rule.ruleId, failed.json.items[0].detail.runId, failed.json.items[0].actor.kind], ['wh-rule', run.json.id, 'key']);
    });

    test('a delivery written while no instance dispatches is sent after a restart', async () => {
      await server.close();
      const quiet = await startTestServer({ backend, env: { ...FAST, WEBHOOKS_ENABLED: 'false' }, services: NO_SCRIPTS });
      server = quiet;
      await webhook('/restart', ['settings.updated'], quiet);
      const settings = await quiet.call('PUT', '/api/space/settings', { key: quiet.space.managementKey, body: { approvals: false } });
      assert.equal(settings.status, 200, settings.text);
      await quiet.close();
      assert.equal(receiver.at('/restart').length, 0, 'nobody dispatched it yet');

      server = await startTestServer({ backend, env: FAST, services: NO_SCRIPTS });
      await eventually(async () => (receiver.at('/restart').length === 1 ? true : undefined));
      const [delivered] = receiver.at('/restart');
      assert.equal(delivered!.headers['x-verdict-event'], 'settings.updated');
      assert.ok(delivered!.signed);
    });

    test('secrets are sealed at rest; a new SECRETS_KEY seals them again at start; a wrong key is named in the log', async () => {
      const id = await webhook('/sealed', ['settings.updated']);
      const secret = receiver.secrets.get('/sealed')!;
      // A restart on the same database makes the test server a fresh space; the webhook's space keeps its key.
      const spaceKey = server.space.managementKey;
      const before = await storedSecret(backend, id);
      if (kind === 'sqlite') {
        assert.match(before, /^enc:v1:/, 'SQLite: sealed with the key file beside the database');
        assert.ok(!before.includes(secret.slice(6)));
      } else {
        assert.equal(before, secret, 'PostgreSQL without SECRETS_KEY: kept as it is (the start warned)');
        assert.ok(server.logs.some((l) => /SECRETS_KEY is not set/.test(String(l.msg))));
      }

      await server.close();
      const key = randomBytes(32).toString('hex');
      server = await startTestServer({ backend, env: { ...FAST, SECRETS_KEY: key }, services: NO_SCRIPTS });
      const resealed = await storedSecret(backend, id);
      assert.match(resealed, /^enc:v1:/);
      assert.notEqual(resealed, before, 'sealed again under SECRETS_KEY at start');
      assert.ok(server.logs.some((l) => l.msg === 'stored webhook secrets sealed with the current secrets key'));
      const tested = await server.call('POST', `/api/space/webhooks/${id}/test`, { key: spaceKey });
      assert.equal(tested.status, 202, tested.text);
      await eventually(async () => (receiver.at('/sealed').length === 1 ? true : undefined));
      assert.ok(receiver.at('/sealed')[0]!.signed, 'signed with the secret shown at creation');

      await server.close();
      server = await startTestServer({ backend, env: { ...FAST, SECRETS_KEY: randomBytes(32).toString('hex') }, services: NO_SCRIPTS });
      assert.ok(server.logs.some((l) => /sealed under a key this instance does not have/.test(String(l.msg)) && (l.webhooks as string[]).includes(id)));
      const again = await server.call('POST', `/api/space/webhooks/${id}/test`, { key: spaceKey });
      assert.equal(again.status, 202, again.text);
      const failed = await eventually(async () => {
        const page = await server.call('GET', `/api/space/webhooks/${id}/deliveries`, { key: spaceKey });
        const last = page.json.items[0] as Record<string, unknown>;
        return last.attempts === 1 ? last : undefined;
      });
      assert.match(String(failed.lastError), /not sent: the webhook secret was encrypted under a key this instance does not have/);
      assert.equal(receiver.at('/sealed').length, 1, 'nothing unsigned or wrongly signed was sent');
    });
  });
}

/** The webhook's secret as the database holds it. */
async function storedSecret(backend: Backend, id: string): Promise<string> {
  if (backend.kind === 'sqlite') {
    const db = new BetterSqlite3(backend.url.slice('sqlite:'.length), { readonly: true });
    try {
      return (db.prepare('SELECT secret FROM webhooks WHERE id = ?').get(id) as { secret: string }).secret;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: backend.url });
  await client.connect();
  try {
    return (await client.query<{ secret: string }>('SELECT secret FROM webhooks WHERE id = $1', [id])).rows[0]!.secret;
  } finally {
    await client.end();
  }
}
