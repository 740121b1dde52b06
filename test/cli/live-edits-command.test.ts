// verdict space live-edits NAME allowed|forbidden (issue 26, docs/decisions/live-edits.md): sets the space setting
// the management API enforces, names an unknown space, and refuses any other word before opening the store.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withServices } from '../../src/server/one-shot.ts';
import { runCli as runStoreCli } from '../http/process.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { parseInProcess } from './helpers.ts';

describe('verdict space live-edits', () => {
  let backend: Backend;
  const cli = (...args: string[]) => runStoreCli(args, { DATABASE_URL: backend.url });
  const liveEdits = () => withServices(async (services) => (await services.spaces.settings('acme')).liveEdits, { DATABASE_URL: backend.url });

  before(async () => {
    backend = sqliteBackend();
    await withServices(async (services) => {
      await services.spaces.create('acme');
    }, { DATABASE_URL: backend.url });
  });
  after(async () => {
    await backend.cleanup();
  });

  test('forbidden and allowed are stored and printed; an unknown space is named; another word is a usage error', async () => {
    assert.equal(await liveEdits(), 'allowed', 'a space allows live edits until told otherwise');
    const forbid = await cli('space', 'live-edits', 'acme', 'forbidden');
    assert.equal(forbid.code, 0, forbid.stderr);
    assert.equal(forbid.stdout, 'live edits of published versions in space acme: forbidden\n');
    assert.equal(await liveEdits(), 'forbidden');
    const allow = await cli('space', 'live-edits', 'acme', 'Allowed');
    assert.equal(allow.stdout, 'live edits of published versions in space acme: allowed\n');
    assert.equal(await liveEdits(), 'allowed');
    const unknown = await cli('space', 'live-edits', 'nope', 'forbidden');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'verdict: space "nope" does not exist\n');
    const bad = await parseInProcess(['space', 'live-edits', 'acme', 'maybe']);
    assert.equal(bad.code, 2);
  });
});
