// What users read must only point at what they can open: the OpenAPI documents, `verdict ... --help`, README.md
// and docs/ never cite sections of the requirements document ("SPEC 3.1"), which is not in the repository.
// Code comments may (they are for developers).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';
import { ROOT } from '../http/process.ts';
import { parseInProcess } from '../cli/helpers.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

const SPEC_REFERENCE = /SPEC\b/;

/** Each line citing SPEC, as `where: line`, so a failure says what to fix. */
function specLines(where: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (SPEC_REFERENCE.test(line) ? [`${where}:${i + 1}: ${line.trim()}`] : []));
}

/** The subcommands a help text lists under "Commands:" (without `help`). */
function subcommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

describe('user-facing text cites no SPEC sections', () => {
  let backend: Backend;
  let server: TestServer;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend });
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  for (const path of ['/api/solver/docs/json', '/api/docs/json']) {
    test(`the OpenAPI document ${path}`, async () => {
      const doc = await server.call('GET', path);
      assert.equal(doc.status, 200);
      assert.ok(doc.text.includes('"paths"'), 'a document with paths');
      assert.deepEqual(specLines(path, JSON.stringify(doc.json, null, 1)), []);
    });
  }

  // The help texts are read from the program `verdict` runs, in this process: a process per text (over thirty)
  // would add nothing to what is checked here, the text (test/cli/solve.test.ts starts `verdict --help` for real).
  test('verdict --help and every subcommand --help', async () => {
    const found: string[] = [];
    let seen = 0;
    const visit = async (command: string[]): Promise<void> => {
      const result = await parseInProcess([...command, '--help']);
      assert.equal(result.code, 0, `${command.join(' ')} --help: ${result.stderr}`);
      seen++;
      found.push(...specLines(['verdict', ...command, '--help'].join(' '), result.stdout));
      await Promise.all(subcommands(result.stdout).map((name) => visit([...command, name])));
    };
    await visit([]);
    assert.ok(seen >= 15, `walked ${seen} help texts (every command and subcommand)`);
    assert.deepEqual(found, []);
  });

  test('README.md and every docs/**/*.md', () => {
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
    assert.ok(files.includes(join('docs', 'kafka.md')) && files.some((f) => f.startsWith(join('docs', 'decisions'))), 'docs/ and docs/decisions/ are read');
    assert.deepEqual(files.flatMap((file) => specLines(file, readFileSync(join(ROOT, file), 'utf8'))), []);
  });
});
