// Where webhooks may send and how (issue 27): internal address ranges, the URL's text checked at save time, the
// resolved address checked again when a delivery connects (a public-looking name that resolves to loopback is
// refused and never reached), the Stripe-style signature, and the retry delays.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { retryDelayMs } from '../../src/service/webhooks/dispatcher.ts';
import { httpSender } from '../../src/service/webhooks/sender.ts';
import { signature } from '../../src/service/webhooks/signature.ts';
import { isInternalAddress, urlProblem } from '../../src/service/webhooks/targets.ts';

test('internal ranges: loopback, private, link-local, shared, IPv6 local and IPv4-mapped; public addresses pass', () => {
  for (const address of ['127.0.0.1', '127.9.9.9', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
    assert.equal(isInternalAddress(address), true, address);
  }
  for (const address of ['8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(isInternalAddress(address), false, address);
  }
});

test('URL text: refused in internal ranges unless WEBHOOKS_ALLOW names the host (with its port when given)', () => {
  assert.equal(urlProblem('https://hooks.example.com/in', []), undefined);
  assert.match(urlProblem('http://127.0.0.1:9000/x', []) ?? '', /127\.0\.0\.1:9000 is in a loopback or private range/);
  assert.equal(urlProblem('http://127.0.0.1:9000/x', ['127.0.0.1']), undefined);
  assert.equal(urlProblem('http://127.0.0.1:9000/x', ['127.0.0.1:9000']), undefined);
  assert.match(urlProblem('http://127.0.0.1:9001/x', ['127.0.0.1:9000']) ?? '', /WEBHOOKS_ALLOW/);
  assert.match(urlProblem('http://localhost/x', []) ?? '', /loopback or private/);
  assert.match(urlProblem('http://app.localhost/x', []) ?? '', /loopback or private/);
  assert.equal(urlProblem('http://localhost/x', ['localhost']), undefined);
  assert.match(urlProblem('http://[::ffff:7f00:1]/x', []) ?? '', /loopback or private/);
});

test('send time: a name resolving to loopback is refused before connecting unless allowed; allowed, it is signed and sent', async () => {
  const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => { seen.push({ headers: req.headers, body }); res.writeHead(204).end(); });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    const request = { url: `http://localhost:${port}/in`, secret: 'whsec_test', deliveryId: 'dlv_1', eventType: 'rule.published', body: '{"a":1}', unixSeconds: 1_700_000_000 };
    const refused = await httpSender({ allow: [], timeoutMs: 5000 })(request);
    assert.equal(refused.delivered, false);
    assert.equal(refused.statusCode, null);
    assert.match(refused.error ?? '', /localhost resolves to (127\.0\.0\.1|::1), in a loopback or private range/);
    assert.equal(seen.length, 0, 'the receiver was never reached');
    const literal = await httpSender({ allow: [], timeoutMs: 5000 })({ ...request, url: `http://127.0.0.1:${port}/in` });
    assert.match(literal.error ?? '', /127\.0\.0\.1:\d+ is in a loopback or private range/);

    const sent = await httpSender({ allow: ['127.0.0.1'], timeoutMs: 5000 })({ ...request, url: `http://127.0.0.1:${port}/in` });
    assert.deepEqual(sent, { statusCode: 204, error: null, delivered: true });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.body, '{"a":1}');
    assert.equal(seen[0]!.headers['x-verdict-event'], 'rule.published');
    assert.equal(seen[0]!.headers['x-verdict-delivery'], 'dlv_1');
    assert.equal(seen[0]!.headers['x-verdict-signature'], signature('whsec_test', 1_700_000_000, '{"a":1}'));
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
  const mac = createHmac('sha256', 's3cret').update('1700000000.{"x":true}').digest('hex');
  assert.equal(signature('s3cret', 1_700_000_000, '{"x":true}'), `t=1700000000,v1=${mac}`);
});

test('retry delays double from the base and stop growing at an hour', () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => retryDelayMs(n, 30_000)), [30_000, 60_000, 120_000, 240_000]);
  assert.equal(retryDelayMs(30, 30_000), 3_600_000);
});

test('an attempt without an answer within the time limit fails naming WEBHOOKS_TIMEOUT_MS', async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as AddressInfo).port;
  try {
    const result = await httpSender({ allow: ['127.0.0.1'], timeoutMs: 200 })({ url: `http://127.0.0.1:${port}/`, secret: 's', deliveryId: 'd', eventType: 't', body: '{}', unixSeconds: 1 });
    assert.deepEqual(result, { statusCode: null, error: 'no answer within 200 ms (WEBHOOKS_TIMEOUT_MS)', delivered: false });
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});
