// DMN models on the command line (issue 31): `verdict solve`, `test`, `lint` and `import` take a .dmn file as they
// take a rule file (format detected from the XML); a model's imports are found by namespace among the .dmn files
// of --rules DIR; errors exit 1 naming the element and the expression.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withServices } from '../../src/server/one-shot.ts';
import { sqliteBackend } from '../store/backends.ts';
import { removeTempDirs, runCli, runInProcess, tempDir } from './helpers.ts';

const LOAN = fileURLToPath(new URL('../fixtures/dmn/loan.dmn', import.meta.url));
const TCK_IMPORT = new URL('../conformance/dmn-tck/compliance-level-3/0086-import/', import.meta.url);

after(() => removeTempDirs());

test('verdict solve MODEL.dmn INPUT.json answers [{decision: value}]; a bulk, --decisions, --decision-service', async () => {
  const dir = tempDir({ 'one.json': { Age: 40, Income: 90000 }, 'bulk.json': [{ Age: 16, Income: 1 }, { Age: 40, Income: 1 }] });
  const one = await runInProcess(['solve', LOAN, join(dir, 'one.json')]);
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual(JSON.parse(one.stdout), [{ Risk: 'Low', Approval: 'Approved' }]);
  const bulk = await runInProcess(['solve', LOAN, join(dir, 'bulk.json')]);
  assert.equal(bulk.code, 0, bulk.stderr);
  assert.deepEqual(JSON.parse(bulk.stdout), [[{ Risk: 'High', Approval: 'Declined' }], [{ Risk: 'High', Approval: 'Review' }]]);
  const risk = await runInProcess(['solve', LOAN, join(dir, 'one.json'), '--decisions', 'Risk']);
  assert.deepEqual(JSON.parse(risk.stdout), [{ Risk: 'Low' }]);
  const service = await runInProcess(['solve', LOAN, join(dir, 'one.json'), '--decision-service', 'Approval Service']);
  assert.deepEqual(JSON.parse(service.stdout), [{ Approval: 'Approved' }]);
});

test('verdict solve: an evaluation error exits 1 naming the element; --null-on-error answers DMN nulls', async () => {
  const dir = tempDir({ 'bad.json': { Age: 40, Income: 'lots' } });
  const failed = await runInProcess(['solve', LOAN, join(dir, 'bad.json')]);
  assert.equal(failed.code, 1, failed.stdout);
  assert.match(failed.stderr, /inputData 'Income': the value does not conform to the type 'number'/);
  const lenient = await runInProcess(['solve', LOAN, join(dir, 'bad.json'), '--null-on-error']);
  assert.equal(lenient.code, 0, lenient.stderr);
  assert.deepEqual(JSON.parse(lenient.stdout), [{ Risk: 'High', Approval: 'Review' }]);
  const broken = tempDir({ 'broken.dmn': readFileSync(LOAN, 'utf8').replace('then "Low" else "High"', 'then "Low" else') });
  const refused = await runInProcess(['solve', join(broken, 'broken.dmn'), join(dir, 'bad.json')]);
  assert.equal(refused.code, 1, refused.stdout);
  assert.match(refused.stderr, /decision 'Risk'/);
});

test("verdict solve finds a model's imports among the .dmn files of --rules DIR by namespace; a missing one is named", async () => {
  const models = tempDir({ 'Imported_Model.dmn': readFileSync(new URL('Imported_Model.dmn', TCK_IMPORT), 'utf8') });
  const dir = tempDir({ 'person.json': { 'A Person': { name: 'Ann', age: 47 } } });
  const main = fileURLToPath(new URL('0086-import.dmn', TCK_IMPORT));
  const solved = await runInProcess(['solve', main, join(dir, 'person.json'), '--rules', models]);
  assert.equal(solved.code, 0, solved.stderr);
  assert.deepEqual(JSON.parse(solved.stdout), [{ 'A Decision Ctx with DT': 'Respectfully, Hello Ann!' }]);
  const missing = await runInProcess(['solve', main, join(dir, 'person.json')]);
  assert.equal(missing.code, 1, missing.stdout);
  assert.match(missing.stderr, /import 'myimport': no DMN rule .* has the namespace/);
});

test('verdict test MODEL.dmn TESTS.json runs the tests; verdict lint checks the model', async () => {
  const dir = tempDir({
    'tests.json': {
      tests: [
        { name: 'minor', input: { Age: 16, Income: 90000 }, expected: [{ Risk: 'Low', Approval: 'Declined' }] },
        { name: 'wrong on purpose', input: { Age: 40, Income: 1 }, expected: [{ Risk: 'High', Approval: 'Approved' }] },
      ],
    },
  });
  const run = await runInProcess(['test', LOAN, join(dir, 'tests.json')]);
  assert.equal(run.code, 1, run.stdout);
  assert.match(run.stdout, /1 passed, 1 failed/);
  const lint = await runCli(['lint', LOAN, '--json']);
  assert.equal(lint.code, 0, lint.stderr);
  assert.match(JSON.parse(lint.stdout).undecided.reasons[0].reason, /DMN decision tables are checked/);
});

test('verdict import MODEL.dmn stores a pending dmn rule named after the model, its XML kept', async () => {
  const backend = sqliteBackend();
  try {
    await withServices((services) => services.spaces.create('acme'), { DATABASE_URL: backend.url });
    const imported = await runCli(['import', LOAN, '--space', 'acme'], { env: { DATABASE_URL: backend.url } });
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^imported dmn loan-approval \(id [^)]+\) version 1: pending/);
    const stored = await withServices((services) => services.management.rules.get('acme', 'loan-approval', 1), { DATABASE_URL: backend.url });
    assert.equal(stored.document.dmn, readFileSync(LOAN, 'utf8'));
    assert.equal((stored.document.dmnModel as { name: string }).name, 'Loan approval');
  } finally {
    await backend.cleanup();
  }
});
