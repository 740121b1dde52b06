// Real tables: the project's own fixtures and examples, and the DecisionRules exports in ../shared when that
// directory is there (read in place, never copied). Clean tables give no unreachable row, contradiction or type
// finding, and every example of the other findings is confirmed by evaluating the table.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { compileRule } from '../../src/engine/index.ts';
import { analyseDecisionTable } from '../../src/engine/analysis/index.ts';
import { readContainer } from '../../src/rules/containers.ts';
import { run } from '../engine/table-helpers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const DIRECTORIES = [join(root, 'examples'), join(root, 'test/fixtures'), join(root, '../shared/fixtures/decisionrules')];

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

function tables(): Array<{ name: string; document: Record<string, unknown> }> {
  const found: Array<{ name: string; document: Record<string, unknown> }> = [];
  for (const file of DIRECTORIES.flatMap(jsonFiles)) {
    let container;
    try {
      container = readContainer(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      continue; // not a rule file (inputs, expected outputs)
    }
    for (const entry of container.rules) {
      if (entry.document.type === 'decision-table') found.push({ name: `${file.slice(root.length)} ${entry.path}`, document: entry.document });
    }
  }
  return found;
}

test('real tables: no false unreachable, contradiction or type finding; every example confirmed', () => {
  const all = tables();
  assert.ok(all.length >= 10, `found ${all.length} fixture tables`);
  for (const { name, document } of all) {
    const rule = compileRule(document);
    const report = analyseDecisionTable(rule);
    const defects = report.findings.filter((f) => f.kind === 'unreachable' || f.kind === 'contradiction' || f.kind === 'type');
    assert.deepEqual(defects, [], name);
    for (const finding of report.findings) {
      if (finding.example === undefined) continue;
      const matched = run(rule, finding.example, { strategy: 'EVALUATE_ALL' }).result as Array<{ _match: boolean }>;
      const count = matched.filter((row) => row._match).length;
      if (finding.kind === 'gap') assert.equal(count, 0, `${name}: gap example ${JSON.stringify(finding.example)}`);
      if (finding.kind === 'overlap') assert.ok(count >= 2, `${name}: overlap example ${JSON.stringify(finding.example)}`);
    }
  }
});
