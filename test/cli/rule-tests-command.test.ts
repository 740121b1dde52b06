// `verdict test` as CI runs it: offline on rule and tests files (exit codes 0/1/2, spec, TAP and JUnit reports,
// --output, --rules DIR), against a store (--space, --rule, --version), the publishing gate from the command line,
// and tests travelling with `verdict export` / `verdict import`.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import { withServices } from '../../src/server/one-shot.ts';
import { messageTable, plantTable } from '../http/fixtures.ts';
import { runCli as runStoreCli } from '../http/process.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { parseInProcess, readFixture, removeTempDirs, runCli, runInProcess, tempDir } from './helpers.ts';

after(removeTempDirs);

const PLANTS = [{ name: 'Monstera', price: 460 }, { name: 'Begonia', price: 590 }];
const passing = { name: 'plants', input: { group: 'plant' }, expected: PLANTS };
const failing = { name: 'wrong price', input: { group: 'plant' }, expected: [{ name: 'Monstera', price: 1 }, { name: 'Begonia', price: 590 }] };

/** Child elements of `parent` with this tag name. */
function children(parent: any, tag: string): any[] {
  return Array.from(parent.childNodes as ArrayLike<any>).filter((n) => n.nodeType === 1 && n.tagName === tag);
}

function parseXml(text: string): any {
  // xmldom throws on malformed XML (onError: fatal errors and errors both end the parse).
  const doc = new DOMParser({ onError: (level, message) => { if (level !== 'warning') throw new Error(`XML ${level}: ${message}`); } }).parseFromString(text, 'text/xml');
  return doc.documentElement;
}

// The first two tests start real processes (the exit codes and output a CI job sees); the rest run the same program
// in this process (runInProcess, parseInProcess), which proves the same without a Node start per case.
describe('verdict test offline', { concurrency: 4 }, () => {
  test('every test passing: exit 0, a spec report ending in the counts', async () => {
    const dir = tempDir({ 'plants.json': plantTable(), 'plants.tests.json': { tests: [passing] } });
    const run = await runCli(['test', join(dir, 'plants.json'), join(dir, 'plants.tests.json')]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.match(run.stdout, /^plant-items v1\n {2}plants\.tests\n {4}✔ plants \(\d+\.\d ms\)\n1 passed, 0 failed\n$/);
  });

  test('a failing test: exit 1, each differing path with expected and received, and a line on stderr', async () => {
    const dir = tempDir({ 'plants.json': plantTable(), 'tests.json': { suites: [{ name: 'Prices', tests: [passing, failing] }] } });
    const run = await runCli(['test', join(dir, 'plants.json'), join(dir, 'tests.json')]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, / {4}✖ wrong price \(.*\)\n {8}\[0\]\.price: expected 1, received 460\n/);
    assert.match(run.stdout, /\n1 passed, 1 failed\n$/);
    assert.equal(run.stderr, 'verdict: 1 of 2 tests did not pass\n');
  });

  test('ignored paths and strategies are honoured', async () => {
    const tests = {
      tests: [
        { ...failing, name: 'price ignored', ignore: ['price'] },
        { name: 'first match', input: { group: 'plant' }, expected: [{ name: 'Monstera', price: 460 }], strategy: 'FIRST_MATCH' },
      ],
    };
    const dir = tempDir({ 'plants.json': plantTable(), 't.json': tests });
    const run = await runInProcess(['test', join(dir, 'plants.json'), join(dir, 't.json')]);
    assert.equal(run.code, 0, run.stdout);
  });

  test('bad usage exits 2 with one line; a broken tests file exits 1 naming each problem', async () => {
    const dir = tempDir({ 'plants.json': plantTable(), 'bad.json': { tests: [{ name: '', expected: 5 }] } });
    const rule = join(dir, 'plants.json');
    const usage = [
      [[], /give --space S to run stored tests, or RULE\.json/],
      [[rule, '--space', 'x'], /not both/],
      [[rule, join(dir, 'bad.json'), '--reporter', 'xml'], /unknown reporter "xml" \(expected spec, tap, junit\)/],
      [[rule, join(dir, 'bad.json'), '--version', '2'], /--version works with --space/],
      [[rule], /carries no "testSuites"; give the tests file too/],
    ] as const;
    for (const [args, message] of usage) {
      // --space names a store: refused before it is opened, but only a process may be pointed at one.
      const run = await ((args as readonly string[]).includes('--space') ? runCli : runInProcess)(['test', ...args]);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split('\n').length, 1);
    }
    const broken = await runInProcess(['test', rule, join(dir, 'bad.json')]);
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /bad\.json is not a valid tests file \(2 problems\): tests\[0\]\.name: must be a name.*; tests\[0\]\.expected: must be an array/);
  });

  test('--reporter junit --output FILE writes JUnit XML (testsuites/testsuite/testcase/failure), escaped', async () => {
    const odd = { name: 'odd <name> & "quotes" \u0001', input: { group: 'plant' }, expected: [] };
    const dir = tempDir({ 'plants.json': plantTable(), 'tests.json': { suites: [{ name: 'A & B', tests: [passing, failing] }, { name: 'Z', tests: [odd] }] } });
    // Into a folder that does not exist yet, as CI report folders often do not.
    const out = join(dir, 'reports', 'junit', 'junit.xml');
    const run = await runInProcess(['test', join(dir, 'plants.json'), join(dir, 'tests.json'), '--reporter', 'junit', '--output', out]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '1 passed, 2 failed\n', 'the report goes to the file, the counts to stdout');
    const root = parseXml(readFileSync(out, 'utf8'));
    assert.equal(root.tagName, 'testsuites');
    assert.deepEqual(['tests', 'failures', 'errors'].map((a) => root.getAttribute(a)), ['3', '2', '0']);
    const suites = children(root, 'testsuite');
    assert.deepEqual(suites.map((s) => [s.getAttribute('name'), s.getAttribute('tests'), s.getAttribute('failures')]), [
      ['plant-items v1 > A & B', '2', '1'],
      ['plant-items v1 > Z', '1', '1'],
    ]);
    const cases = children(suites[0], 'testcase');
    assert.deepEqual(cases.map((c) => c.getAttribute('name')), ['plants', 'wrong price']);
    assert.equal(children(cases[0], 'failure').length, 0);
    const failure = children(cases[1], 'failure')[0];
    assert.equal(failure.getAttribute('message'), '1 output difference');
    assert.equal(failure.textContent, '[0].price: expected 1, received 460');
    assert.ok(Number(cases[1].getAttribute('time')) >= 0);
    const oddCase = children(suites[1], 'testcase')[0];
    assert.equal(oddCase.getAttribute('name'), 'odd <name> & "quotes" \uFFFD', 'escaped, and the control character XML cannot hold replaced');
    assert.match(children(oddCase, 'failure')[0].textContent, /\[0\]: not expected, received \{"name":"Monstera","price":460\}/);
  });

  test('--reporter tap prints TAP 13 with a plan and a YAML block per failure', async () => {
    const dir = tempDir({ 'plants.json': plantTable(), 'tests.json': { tests: [passing, failing] } });
    const run = await runInProcess(['test', join(dir, 'plants.json'), join(dir, 'tests.json'), '--reporter', 'tap']);
    assert.equal(run.code, 1);
    const lines = run.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(0, 4), ['TAP version 13', '1..2', 'ok 1 - plant-items v1 > tests > plants', 'not ok 2 - plant-items v1 > tests > wrong price']);
    assert.deepEqual(lines.slice(4, 9), ['  ---', '  status: failed', '  differences:', '    - "[0].price: expected 1, received 460"', '  ...']);
  });

  test('without TESTS.json, every rule of an export that carries testSuites is tested', async () => {
    const greet = { ...messageTable('greet-id', 'greet', 1, 'hello'), testSuites: [{ name: 'Greeting', tests: [{ name: 'says hello', input: {}, expected: [{ message: 'hello' }] }] }] };
    const plants = plantTable({ testSuites: [{ name: 'Catalogue', tests: [passing] }] });
    const folder = { export: { exportType: 'FOLDER', version: 1, data: { structure: { id: 'root', name: 'Home', type: 'ROOT', children: [] }, rules: [greet, plants, messageTable('no-tests', 'no-tests', 1, 'x')] } } };
    const dir = tempDir({ 'space.json': folder });
    const run = await runInProcess(['test', join(dir, 'space.json')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^greet v1\n {2}Greeting\n {4}✔ says hello .*\nplant-items v1\n {2}Catalogue\n {4}✔ plants .*\n2 passed, 0 failed\n$/);
    const one = await runInProcess(['test', join(dir, 'space.json'), '--rule', 'plant-items']);
    assert.match(one.stdout, /^plant-items v1\n/);
    assert.equal(one.code, 0);
  });

  test('--rules DIR provides the rules the tested rule calls, as for verdict solve', async () => {
    const dir = tempDir({
      'reference/banks.json': readFixture('banks-lookup.json'),
      'fees.json': readFixture('transfer-fee-table.json'),
      'fees.tests.json': { tests: [{ name: 'domestic', input: { bic: 'ALPSATWW', originCountry: 'AT' }, expected: [{ fee: 0, message: 'Domestic transfer to AT' }] }] },
    });
    const run = await runInProcess(['test', join(dir, 'fees.json'), join(dir, 'fees.tests.json'), '--rules', join(dir, 'reference')]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const without = await runInProcess(['test', join(dir, 'fees.json'), join(dir, 'fees.tests.json')]);
    assert.equal(without.code, 1);
    assert.match(without.stdout, /\[0\]\.fee: expected 0, received ""/);
  });
});

describe('verdict test against a store, the publishing gate, and tests through export/import', () => {
  let backend: Backend;
  const cli = (...args: string[]) => runStoreCli(args, { DATABASE_URL: backend.url });

  // The store is filled in this process, through the services the CLI's commands use (cli-store-commands.test.ts
  // starts `verdict space create` and `verdict import` for real); the commands under test run as processes.
  before(async () => {
    backend = sqliteBackend();
    const v2: Record<string, any> = plantTable({ version: 2, status: 'pending' });
    v2.decisionTable.rows[0].cells[3].outputScalarValue.value = '470';
    await withServices(async (services) => {
      await services.spaces.create('acme');
      await services.spaces.create('copy');
      await services.rulesIO.importContainer('acme', [plantTable({ testSuites: [{ name: 'Catalogue', tests: [passing] }] }), v2]);
    }, { DATABASE_URL: backend.url });
  });
  after(async () => {
    await backend.cleanup();
  });

  test('--space runs every rule with tests at its latest version; --rule/--version pick one', async () => {
    const latest = await cli('test', '--space', 'acme');
    assert.equal(latest.code, 1, 'version 2 changed a price');
    assert.match(latest.stdout, /^plant-items v2\n {2}Catalogue\n {4}✖ plants/);
    const v1 = await cli('test', '--space', 'acme', '--rule', 'plant-items', '--version', '1', '--reporter', 'junit');
    assert.equal(v1.code, 0, v1.stderr);
    assert.equal(parseXml(v1.stdout).getAttribute('failures'), '0');
    const unknown = await cli('test', '--space', 'acme', '--rule', 'nope');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'verdict: Rule "nope" not found (space "acme")\n');
    const usage = await cli('test', '--space', 'acme', '--version', '2');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--version needs --rule/);
  });

  test('with the gate on, verdict rule publish refuses a failing version, naming the test; --force publishes', async () => {
    const on = await cli('space', 'publish-gate', 'acme', 'on');
    assert.equal(on.stdout, 'publishing gate of space acme: on\n');
    const refused = await cli('rule', 'publish', 'plant-items', '--version', '2', '--space', 'acme');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^verdict: Rule "plant-items" version 2 fails 1 of 1 test .*: suites\["Catalogue"\]\.tests\["plants"\]: failed: \[0\]\.price: expected 460, received 470\n$/);
    const forced = await cli('rule', 'publish', 'plant-items', '--version', '2', '--space', 'acme', '--force', '--json');
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(JSON.parse(forced.stdout).status, 'published');
    const off = await cli('rule', 'publish-gate', 'plant-items', 'off', '--space', 'acme');
    assert.equal(off.stdout, 'publishing gate for rule rule-plants: off (its own setting)\n');
    // Refused by the command line itself, before the store is opened: parsed in this process.
    const bad = await parseInProcess(['rule', 'publish-gate', 'plant-items', 'maybe', '--space', 'acme']);
    assert.equal(bad.code, 2);
  });

  test('verdict export carries the tests; the exported file tests offline and imports them into another space', async () => {
    const dir = tempDir();
    const exported = await cli('export', dir, '--space', 'acme');
    assert.equal(exported.code, 0, exported.stderr);
    const files = readdirSync(dir).sort();
    assert.deepEqual(files, ['plant-items_v1.json', 'plant-items_v2.json']);
    const top = JSON.parse(readFileSync(join(dir, 'plant-items_v2.json'), 'utf8'));
    assert.deepEqual(top.testSuites, [{ name: 'Catalogue', tests: [passing] }]);
    assert.equal(JSON.parse(readFileSync(join(dir, 'plant-items_v1.json'), 'utf8')).testSuites, undefined, 'on the highest version only');
    const offline = await runInProcess(['test', join(dir, 'plant-items_v1.json')]);
    assert.equal(offline.code, 2, 'version 1 does not carry the tests');
    const carried = await runInProcess(['test', join(dir, 'plant-items_v2.json')]);
    assert.equal(carried.code, 1, 'version 2 fails its own tests');
    assert.match(carried.stdout, /✖ plants/);
    const imported = await cli('import', dir, '--space', 'copy');
    assert.equal(imported.code, 0, imported.stderr);
    const copy = await cli('test', '--space', 'copy', '--rule', 'plant-items', '--version', '1');
    assert.equal(copy.code, 0, copy.stdout + copy.stderr);
    assert.match(copy.stdout, /Catalogue\n {4}✔ plants/);
  });
});
