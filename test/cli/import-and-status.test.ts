// `verdict import` as a user reads it (one line per rule version with alias and status; a warning when an alias
// becomes shared; --strict refusing that), and `verdict rule publish|pending`, checked by solving the rule through
// the same services the server uses.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { withServices } from '../../src/server/one-shot.ts';
import { messageTable } from '../http/fixtures.ts';
import { runCli } from '../http/process.ts';
import { parseInProcess } from './helpers.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

describe('verdict import reporting and verdict rule publish|pending', () => {
  let backend: Backend;
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: backend.url });
  const file = (name: string, value: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  /** The message the rule answers, or the error message solving it gives. */
  const solve = (idOrAlias: string, version?: number): Promise<string> =>
    withServices(async (services) => {
      try {
        const response = await services.solver.solve(
          { keyId: 'test', space: 'acme', type: 'solver', role: 'solver' as const, actor: { kind: 'key' as const, id: 'k', name: 'k' } },
          { idOrAlias, version, data: { any: 1 }, correlationId: randomUUID() },
        );
        return String((response.body as Array<{ message: unknown }>)[0]?.message);
      } catch (err) {
        return `error: ${(err as Error).message}`;
      }
    }, { DATABASE_URL: backend.url });

  before(async () => {
    backend = sqliteBackend();
    dir = mkdtempSync(join(tmpdir(), 'verdict-cli-import-'));
    // Through the services the commands use, in this process: `verdict space create` is cli-store-commands.test.ts's.
    await withServices((services) => services.spaces.create('acme'), { DATABASE_URL: backend.url });
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await backend.cleanup();
  });

  test('import prints one line per rule version with its alias and status', async () => {
    const result = await cli('import', file('greet.json', [messageTable('greet-id', 'greet', 1, 'hello'), messageTable('greet-id', 'greet', 2, 'hello v2', 'pending')]), '--space', 'acme');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(result.stdout.trim().split('\n'), [
      'imported decision-table greet (id greet-id) version 1: published',
      'imported decision-table greet (id greet-id) version 2: pending (not solvable until: verdict rule publish greet-id --version 2 --space acme)',
    ]);
  });

  test('publish makes a pending version solvable; pending makes it unsolvable again', async () => {
    assert.equal(await solve('greet', 2), 'error: Rule state is not published');
    assert.equal(await solve('greet'), 'hello', 'the latest published version answers meanwhile');

    const published = await cli('rule', 'publish', 'greet', '--space', 'acme');
    assert.equal(published.code, 0, published.stderr);
    assert.equal(published.stdout, 'rule greet (id greet-id) version 2: published\n', 'without --version: the latest version');
    assert.equal(await solve('greet', 2), 'hello v2');
    assert.equal(await solve('greet'), 'hello v2');

    const pending = await cli('rule', 'pending', 'greet-id', '--version', '1', '--space', 'acme', '--json');
    assert.equal(pending.code, 0, pending.stderr);
    assert.deepEqual(JSON.parse(pending.stdout), { ruleId: 'greet-id', version: 1, ruleAlias: 'greet', status: 'pending' });
    assert.equal(await solve('greet', 1), 'error: Rule state is not published');
  });

  test('bad RULE, version or space: exit 1 with one line naming it', async () => {
    const cases: Array<[string[], string]> = [
      [['rule', 'publish', 'nope', '--space', 'acme'], 'verdict: Rule "nope" not found (space "acme")'],
      [['rule', 'publish', 'greet', '--version', '9', '--space', 'acme'], 'verdict: Rule "greet-id" has no version 9 (space "acme")'],
      [['rule', 'pending', 'greet', '--version', 'two', '--space', 'acme'], 'verdict: --version "two" must be an integer from 1 to 2147483647'],
      [['rule', 'publish', 'greet', '--space', 'nowhere'], 'verdict: space "nowhere" does not exist'],
    ];
    for (const [args, line] of cases) {
      const result = await cli(...args);
      assert.equal(result.code, 1, args.join(' '));
      assert.equal(result.stderr, `${line}\n`);
      assert.equal(result.stdout, '');
    }
    assert.equal((await parseInProcess(['rule', 'publish', '--space', 'acme'])).code, 2, 'a missing RULE is a usage error');
  });

  test('an import that makes an alias shared warns, and --strict refuses it with nothing imported', async () => {
    const clash = file('clash.json', messageTable('other-greet-id', 'greet', 1, 'other'));
    const strict = await cli('import', clash, '--space', 'acme', '--strict');
    assert.equal(strict.code, 1);
    assert.equal(
      strict.stderr,
      'verdict: ruleAlias: "greet" would be used by 2 rules in space "acme" (greet-id, other-greet-id), so solving by this alias would fail; nothing was imported\n',
    );
    assert.equal(await solve('other-greet-id'), 'error: Unknown rule or rule version', 'nothing imported');
    assert.equal(await solve('greet'), 'hello v2');

    const lenient = await cli('import', clash, '--space', 'acme');
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.equal(lenient.stdout, 'imported decision-table greet (id other-greet-id) version 1: published\n');
    assert.equal(
      lenient.stderr,
      'verdict: warning: alias "greet" is now used by 2 rules in space "acme" (greet-id, other-greet-id); solving by this alias fails, solve by rule id\n',
    );
    assert.match(await solve('greet'), /^error: .*ambiguous/);
    assert.equal(await solve('other-greet-id'), 'other');
  });

  test('re-importing a rule over itself does not count as sharing its alias', async () => {
    const solo = file('solo.json', messageTable('solo-id', 'solo', 1, 'a'));
    for (const round of [1, 2]) {
      const result = await cli('import', solo, '--space', 'acme', '--strict', '--json');
      assert.equal(result.code, 0, `round ${round}: ${result.stderr}`);
      assert.deepEqual(JSON.parse(result.stdout), {
        imported: [{ ruleId: 'solo-id', version: 1, ruleAlias: 'solo', type: 'decision-table', status: 'published' }],
        sharedAliases: [],
      });
    }
  });
});
