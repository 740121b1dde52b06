import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixturePath, parseInProcess, readFixture, removeTempDirs, runCli, runInProcess, tempDir } from './helpers.ts';
import type { CliRun } from './helpers.ts';

after(removeTempDirs);

const BANKS = fixturePath('banks-lookup.json');
const FOLDER = fixturePath('regions-folder-export.json');

/** A failed run: the exit code, and exactly one line on stderr without a stack trace. */
function assertFailure(run: CliRun, code: number, line: RegExp): void {
  assert.equal(run.code, code, `exit code (stderr: ${run.stderr})`);
  assert.equal(run.stdout, '');
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got: ${run.stderr}`);
  assert.match(lines[0]!, line);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
}

function assertSolved(run: CliRun): unknown {
  assert.equal(run.stderr, '');
  assert.equal(run.code, 0);
  return JSON.parse(run.stdout);
}

/** A file holding `input` (JSON), for the runs in this process, which have no stdin of their own. */
function inputFile(input: unknown): string {
  return join(tempDir({ 'input.json': JSON.stringify(input) }), 'input.json');
}

// Real processes (runCli) for what belongs to one: the exit codes and output as a shell sees them, stdin, the
// environment, the regular-expression engine main.ts sets. Every other case runs the same program in this process
// (runInProcess, parseInProcess): a Node start per case would prove nothing more. Side by side, to keep it fast.
describe('verdict solve', { concurrency: 4 }, () => {
  test('solve RULE INPUT prints the result JSON and exits 0', async () => {
    const dir = tempDir({ 'input.json': { primaryKey: 'NORDSESS', outputColumn: 'Bank Name' } });
    const run = await runCli(['solve', BANKS, join(dir, 'input.json')]);
    assert.deepEqual(assertSolved(run), [{ output: 'Nordic Savings' }]);
  });

  test('INPUT "-" reads stdin; no INPUT solves {}', async () => {
    const piped = await runCli(['solve', BANKS, '-'], { stdin: '{"primaryKey":"ALPSATWW","outputColumn":"Country"}' });
    assert.deepEqual(assertSolved(piped), [{ output: 'AT' }]);
    const empty = await runInProcess(['solve', BANKS]);
    assert.deepEqual(assertSolved(empty), [{ output: null }]);
  });

  test('an input array is a bulk solve: one result per input, in order', async () => {
    const run = await runInProcess(['solve', BANKS, inputFile([{ primaryKey: 'ALPSATWW', outputColumn: 'Country' }, { primaryKey: 'NOPE' }, { primaryKey: 1234, outputColumn: 'fee' }])]);
    assert.deepEqual(assertSolved(run), [[{ output: 'AT' }], [{ output: null }], [{ output: 2 }]]);
  });

  test('a bulk longer than one slice of the input loop keeps its order; --debug pairs each result with its trace', async () => {
    const keys = ['ALPSATWW', 'NORDSESS', 'NOPE'];
    const inputs = Array.from({ length: 150 }, (_, i) => ({ primaryKey: keys[i % 3], outputColumn: 'Country' }));
    const run = await runInProcess(['solve', BANKS, inputFile(inputs), '--debug']);
    const solved = assertSolved(run) as Array<{ result: unknown; trace: Array<{ primaryKey: string; found: boolean }> }>;
    assert.equal(solved.length, 150);
    solved.forEach((each, i) => {
      assert.deepEqual(each.result, [{ output: [ 'AT', 'SE', null ][i % 3] }], `input ${i}`);
      assert.deepEqual(each.trace.map((t) => [t.primaryKey, t.found]), [[keys[i % 3], i % 3 !== 2]], `trace of input ${i}`);
    });
  });

  test('--lookup-method and --debug', async () => {
    const exists = await runInProcess(['solve', BANKS, inputFile({ primaryKey: 'NORDSESS' }), '--lookup-method', 'lookup_exists']);
    assert.deepEqual(assertSolved(exists), [{ output: true }]);
    const debug = await runInProcess(['solve', BANKS, inputFile({ primaryKey: 'NORDSESS', outputColumn: 'Country' }), '--debug']);
    assert.deepEqual(assertSolved(debug), {
      result: [{ output: 'SE' }],
      trace: [{ method: 'LOOKUP_VALUE', primaryKey: 'NORDSESS', found: true, outputColumn: 'Country' }],
    });
  });

  // Command lines commander refuses never reach the solve: they are parsed in this process, by the program a
  // process runs. A bad $TIMEZONE is found by the command itself, in a real process (as is `verdict` alone, below).
  test('bad usage prints one line and exits 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['solve'], /^verdict: missing required argument 'rule'$/],
      [['solve', BANKS, '--strategy', 'BEST'], /argument 'BEST' is invalid\. unknown strategy "BEST" \(expected STANDARD, FIRST_MATCH, ARRAY, EVALUATE_ALL\)$/],
      [['solve', BANKS, '--lookup-method', 'FIND'], /unknown lookup method "FIND"/],
      [['solve', BANKS, '--now', 'yesterday'], /"yesterday" is not an ISO-8601 date-time/],
      [['solve', BANKS, '--timezone', 'Mars/Olympus'], /unknown time zone "Mars\/Olympus"/],
      [['solve', BANKS, '--timeout', '0'], /must be a positive integer \(got "0"\)/],
      [['solve', BANKS, '--frobnicate'], /^verdict: unknown option '--frobnicate'$/],
      [['solve', BANKS, 'a.json', 'b.json'], /too many arguments/],
      [['sovle'], /^verdict: unknown command 'sovle' \(Did you mean solve\?\)$/],
    ];
    for (const [args, line] of cases) assertFailure(await parseInProcess(args), 2, line);
    assertFailure(await runCli(['solve', BANKS], { env: { TIMEZONE: 'Nowhere/City' } }), 2, /^verdict: TIMEZONE: unknown time zone "Nowhere\/City"$/);
  });

  test('verdict without a command shows the usage on stderr and exits 2', async () => {
    const run = await runCli([]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^Usage: verdict/);
  });

  test('--help works for the program and for solve, and exits 0', async () => {
    const top = await runCli(['--help']);
    assert.equal(top.code, 0);
    assert.match(top.stdout, /Usage: verdict \[options\] \[command\]/);
    assert.match(top.stdout, /solve \[options\] <rule> \[input\]/);
    const solve = await parseInProcess(['solve', '--help']);
    assert.equal(solve.code, 0);
    for (const option of ['--strategy', '--include', '--exclude', '--lookup-method', '--debug', '--rules', '--rule', '--now', '--timezone']) {
      assert.ok(solve.stdout.includes(option), option);
    }
    assert.match(solve.stdout, /Exit codes: 0 solved, 1 rule or input error, 2 bad usage\./);
  });

  test('files that cannot be read or parsed exit 1 naming the file', async () => {
    const dir = tempDir({ 'broken.json': '{"type": "lookup-table",', 'input.json': '[1, 2' });
    assertFailure(await runInProcess(['solve', join(dir, 'missing.json')]), 1, /^verdict: cannot read .*missing\.json: no such file or directory$/);
    assertFailure(await runInProcess(['solve', join(dir, 'broken.json')]), 1, /^verdict: .*broken\.json is not valid JSON: /);
    assertFailure(await runInProcess(['solve', BANKS, join(dir, 'input.json')]), 1, /^verdict: .*input\.json is not valid JSON: /);
    assertFailure(await runCli(['solve', BANKS, '-'], { stdin: 'primaryKey=1' }), 1, /^verdict: stdin is not valid JSON: /);
  });

  test('input that is not an object (or an array of objects) exits 1', async () => {
    assertFailure(await runInProcess(['solve', BANKS, inputFile('NORDSESS')]), 1, /^verdict: input .*input\.json must be a JSON object, or an array of objects for a bulk solve$/);
    assertFailure(await runInProcess(['solve', BANKS, inputFile([{}, 3])]), 1, /^verdict: input .*input\.json: element \[1\] of a bulk input must be a JSON object$/);
  });

  test('an invalid rule exits 1 with every problem and its path on one line', async () => {
    const rule = readFixture('banks-lookup.json');
    rule.primaryKeyColumn = 'swift';
    rule.status = 'draft';
    const dir = tempDir({ 'rule.json': rule });
    assertFailure(
      await runInProcess(['solve', join(dir, 'rule.json')]),
      1,
      /^verdict: .*rule\.json is not a valid rule \(2 problems\): status: unknown status "draft" \(expected published or pending\); primaryKeyColumn: names no column: "swift" is not the alias of any column$/,
    );
  });

  test('a file with several solvable rules needs --rule; --rule picks by alias or id', async () => {
    assertFailure(
      await runInProcess(['solve', FOLDER]),
      2,
      /holds 3 solvable rules \(region-segment \(decision-table\), bank-directory \(lookup-table\), segmentation \(workflow\)\); choose one with --rule ID\|ALIAS$/,
    );
    const byAlias = await runInProcess(['solve', FOLDER, inputFile({ primaryKey: 'ALPSATWW', outputColumn: 'Bank Name' }), '--rule', 'bank-directory']);
    assert.deepEqual(assertSolved(byAlias), [{ output: 'Alpine Credit' }]);
    const byId = await runInProcess(['solve', FOLDER, inputFile({ primaryKey: 'X' }), '--rule', '5c0d9e7a-1b2c-4d3e-8f90-a1b2c3d4e503', '--lookup-method', 'LOOKUP_EXISTS']);
    assert.deepEqual(assertSolved(byId), [{ output: false }]);
    assertFailure(await runInProcess(['solve', FOLDER, '--rule', 'nothing-here']), 2, /has no rule with id or alias "nothing-here" \(it holds region-segment \(decision-table\), bank-directory \(lookup-table\), segmentation \(workflow\)\)$/);
  });

  test('an array of rules solves its first rule; --rule picks the latest published version, else the latest', async () => {
    const v1 = readFixture('banks-lookup.json');
    const v2 = { ...readFixture('banks-lookup.json'), version: 2 };
    v2.data.ALPSATWW.country = 'LI';
    const v3 = { ...readFixture('banks-lookup.json'), version: 3, status: 'pending' };
    v3.data.ALPSATWW.country = 'CH';
    const other = { ...readFixture('banks-lookup.json'), ruleId: 'other', baseId: 'other', ruleAlias: 'other-banks', name: 'Other' };
    other.data.ALPSATWW.country = 'DE';
    const pendingOnly = { ...readFixture('banks-lookup.json'), ruleId: 'p', baseId: 'p', ruleAlias: 'pending-banks', status: 'pending' };
    const dir = tempDir({ 'list.json': [other, v1, v3, v2, pendingOnly] });
    const input = inputFile({ primaryKey: 'ALPSATWW', outputColumn: 'Country' });
    assert.deepEqual(assertSolved(await runInProcess(['solve', join(dir, 'list.json'), input])), [{ output: 'DE' }]);
    assert.deepEqual(assertSolved(await runInProcess(['solve', join(dir, 'list.json'), input, '--rule', 'bank-directory'])), [{ output: 'LI' }]);
    assert.deepEqual(assertSolved(await runInProcess(['solve', join(dir, 'list.json'), input, '--rule', 'pending-banks'])), [{ output: 'AT' }]);
  });

  test('--rules DIR: unreadable directories and files in it exit 1 naming them', async () => {
    const missing = join(tempDir(), 'nope');
    assertFailure(await runInProcess(['solve', BANKS, '--rules', missing]), 1, /^verdict: cannot read rules directory .*nope: no such file or directory$/);
    const dir = tempDir({ 'good.json': readFixture('segment-table.json'), 'nested/bad.json': '{oops' });
    assertFailure(await runInProcess(['solve', BANKS, '--rules', dir]), 1, /^verdict: .*nested\/bad\.json is not valid JSON: /);
    const shapes = tempDir({ 'list.json': [readFixture('segment-table.json'), 7] });
    assertFailure(await runInProcess(['solve', BANKS, '--rules', shapes]), 1, /^verdict: .*list\.json is not a rule export: \[1\]: must be a rule object \(got a number\)$/);
  });

  test('--rules DIR with valid files leaves a solve that needs none of them unchanged', async () => {
    const dir = tempDir({ 'segment.json': readFixture('segment-table.json'), 'sub/flow.json': readFixture('pricing-flow-export.json') });
    const run = await runInProcess(['solve', BANKS, inputFile({ primaryKey: 'ALPSATWW', outputColumn: 'Fee' }), '--rules', dir]);
    assert.deepEqual(assertSolved(run), [{ output: 0 }]);
  });

  // Without the CLI's linear-time regexp fallback this pattern backtracks 2^40 times and the process never ends;
  // the test's timeout is what fails then, so it asserts the answer, not a duration.
  test('a catastrophic regular expression in a rule cannot hang the process (ReDoS)', { timeout: 60_000 }, async () => {
    const rule = {
      type: 'decision-table',
      name: 'Regex',
      status: 'published',
      inputSchema: { text: {} },
      outputSchema: { matches: {} },
      decisionTable: {
        columns: [
          { columnId: 'c1', type: 'input', condition: { type: 'simple', name: 'Text', inputVariable: 'text' } },
          { columnId: 'c2', type: 'output', columnOutput: { type: 'simple', name: 'Matches', outputVariable: 'matches' } },
        ],
        rows: [{
          active: true,
          cells: [
            { column: 'c1', type: 'input', scalarCondition: { operator: 'anything', value: '', type: 'general' } },
            { column: 'c2', type: 'output', outputScalarValue: { type: 'function', value: '', stringValue: 'TEST({text}, "(a+)+$")' } },
          ],
        }],
      },
    };
    const dir = tempDir({ 'regex.json': rule });
    const run = await runCli(['solve', join(dir, 'regex.json'), '-'], { stdin: JSON.stringify({ text: `${'a'.repeat(40)}b` }) });
    assert.deepEqual(assertSolved(run), [{ matches: false }]);
  });
});
