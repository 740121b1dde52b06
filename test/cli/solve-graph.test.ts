// `verdict solve` on a decision graph (rule type decision-graph): a table and a function node, the function in the
// script sandbox the CLI makes for graphs (function nodes are scripts).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { removeTempDirs, runCli, tempDir } from './helpers.ts';
import { chain, graphDocument, tableContent } from '../engine/graph-helpers.ts';

after(removeTempDirs);

test('verdict solve answers a decision graph, its function node run in the sandbox', async () => {
  const graph = chain(
    { type: 'decisionTableNode', name: 'Tier', content: tableContent('first', ['spend'], ['tier'], [['>= 1000', "'gold'"], ['', "'basic'"]], { passThrough: true }) },
    { type: 'functionNode', name: 'Label', content: 'const handler = (input) => ({ label: input.tier.toUpperCase() + "-" + input.spend });' },
  );
  const dir = tempDir({ 'graph.json': graphDocument(graph, 'Loyalty') });
  const run = await runCli(['solve', join(dir, 'graph.json'), '-'], { stdin: '[{"spend":1500},{"spend":20}]' });
  assert.equal(run.stderr, '');
  assert.equal(run.code, 0);
  assert.deepEqual(JSON.parse(run.stdout), [[{ label: 'GOLD-1500' }], [{ label: 'BASIC-20' }]]);
});
