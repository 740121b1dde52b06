// The Studio's Jobs page in real Chromium, through accessible names: a job started from a file waits (no worker
// yet) and is canceled; with the worker running, a job started from an NDJSON file completes (its progress bar
// full) and its results download as one line per input, in input order.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { chromiumSkip, screenshot, StudioSuite, withFailureShot } from './support.ts';
import { messageTable } from '../http/fixtures.ts';

const skip = chromiumSkip();
const FILES = mkdtempSync(path.join(tmpdir(), 'verdict-jobs-files-'));

describe('Studio: jobs', { skip }, () => {
  // No worker at first: the first job stays Waiting until the test cancels it.
  const suite = new StudioSuite({ JOBS_ENABLED: 'false' });
  const { api } = suite;

  test('start from a file, cancel a waiting job, follow one to Completed and download its results', async () => {
    await api('POST', '/api/rule', messageTable('rule-greeting', 'greeting', 1, 'hello'));
    const inputs = path.join(FILES, 'inputs.ndjson');
    writeFileSync(inputs, '{"n": 1}\n{"n": 2}\n{"n": 3}\n');
    const { page, assertClean, close } = await suite.signedIn('#/jobs');
    await withFailureShot(page, 'jobs', async () => {
      await page.getByRole('heading', { name: 'Jobs' }).waitFor();
      const form = page.getByRole('form', { name: 'Start a job' });
      await form.getByLabel('Rule version').selectOption({ label: 'Message greeting (greeting) v1' });
      await form.getByLabel('Inputs file').setInputFiles(inputs);
      await form.getByRole('button', { name: 'Start job' }).click();
      const table = page.getByRole('table', { name: 'Jobs' });
      const waiting = table.getByRole('row').filter({ hasText: 'Waiting' });
      await waiting.waitFor();
      await waiting.getByRole('button', { name: 'Cancel' }).click();
      await table.getByRole('row').filter({ hasText: 'Canceled' }).waitFor();

      suite.studio.server.running.services.jobs.worker.start();
      await form.getByRole('button', { name: 'Start job' }).click();
      const completed = table.getByRole('row').filter({ hasText: 'Completed' });
      await completed.waitFor();
      assert.equal(await completed.getByRole('progressbar', { name: 'Progress of job greeting v1' }).getAttribute('value'), '100');
      await screenshot(page, 'jobs');
      const download = page.waitForEvent('download');
      await completed.getByRole('button', { name: 'Download results' }).click();
      const file = path.join(FILES, 'results.ndjson');
      await (await download).saveAs(file);
      assert.equal(readFileSync(file, 'utf8'), '[{"message":"hello"}]\n'.repeat(3));
    });
    assertClean();
    await close();
  });
});
