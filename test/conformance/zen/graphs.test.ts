// GoRules zen's graph conformance kit (test/conformance/zen/graphs, copied from zen's test-data/graphs): every
// graph's embedded tests solved by Verdict with zen's clock, each answer deepStrictEqual to zen's. Cases that do
// not pass are listed in expected-failures.json with the reason; a listed case that passes, or an unlisted
// failure, fails this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { solve } from '../../../src/engine/index.ts';
import { createScriptSandbox } from '../../../src/engine/script/sandbox.ts';
import { ZEN_NOW, compileGraph } from '../../engine/graph-helpers.ts';
import type { JdmFile } from '../../engine/graph-helpers.ts';
import { disposeSandboxes } from '../../support/isolate-teardown.ts';

const FLOOR = 129;
const folder = new URL('./graphs/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('./expected-failures.json', import.meta.url), 'utf8')) as Record<string, string>;

test('zen graph kit: every embedded test answers exactly as zen', async (t) => {
  // Function nodes run in isolated-vm, as complex-rule scripts do.
  const sandbox = createScriptSandbox({ maxIsolates: 1 });
  t.after(() => disposeSandboxes(sandbox));
  const failures = new Map<string, string>();
  let total = 0;
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
    const jdm = JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as JdmFile;
    const cases = jdm.tests ?? [];
    let compiled;
    try {
      compiled = compileGraph(jdm, file.replace(/\.json$/, ''));
    } catch (error) {
      cases.forEach((_, i) => failures.set(`${file}#${i}`, `compile: ${(error as Error).message}`));
      total += cases.length;
      continue;
    }
    for (const [i, { input, output }] of cases.entries()) {
      total++;
      const id = `${file}#${i}`;
      try {
        const { result } = await solve(compiled, input, { now: ZEN_NOW, sandbox });
        assert.deepStrictEqual(result, [output]);
        // Tracing walks the same way and answers the same.
        const traced = await solve(compiled, input, { now: ZEN_NOW, sandbox, trace: true });
        assert.deepStrictEqual(traced.result, [output]);
        assert.ok(Array.isArray(traced.trace) && traced.trace.length > 0);
      } catch (error) {
        failures.set(id, (error as Error).message.split('\n').slice(0, 12).join('\n'));
      }
    }
  }
  const passed = total - failures.size;
  console.log(`zen graph kit: ${passed}/${total} cases pass exactly (${failures.size} listed as expected failures)`);
  const unexpected = [...failures].filter(([id]) => !(id in expected));
  const nowPassing = Object.keys(expected).filter((id) => !failures.has(id));
  assert.deepEqual(unexpected.map(([id, why]) => `${id}: ${why}`), [], 'cases that fail without being listed in expected-failures.json');
  assert.deepEqual(nowPassing, [], 'cases listed in expected-failures.json that now pass: remove them');
  assert.equal(total, 131, 'the kit holds 131 cases');
  assert.ok(passed >= FLOOR, `at least ${FLOOR} of ${total} pass (got ${passed})`);
});
