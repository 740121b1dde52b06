// The DMN TCK (compliance levels 2 and 3, vendored here): every test case run by `npm run tck`'s runner. Cases
// that do not pass are listed in expected-failures.json, grouped by cause; a listed case that passes, or an
// unlisted failure, fails this test, so the list only shrinks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { caseId, runTck, summarize, toCsv } from '../../../scripts/tck/run.ts';

const folder = fileURLToPath(new URL('.', import.meta.url));
const expected = JSON.parse(readFileSync(new URL('./expected-failures.json', import.meta.url), 'utf8')) as Record<string, string[]>;

test('DMN TCK: every test case passes or is listed with its cause', async () => {
  // A fixed instant: no TCK expectation depends on the clock, and the run repeats exactly.
  const rows = await runTck(folder, Date.UTC(2026, 0, 15, 12, 0, 0));
  const listed = new Map<string, string>();
  for (const [cause, ids] of Object.entries(expected)) for (const id of ids) listed.set(id, cause);
  const failing = rows.filter((row) => row.outcome !== 'SUCCESS');
  const unexpected = failing.filter((row) => !listed.has(caseId(row))).map((row) => `${caseId(row)}: ${row.outcome} ${row.detail}`);
  const failingIds = new Set(failing.map(caseId));
  const nowPassing = [...listed.keys()].filter((id) => !failingIds.has(id));
  for (const summary of summarize(rows)) {
    console.log(`${summary.level}: ${summary.passedTestCases}/${summary.testCases} test cases, ${summary.passedResults}/${summary.results} results`);
  }
  // After a FEEL or DMN change: `npm run tck -- test/conformance/dmn-tck --expectations
  // test/conformance/dmn-tck/expected-failures.json --now 2026-01-15T12:00:00Z` rewrites the list; review its diff.
  assert.deepEqual(unexpected, [], 'test cases that fail without being listed in expected-failures.json');
  assert.deepEqual(nowPassing, [], 'test cases listed in expected-failures.json that now pass: remove them');
  assert.ok(rows.length > 3000, `the vendored TCK holds over 3,000 test cases (ran ${rows.length})`);
});

test('tck_results.csv rows are in the TCK\'s own format', () => {
  const csv = toCsv([
    { folder: 'compliance-level-3/0050-feel-abs-function', file: '0050-feel-abs-function-test-01', testCase: '001', outcome: 'SUCCESS', detail: '', results: 1, passedResults: 1 },
    { folder: 'compliance-level-3/0050-feel-abs-function', file: '0050-feel-abs-function-test-01', testCase: '002', outcome: 'FAILURE', detail: 'expected "a"\nnot b', results: 1, passedResults: 0 },
  ]);
  assert.equal(
    csv,
    '"compliance-level-3/0050-feel-abs-function","0050-feel-abs-function-test-01","001","SUCCESS",""\n' +
      '"compliance-level-3/0050-feel-abs-function","0050-feel-abs-function-test-01","002","FAILURE","expected ""a"" not b"\n',
  );
});
