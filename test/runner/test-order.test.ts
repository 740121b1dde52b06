// The suite runner's file order (scripts/test-order/order.ts): longest first by the last run's timings, else by the
// checked-in slow list, else as given; and the timings reporter's file durations, from a real node:test run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { longestFirst, readSlowList, readTimings, slowListFile } from '../../scripts/test-order/order.ts';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'verdict-test-order-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('measured files go longest first, listed ones by their rank, the rest keep their order after them', () => {
  const files = ['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts', 'e.test.ts', 'f.test.ts'];
  const timings = { 'a.test.ts': 1000, 'c.test.ts': 9000, 'f.test.ts': 3000 };
  // A listed file without a measurement counts as long as the longest measured one, and goes before it.
  assert.deepEqual(longestFirst(files, timings, ['e.test.ts', 'b.test.ts']), ['e.test.ts', 'b.test.ts', 'c.test.ts', 'f.test.ts', 'a.test.ts', 'd.test.ts']);
  assert.deepEqual(longestFirst(files, {}, ['d.test.ts', 'x.test.ts']), ['d.test.ts', 'a.test.ts', 'b.test.ts', 'c.test.ts', 'e.test.ts', 'f.test.ts']);
  assert.deepEqual(longestFirst(files, {}, []), files);
});

test('timings that are missing, unreadable or not numbers are ignored, never an error', () => {
  assert.deepEqual(readTimings(join(dir, 'none.json')), {});
  for (const [name, text] of [['bad.json', '{ not json'], ['array.json', '[1, 2]'], ['null.json', 'null']]) {
    writeFileSync(join(dir, name!), text!);
    assert.deepEqual(readTimings(join(dir, name!)), {}, name);
  }
  writeFileSync(join(dir, 'mixed.json'), JSON.stringify({ 'a.test.ts': 12, 'b.test.ts': 'slow', 'c.test.ts': -1 }));
  assert.deepEqual(readTimings(join(dir, 'mixed.json')), { 'a.test.ts': 12 });
});

test('the checked-in slow list names test files that exist, each once', () => {
  const listed = readSlowList(slowListFile(root));
  assert.ok(listed.length > 0);
  assert.equal(new Set(listed).size, listed.length, 'no file twice');
  for (const file of listed) assert.ok(existsSync(join(root, file)) && file.endsWith('.test.ts'), `${file} is a test file`);
});

/** scripts/test-order/run.ts on `files` (absolute paths), one at a time, as its own node:test run. */
function runOrdered(files: string[], out: string) {
  // Not a child of this run: NODE_TEST_CONTEXT would make it report to this runner instead.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, [join(root, 'scripts', 'test-order', 'run.ts'), '1', join(dir, 'setup.mjs'), out, ...files], { cwd: dir, encoding: 'utf8', env });
}

test('the ordered run starts the files in the order given (node --test would sort them), and writes their durations', () => {
  const log = join(dir, 'order.log');
  const append = (line: string) => `appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(`${line}\n`)})`;
  writeFileSync(join(dir, 'setup.mjs'), `import { appendFileSync } from 'node:fs';\nexport function globalSetup() { ${append('setup')}; }\nexport function globalTeardown() { ${append('teardown')}; }\n`);
  const file = (name: string, body: string) => {
    writeFileSync(join(dir, name), `import { appendFileSync } from 'node:fs';\nimport { describe, test } from 'node:test';\n${body}\n`);
    return join(dir, name);
  };
  const slow = file('z-slow.test.mjs', `test('waits', async () => { ${append('z-slow')}; await new Promise((resolve) => setTimeout(resolve, 300)); });`);
  const quick = file('a-quick.test.mjs', `describe('d', () => { test('t', () => { ${append('a-quick')}; }); });`);
  const out = join(dir, 'timings.json');
  const run = runOrdered([slow, quick], out);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /pass 2/);
  assert.deepEqual(readFileSync(log, 'utf8').split('\n').filter(Boolean), ['setup', 'z-slow', 'a-quick', 'teardown']);
  const timings = readTimings(out);
  assert.deepEqual(Object.keys(timings).sort(), ['a-quick.test.mjs', 'z-slow.test.mjs']);
  assert.ok(timings['z-slow.test.mjs']! >= 300, `the slow file's ${timings['z-slow.test.mjs']} ms include its 300 ms test`);

  const failing = file('failing.test.mjs', `test('fails', () => { throw new Error('planted failure'); });`);
  const failed = runOrdered([failing, quick], join(dir, 'failed.json'));
  assert.equal(failed.status, 1, 'a failing test fails the run');
  assert.match(failed.stdout, /planted failure/);
});
