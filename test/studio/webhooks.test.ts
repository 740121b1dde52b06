// The Studio's Webhooks page and event log (issue 27, item 5) in Chromium against a real server and a receiver on
// 127.0.0.1: create a webhook (the secret shown once), send a test event that the receiver first answers 500 and
// then takes on the retry, see both in the delivery log, redeliver it; and the Activity page filtered by event type.
// Controls by role and accessible name only.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromiumSkip, screenshot, StudioSuite, withFailureShot } from './support.ts';

const skip = chromiumSkip();

describe('Verdict Studio webhooks and event log in Chromium', { skip }, () => {
  const suite = new StudioSuite({ WEBHOOKS_ALLOW: '127.0.0.1', WEBHOOKS_POLL_MS: '50', WEBHOOKS_RETRY_BASE_MS: '50' });
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const answers = [500];
  let receiver: Server;
  let url = '';

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/verdict-events`;
  });
  after(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('Webhooks: create (secret once), send a test event retried after a 500, the delivery log, redeliver', async () => {
    const { page, assertClean, close } = await suite.signedIn('#/webhooks');
    await withFailureShot(page, 'webhooks', async () => {
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByText('No webhooks in this space').waitFor();
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create webhook' });
      await dialog.getByLabel('Receiver URL').fill(url);
      await dialog.getByRole('checkbox', { name: 'key.created' }).check();
      assert.ok(await dialog.getByRole('checkbox', { name: 'rule.published' }).isChecked(), 'rule.published is offered checked');
      await screenshot(page, 'webhook-create');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      const created = page.getByRole('dialog', { name: 'Webhook created' });
      const secret = await created.getByLabel('Signing secret').inputValue();
      assert.match(secret, /^whsec_/);
      await screenshot(page, 'webhook-secret');
      await created.getByRole('button', { name: 'Done' }).click();
      const hooks = page.getByRole('table', { name: 'Webhooks' });
      await hooks.getByRole('row', { name: /rule\.published, key\.created/ }).waitFor();
      assert.ok(!(await page.content()).includes(secret), 'the secret is not on the page once the dialog is closed');

      await hooks.getByRole('button', { name: `Send test event to ${url}` }).click();
      const log = page.getByRole('table', { name: 'Deliveries' });
      // The receiver answers 500 first; the retry is taken and the log refreshes itself to show it.
      await log.getByRole('row', { name: /webhook\.test delivered HTTP 200/ }).waitFor();
      assert.equal(received.length, 2, 'the 500, then the retry');
      const [first, second] = received;
      assert.equal(first!.headers['x-verdict-delivery'], second!.headers['x-verdict-delivery']);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(second!.headers['x-verdict-signature']))!;
      assert.equal(createHmac('sha256', secret).update(`${t}.${second!.body}`).digest('hex'), v1, 'signed with the secret shown once');
      await screenshot(page, 'webhooks');

      await log.getByRole('button', { name: /^Redeliver dlv_/ }).click();
      await log.getByRole('row', { name: /redelivers dlv_/ }).getByText('delivered').waitFor();
      assert.equal(received.length, 3);
      assert.equal(received[2]!.body, second!.body, 'the same event again');
      assertClean();
    });
    await close();
  });

  test('Activity: the event log filtered by event type', async () => {
    await suite.api('POST', '/api/space/keys', { type: 'solver', name: 'event-log key' });
    const { page, assertClean, close } = await suite.signedIn('#/activity');
    await withFailureShot(page, 'event-log', async () => {
      const table = page.getByRole('table', { name: 'Activity' });
      await table.getByRole('cell', { name: 'key.created' }).first().waitFor();
      await page.getByLabel('Event type').selectOption('key.created');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await table.getByRole('cell', { name: 'key.created' }).first().waitFor();
      const rows = (await table.getByRole('row').all()).slice(1);
      const types = await Promise.all(rows.map((row) => row.getByRole('cell').nth(2).innerText()));
      assert.ok(types.length > 0 && types.every((t) => t === 'key.created'), `only key.created: ${types.join(', ')}`);
      await screenshot(page, 'event-log');
      assertClean();
    });
    await close();
  });
});
