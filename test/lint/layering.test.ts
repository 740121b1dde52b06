// The layering lint rule (eslint.layers.js) fires: each fixture in test/lint-fixtures/src/<folder>/ is linted as
// if it were a file of src/<folder>/, and must raise exactly the rule its first line names (or none). The fixtures
// are ignored by the normal lint run and by the type check; only this test reads them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'test/lint-fixtures/src');

function fixtures(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? fixtures(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

function expectation(text: string, file: string): string | undefined {
  const match = /^\/\/ expect: (\S+)/.exec(text);
  assert.ok(match, `${file} must start with "// expect: <rule>|none"`);
  return match[1] === 'none' ? undefined : match[1];
}

describe('the layering lint rule', () => {
  let eslint: ESLint;
  before(() => {
    // The virtual files are not part of the TypeScript project: parse them without type information (the layering
    // rules need none) and turn off the rules that do.
    eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false, project: null } },
        rules: { '@typescript-eslint/no-floating-promises': 'off' },
      },
    });
  });

  const files = fixtures(FIXTURES);
  test('there are fixtures for every adapter, the engine, the rules and the root', () => {
    const folders = new Set(files.map((file) => relative(FIXTURES, file).split('/')[0]));
    for (const folder of ['engine', 'rules', 'formats', 'service', 'store', 'http', 'kafka', 'cli', 'mcp', 'server']) assert.ok(folders.has(folder), folder);
  });

  for (const file of files) {
    const name = relative(FIXTURES, file);
    test(`src/${name}`, async () => {
      const text = readFileSync(file, 'utf8');
      const expected = expectation(text, name);
      const [result] = await eslint.lintText(text, { filePath: join(ROOT, 'src', name) });
      const fired = result!.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
      if (expected === undefined) {
        assert.deepEqual(fired, [], `src/${name} breaks no layering rule`);
        return;
      }
      assert.equal(fired.length, 1, `exactly one error expected, got ${JSON.stringify(fired)}`);
      assert.ok(fired[0]!.startsWith(`${expected}: `), fired[0]);
      // The message says which layer rule was broken, so whoever breaks it knows where to read.
      assert.match(fired[0]!, /src\/[a-z-]+ |composition root/);
    });
  }
});
