// `verdict lint`: the human report, the --json shape, and the exit codes (1 on unreachable rows, contradictions
// and type mismatches; 0 when only overlaps and gaps are found; 2 on bad usage).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { tableDoc, cond, common } from '../engine/table-helpers.ts';
import { fixturePath, parseInProcess, removeTempDirs, runCli, tempDir } from './helpers.ts';
import { join } from 'node:path';

function ruleWith(rows: Array<Record<string, unknown>>): Record<string, unknown> {
  return {
    ...tableDoc({
      columns: [
        { id: 'age', kind: 'input', target: 'age' },
        { id: 'out', kind: 'output', target: 'out' },
      ],
      rows: rows.map((when, i) => ({ cells: { age: when, out: common(`r${i}`) } })),
    }),
    ruleAlias: 'ages',
  };
}

describe('verdict lint', () => {
  after(removeTempDirs);
  const dir = tempDir({
    'defect.json': ruleWith([cond('>=', '18'), cond('<', '18'), cond('between', ['20', '30'])]),
    'gaps.json': ruleWith([cond('<', '18'), cond('>', '30')]),
    'two.json': {
      export: { version: 2, data: { rules: [
        { ...ruleWith([cond('<', '18')]), ruleId: 'first', ruleAlias: 'first' },
        { ...ruleWith([cond('>=', '18'), cond('>', '20')]), ruleId: 'second', ruleAlias: 'second' },
      ] } },
    },
    'valid.json': (() => {
      const doc = ruleWith([cond('=', '18'), cond('=', '21')]) as { decisionTable: { columns: Array<Record<string, unknown>> } };
      doc.decisionTable.columns[0]!.validValues = [{ type: 'GENERAL', value: '18' }, { type: 'GENERAL', value: '65' }];
      return doc;
    })(),
    'tree.json': { type: 'decision-tree', name: 'tree', status: 'published', inputSchema: {}, outputSchema: {}, nodes: [] },
  });

  test('an unreachable row: exit 1, the finding in words', async () => {
    const run = await runCli(['lint', join(dir, 'defect.json')]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^unreachable: Row 3 is unreachable: every input it matches is matched by an earlier row \(row 1\)/m);
    assert.match(run.stdout, /^ages: .*1 unreachable/m);
    assert.equal(run.stderr, '');
  });

  test('a value outside its column\'s valid values is a valid-value finding, not a defect: exit 0', async () => {
    const run = await runCli(['lint', join(dir, 'valid.json')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^valid-value: Row 2: "21" is not a valid value of column "age" \(valid values: "18", "65"\)$/m);
  });

  test('--json prints findings, undecided and omitted; gaps alone exit 0', async () => {
    const run = await runCli(['lint', join(dir, 'gaps.json'), '--json']);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(report), ['findings', 'undecided', 'omitted']);
    assert.ok(report.findings.length > 0);
    for (const finding of report.findings) {
      assert.equal(finding.kind, 'gap');
      assert.deepEqual(Object.keys(finding), ['kind', 'rows', 'columns', 'example', 'message']);
      assert.deepEqual(finding.columns, ['age']);
    }
    assert.ok(report.findings.some((f: { example: { age?: number } }) => f.example.age === 18));
    assert.deepEqual(report.undecided, { rows: [], columns: [], reasons: [] });
    const defect = JSON.parse((await runCli(['lint', join(dir, 'defect.json'), '--json'])).stdout);
    assert.deepEqual(defect.findings.find((f: { kind: string }) => f.kind === 'unreachable'), {
      kind: 'unreachable',
      rows: [2, 0],
      columns: ['age'],
      message: 'Row 3 is unreachable: every input it matches is matched by an earlier row (row 1); under FIRST_MATCH it never fires, under STANDARD it always fires together with them.',
    });
  });

  test('a clean table: exit 0', async () => {
    const run = await runCli(['lint', fixturePath('segment-table.json')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /no defects/);
  });

  test('a file with several tables needs --rule; a rule that is not a table and bad options are usage errors (exit 2)', async () => {
    const several = await runCli(['lint', join(dir, 'two.json')]);
    assert.equal(several.code, 2);
    assert.match(several.stderr, /holds 2 decision tables \(first, second\); choose one with --rule ID\|ALIAS/);
    const chosen = await runCli(['lint', join(dir, 'two.json'), '--rule', 'second', '--json']);
    assert.equal(chosen.code, 1, chosen.stderr);
    assert.deepEqual(JSON.parse(chosen.stdout).findings.map((f: { kind: string; rows: number[] }) => [f.kind, f.rows]), [['unreachable', [1, 0]], ['overlap', [0, 1]], ['gap', []]]);
    const tree = await runCli(['lint', join(dir, 'tree.json')]);
    assert.equal(tree.code, 2);
    assert.match(tree.stderr, /^verdict: .* is a decision-tree; verdict lint analyses decision tables\n$/);
    // Refused by the command line itself, before any file is read: parsed in this process.
    const option = await parseInProcess(['lint', join(dir, 'gaps.json'), '--bogus']);
    assert.equal(option.code, 2);
    assert.equal(option.stderr, "verdict: unknown option '--bogus'\n");
    const missing = await parseInProcess(['lint']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, "verdict: missing required argument 'rule'\n");
    const unreadable = await runCli(['lint', join(dir, 'nope.json')]);
    assert.equal(unreadable.code, 1);
    assert.match(unreadable.stderr, /^verdict: cannot read /);
  });
});
