// `npm run tck -- DIR [--output FILE] [--expectations FILE]`: runs the DMN TCK test cases under DIR (e.g.
// test/conformance/dmn-tck), writes tck_results.csv in the TCK's format and prints the pass counts per compliance
// level. --expectations writes the failing cases grouped by cause (the CI test's expected-failures.json).
import { statSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { caseId, causeOf, runTck, summarize, toCsv } from './tck/run.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { output: { type: 'string', short: 'o' }, expectations: { type: 'string' }, now: { type: 'string' } },
});
const dir = positionals[0];
if (!dir || positionals.length > 1) {
  process.stderr.write('usage: npm run tck -- DIR [--output FILE] [--expectations FILE] [--now ISO-INSTANT]\n');
  process.exit(2);
}
const output = values.output ?? 'tck_results.csv';
const now = values.now ? Date.parse(values.now) : Date.now();
if (Number.isNaN(now)) {
  process.stderr.write(`tck: --now '${values.now}' is not an ISO instant\n`);
  process.exit(2);
}
if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
  process.stderr.write(`tck: '${dir}' is not a directory (give the folder holding the TCK's test case folders)\n`);
  process.exit(2);
}
try {
  const rows = await runTck(dir, now);
  writeFileSync(output, toCsv(rows));
  for (const summary of summarize(rows)) {
    process.stdout.write(
      `${summary.level}: ${summary.passedTestCases}/${summary.testCases} test cases, ${summary.passedResults}/${summary.results} results\n`,
    );
  }
  process.stdout.write(`wrote ${output}\n`);
  if (values.expectations) {
    const groups: Record<string, string[]> = {};
    for (const row of rows.filter((candidate) => candidate.outcome !== 'SUCCESS')) (groups[causeOf(row)] ??= []).push(caseId(row));
    const sorted = Object.fromEntries(Object.entries(groups).sort((a, b) => b[1].length - a[1].length));
    writeFileSync(values.expectations, `${JSON.stringify(sorted, null, 2)}\n`);
    process.stdout.write(`wrote ${values.expectations} (${Object.keys(sorted).length} causes)\n`);
  }
} catch (error) {
  process.stderr.write(`tck: ${(error as Error).message}\n`);
  process.exit(1);
}
