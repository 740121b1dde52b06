// The store commands of the CLI as a user runs them: space create, key create/revoke/list, import, export,
// audit purge; --json prints one JSON object; bad arguments exit 2.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { messageTable, plantTable } from '../http/fixtures.ts';
import { runCli } from '../http/process.ts';
import { parseInProcess } from '../cli/helpers.ts';

describe('verdict store commands', () => {
  let backend: Backend;
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: backend.url });

  before(() => {
    backend = sqliteBackend();
    dir = mkdtempSync(join(tmpdir(), 'verdict-cli-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await backend.cleanup();
  });

  test('space create --json prints the space and both keys, once', async () => {
    const result = await cli('space', 'create', 'acme', '--json');
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(printed), ['space', 'solverKey', 'managementKey']);
    assert.equal(printed.space, 'acme');
    assert.match(printed.solverKey!, /^vsk_/);
    assert.match(printed.managementKey!, /^vmk_/);
    const again = await cli('space', 'create', 'acme');
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), 'verdict: space "acme" already exists');
  });

  test('key create --json, key list, key revoke', async () => {
    const created = await cli('key', 'create', '--space', 'acme', '--type', 'management', '--json');
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(key), ['id', 'space', 'type', 'name', 'key']);
    assert.equal(key.type, 'management');
    assert.equal(key.name, null, 'a key created without --name has none');
    const revoked = await cli('key', 'revoke', key.id!);
    assert.equal(revoked.code, 0, revoked.stderr);
    const listed = JSON.parse((await cli('key', 'list', '--space', 'acme', '--json')).stdout) as Array<{ id: string; revokedAt: string | null }>;
    assert.equal(listed.length, 3);
    assert.ok(listed.find((k) => k.id === key.id)?.revokedAt);
    assert.equal(JSON.stringify(listed).includes(key.key!), false, 'keys are never listed');
    const twice = await cli('key', 'revoke', key.id!);
    assert.equal(twice.code, 1);
  });

  test('key create --name and space create --key-name name keys; key list shows the names; a bad name is a usage error', async () => {
    const named = await cli('key', 'create', '--space', 'acme', '--type', 'management', '--name', '  Alice (pricing team) ', '--json');
    assert.equal(named.code, 0, named.stderr);
    const key = JSON.parse(named.stdout) as Record<string, string>;
    assert.equal(key.name, 'Alice (pricing team)');
    const space = await cli('space', 'create', 'named-keys', '--key-name', 'ci-bot', '--json');
    assert.equal(space.code, 0, space.stderr);
    const listed = JSON.parse((await cli('key', 'list', '--space', 'named-keys', '--json')).stdout) as Array<{ type: string; name: string | null }>;
    assert.deepEqual(listed.map((k) => k.name), ['ci-bot', 'ci-bot']);
    assert.match((await cli('key', 'list', '--space', 'acme')).stdout, /\tmanagement\tAlice \(pricing team\)\t/);
    const bad = await cli('key', 'create', '--space', 'acme', '--type', 'solver', '--name', 'x'.repeat(101));
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--name: key name "x+" is invalid: a key name is 1-100 characters without control characters/);
  });

  // Refused by the command line itself, before the store is opened: parsed in this process, by the program a
  // process runs (the refusals above and below, found by the commands, come from real processes).
  test('bad arguments exit 2 with one line', async () => {
    for (const args of [['key', 'create', '--space', 'acme'], ['key', 'create', '--space', 'acme', '--type', 'admin'], ['import', 'x.json'], ['space', 'create']]) {
      const result = await parseInProcess(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    }
  });

  test('import a directory (all or nothing), export it, re-import the export elsewhere', async () => {
    const source = join(dir, 'rules');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(source, 'nested'), { recursive: true });
    writeFileSync(join(source, 'plants.json'), JSON.stringify(plantTable()));
    writeFileSync(join(source, 'nested', 'messages.json'), JSON.stringify([messageTable('m', 'msg', 1, 'one'), messageTable('m', 'msg', 2, 'two')]));
    const imported = await cli('import', source, '--space', 'acme', '--json');
    assert.equal(imported.code, 0, imported.stderr);
    const { imported: rules } = JSON.parse(imported.stdout) as { imported: Array<Record<string, unknown>> };
    assert.deepEqual(rules.map((r) => [r.ruleAlias, r.version, r.type]).sort(), [
      ['msg', 1, 'decision-table'],
      ['msg', 2, 'decision-table'],
      ['plant-items', 1, 'decision-table'],
    ]);

    writeFileSync(join(source, 'bad.json'), JSON.stringify({ name: 'No type' }));
    const refused = await cli('import', source, '--space', 'acme');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /bad\.json/);

    const out = join(dir, 'export');
    const exported = await cli('export', '--space', 'acme', out);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(readdirSync(out).sort(), ['msg_v1.json', 'msg_v2.json', 'plant-items_v1.json']);

    const folder = await cli('export', '--space', 'acme');
    const exportFile = join(dir, 'folder-export.json');
    writeFileSync(exportFile, folder.stdout);
    assert.equal((await cli('space', 'create', 'copy')).code, 0);
    const reimported = JSON.parse((await cli('import', exportFile, '--space', 'copy', '--json')).stdout) as { imported: unknown[] };
    assert.equal(reimported.imported.length, 3);
  });

  test('audit purge --json', async () => {
    const result = await cli('audit', 'purge', '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { deleted: 0 });
  });
});
