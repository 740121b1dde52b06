// `verdict solve` end to end on each rule type of the project's fixtures: the CLI plumbing (options, containers,
// --rules, --now) reaching the engine. The program runs in this process (runInProcess) but for scripting rules,
// whose sandbox belongs to a process; solve.test.ts starts real processes for the exit codes and output.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixturePath, readFixture, removeTempDirs, runCli, runInProcess, tempDir } from './helpers.ts';
import type { CliRun } from './helpers.ts';
import { join } from 'node:path';

after(removeTempDirs);

function solved(run: CliRun): unknown {
  assert.equal(run.stderr, '', 'no warning or error');
  assert.equal(run.code, 0);
  return JSON.parse(run.stdout);
}

/** A file holding `input` (JSON): the runs in this process have no stdin of their own. */
function inputFile(input: unknown): string {
  return join(tempDir({ 'input.json': JSON.stringify(input) }), 'input.json');
}

function solveFixture(name: string, input: unknown, ...args: string[]): Promise<CliRun> {
  return runInProcess(['solve', fixturePath(name), inputFile(input), ...args]);
}

describe('verdict solve on each rule type', { concurrency: 4 }, () => {
  test('a decision table with rule variables and nested outputs', async () => {
    const run = await solveFixture('pricing-table.json', { productType: 'basic', period: 'month', promoCode: 'SPRING SALE' });
    assert.deepEqual(solved(run), [{ prices: { finalPrice: 8, crudePrice: 10 }, message: '20% discount' }]);
  });

  test('--strategy EVALUATE_ALL lists every active row with _match', async () => {
    const run = await solveFixture('segment-table.json', { regionCode: 'NEU', revenue: 5000 }, '--strategy', 'evaluate_all');
    assert.deepEqual(solved(run), [
      { segment: 'Northern Europe', tier: 1, _match: false },
      { segment: 'Northern Europe', tier: 2, _match: true },
      { segment: 'Rest of world', tier: 0, _match: false },
    ]);
  });

  test('--exclude by column alias; --include wins over --exclude', async () => {
    const input = { regionCode: 'NEU', revenue: 5000 };
    const excluded = await solveFixture('segment-table.json', input, '--exclude', 'col-revenue');
    assert.deepEqual(solved(excluded), [{ segment: 'Northern Europe', tier: 1 }, { segment: 'Northern Europe', tier: 2 }]);
    const both = await solveFixture('segment-table.json', input, '--include', 'regionCode', '--exclude', 'regionCode,col-revenue', '--strategy', 'ARRAY');
    assert.deepEqual(solved(both), [{ segment: ['Northern Europe', 'Northern Europe'], tier: [1, 2] }]);
  });

  test('--debug prints the per-row trace with the result', async () => {
    const run = await solveFixture('segment-table.json', { regionCode: 'SEU', revenue: 1 }, '--debug', '--strategy', 'FIRST_MATCH');
    const { result, trace } = solved(run) as { result: unknown; trace: Array<{ rowNumber: number; evaluationResult: boolean }> };
    assert.deepEqual(result, [{ segment: 'Rest of world', tier: 0 }]);
    assert.deepEqual(trace.map((row) => [row.rowNumber, row.evaluationResult]), [[1, false], [2, false], [4, true]]);
  });

  test('a decision tree with an OR group and an ELSE', async () => {
    assert.deepEqual(solved(await solveFixture('shipping-tree.json', { parcel: { weight: 5 }, member: 'gold' })), [
      { price: 12, currency: 'EUR', delivery: { hours: 24 } },
    ]);
    assert.deepEqual(solved(await solveFixture('shipping-tree.json', { parcel: { weight: 5 } })), [
      { price: 30, currency: 'EUR', delivery: { hours: 72 } },
    ]);
  });

  test('a rule-flow export solves its flow with the table it carries (the flow itself is pending)', async () => {
    const run = await solveFixture('pricing-flow-export.json', { productType: 'basic', period: 'month', promoCode: 'SPRING SALE' });
    assert.deepEqual(solved(run), [{ finalPrice: 8, message: '20% discount' }]);
  });

  test('a decision flow from a folder export calls the table next to it', async () => {
    const run = await solveFixture('regions-folder-export.json', { regionCode: 'NEU', revenue: 10 }, '--rule', 'segmentation');
    assert.deepEqual(solved(run), [{ segment: [{ segment: 'Northern Europe', tier: 1 }] }]);
  });

  test('--rules DIR provides the lookup table a calc column reads', async () => {
    const dir = tempDir({ 'reference/banks.json': readFixture('banks-lookup.json') });
    const inputs = [
      { bic: 'ALPSATWW', originCountry: 'AT' },
      { bic: 'NORDSESS', originCountry: 'AT' },
      { bic: 'NOPE', originCountry: 'AT' },
    ];
    const run = await solveFixture('transfer-fee-table.json', inputs, '--rules', dir);
    assert.deepEqual(solved(run), [
      [{ fee: 0, message: 'Domestic transfer to AT' }],
      [{ fee: 1.5, message: 'Transfer to SE' }],
      [{ fee: '', message: 'Unknown bank' }],
    ]);
  });

  test('without --rules, a missing dependency is a warning on stderr and solves as missing', async () => {
    const run = await solveFixture('transfer-fee-table.json', { bic: 'ALPSATWW', originCountry: 'AT' });
    assert.equal(run.code, 0);
    assert.deepEqual(JSON.parse(run.stdout), [{ fee: '', message: 'Unknown bank' }]);
    assert.equal(
      run.stderr,
      'verdict: warning: rule "transfer-fee" refers to a published version of "bank-directory", which no loaded file provides (add --rules DIR)\n',
    );
  });

  test('a scripting rule runs in the sandbox and the process still exits', async () => {
    const script = {
      name: 'Multiply',
      type: 'complex-rule',
      status: 'published',
      inputSchema: { a: {}, b: {} },
      outputSchema: { result: {} },
      script: 'output.result = input.a * input.b;\nlog("multiplied");\nreturn output;',
    };
    const dir = tempDir({ 'multiply.json': script });
    const run = await runCli(['solve', join(dir, 'multiply.json'), '-'], { stdin: '[{"a":2,"b":4},{"a":3,"b":5}]' });
    assert.deepEqual(solved(run), [[{ result: 8 }], [{ result: 15 }]]);
  });

  test('a script that throws or runs too long exits 1 with one line', async () => {
    const envelope = { type: 'complex-rule', status: 'published', inputSchema: {}, outputSchema: {} };
    const dir = tempDir({
      'throw.json': { ...envelope, name: 'Thrower', script: "throw new Error('no customer given');" },
      'loop.json': { ...envelope, name: 'Loop', script: 'while (true) {}' },
    });
    const [thrown, looped] = await Promise.all([
      runCli(['solve', join(dir, 'throw.json')]),
      runCli(['solve', join(dir, 'loop.json'), '-', '--timeout', '200'], { stdin: '[{}, {}]' }),
    ]);
    assert.equal(thrown.code, 1);
    assert.match(thrown.stderr, /^verdict: .*no customer given\n$/);
    assert.equal(looped.code, 1);
    assert.equal(looped.stderr, 'verdict: input[0]: Rule evaluation exceeded the time limit of 200 ms\n');
    assert.equal(looped.stdout, '');
  });

  test('--now sets the solve time that row validity is checked against', async () => {
    const table = readFixture('segment-table.json');
    table.decisionTable.rows[0].timeValidation = { from: '2024-01-01 00:00 +00:00', to: '2024-12-31 23:59 +00:00' };
    const dir = tempDir({ 'segment.json': table });
    const input = inputFile({ regionCode: 'NEU', revenue: 10 });
    const inside = await runInProcess(['solve', join(dir, 'segment.json'), input, '--now', '2024-06-01T12:00:00Z']);
    assert.deepEqual(solved(inside), [{ segment: 'Northern Europe', tier: 1 }]);
    const outside = await runInProcess(['solve', join(dir, 'segment.json'), input, '--now', '2025-06-01T12:00:00Z']);
    assert.deepEqual(solved(outside), [{ segment: 'Rest of world', tier: 0 }]);
  });
});
