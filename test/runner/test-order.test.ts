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

test('the timings reporter writes each file\'s duration, which covers its tests', () => {
  const a = join(dir, 'slow.test.mjs');
  const b = join(dir, 'quick.test.mjs');
  writeFileSync(a, "import { test } from 'node:test';\ntest('waits', () => new Promise((resolve) => setTimeout(resolve, 300)));\n");
  writeFileSync(b, "import { describe, test } from 'node:test';\ndescribe('d', () => { test('t', () => {}); });\n");
  const out = join(dir, 'timings.json');
  // A node:test run of its own, not a child of this one (NODE_TEST_CONTEXT would make it report to this runner).
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(
    process.execPath,
    ['--test', `--test-reporter=${join(root, 'scripts', 'test-order', 'timings-reporter.ts')}`, `--test-reporter-destination=${out}`, a, b],
    { cwd: dir, encoding: 'utf8', env },
  );
  assert.equal(run.status, 0, run.stderr);
  const timings = readTimings(out);
  assert.deepEqual(Object.keys(timings).sort(), ['quick.test.mjs', 'slow.test.mjs']);
  assert.ok(timings['slow.test.mjs']! >= 300, `the slow file's ${timings['slow.test.mjs']} ms include its 300 ms test`);
  assert.ok(JSON.parse(readFileSync(out, 'utf8')));
});
