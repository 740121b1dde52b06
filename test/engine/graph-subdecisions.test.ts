// Decision nodes (sub-decisions through the RuleResolver, by alias, id or GoRules file name; cycles refused) and
// function nodes (JavaScript v1 and v2 in the script sandbox) of decision graphs.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { RuleError, ValidationError, compileRule, solve } from '../../src/engine/index.ts';
import { createScriptSandbox } from '../../src/engine/script/sandbox.ts';
import { ZEN_NOW, chain, compileGraph, graphDocument, mapResolver, tableContent } from './graph-helpers.ts';
import { disposeSandboxes } from '../support/isolate-teardown.ts';

const sandbox = createScriptSandbox({ maxIsolates: 1 });
after(() => disposeSandboxes(sandbox));

const tiers = compileGraph(
  chain({ type: 'decisionTableNode', name: 'Tier', content: tableContent('first', ['spend'], ['tier'], [['>= 1000', "'gold'"], ['', "'basic'"]]) }),
  'Tiers',
  { ruleAlias: 'tiers', ruleId: 'rule-tiers' },
);

const caller = (key: string, extra: Record<string, unknown> = {}) =>
  compileGraph(chain({ type: 'decisionNode', name: 'Lookup', content: { key, ...extra } }), 'Caller', { ruleAlias: 'caller' });

test('a decision node solves another graph of the space by alias, id or file name, and lists it as a dependency', async () => {
  const resolver = mapResolver([tiers]);
  for (const key of ['tiers', 'rule-tiers', 'tiers.json', 'folder/tiers.json']) {
    const rule = caller(key);
    assert.deepEqual(rule.dependencies, [{ idOrAlias: key.replace(/^.*\//, '').replace(/\.json$/, '') }]);
    assert.deepEqual((await solve(rule, { spend: 1500 }, { now: ZEN_NOW, resolver })).result, [{ tier: 'gold' }]);
  }
});

test('a sub-decision with passThrough and outputPath nests its answer; its trace is the sub-graph trace', async () => {
  const rule = caller('tiers', { passThrough: true, outputPath: 'loyalty' });
  const solved = await solve(rule, { spend: 10 }, { now: ZEN_NOW, resolver: mapResolver([tiers]), trace: true });
  assert.deepEqual(solved.result, [{ spend: 10, loyalty: { tier: 'basic' } }]);
  const lookup = (solved.trace as { name: string; traceData: { name: string }[] }[])[1];
  assert.deepEqual(lookup.traceData.map((t) => t.name), ['Request', 'Tier', 'Response']);
});

test('an unknown key and a cycle between graphs are RuleErrors naming the node', async () => {
  await assert.rejects(solve(caller('nope'), {}, { now: ZEN_NOW, resolver: mapResolver([tiers]) }), /node "Lookup" \(decisionNode\): sub-decision "nope" names no rule/);
  const a = compileGraph(chain({ type: 'decisionNode', name: 'ToB', content: { key: 'b' } }), 'A', { ruleAlias: 'a' });
  const b = compileGraph(chain({ type: 'decisionNode', name: 'ToA', content: { key: 'a.json' } }), 'B', { ruleAlias: 'b' });
  await assert.rejects(solve(a, {}, { now: ZEN_NOW, resolver: mapResolver([a, b]) }), (error: unknown) => {
    assert.ok(error instanceof RuleError);
    assert.match(error.message, /sub-decision cycle: "a" -> "b" -> "a"/);
    return true;
  });
});

test('a v1 function node gets the input with $nodes and zen helpers (Big, dayjs); its answer drops $nodes', async () => {
  const source = `const handler = (input, { Big, dayjs }) => {
  console.log('total', input.price);
  return { ...input, total: Big(input.price).times(3).toNumber(), year: dayjs('2024-05-01').year(), seen: Object.keys(input.$nodes) };
};`;
  const rule = compileGraph(chain({ type: 'functionNode', name: 'Fn', content: source }));
  const solved = await solve(rule, { price: 0.1 }, { now: ZEN_NOW, sandbox, trace: true });
  assert.deepEqual(solved.result, [{ price: 0.1, total: 0.3, year: 2024, seen: ['Request'] }]);
  assert.deepEqual((solved.trace as { traceData?: unknown }[])[1].traceData, { log: ['total 0.1'] });
});

test('a v2 function node may import big.js and dayjs; other modules and syntax errors are refused when it compiles', async () => {
  const source = `import Big from 'big.js';\nexport const handler = async (input) => ({ half: Big(input.n).div(2).toNumber() });`;
  const rule = compileGraph(chain({ type: 'functionNode', name: 'Fn', content: { source } }));
  assert.deepEqual((await solve(rule, { n: 5 }, { now: ZEN_NOW, sandbox })).result, [{ half: 2.5 }]);

  const refused = (src: string) => {
    try {
      compileRule(graphDocument(chain({ type: 'functionNode', name: 'Fn', content: { source: src } })));
    } catch (error) {
      assert.ok(error instanceof ValidationError);
      return error.problems;
    }
    return assert.fail('the graph compiled');
  };
  assert.deepEqual(refused(`import { z } from 'zod';\nexport const handler = () => 1;`).map((p) => p.path), ['decisionGraph.nodes[1].content.source']);
  assert.match(refused(`import http from 'http';\nexport const handler = () => 1;`)[0].message, /line 1: imports "http"; function nodes here provide "big.js" and "dayjs" only/);
  assert.match(refused('export const handler = (input: number) => input;')[0].message, /does not compile.*TypeScript/);
});

test('a function that throws is a RuleError naming the node; without a sandbox the node says so', async () => {
  const rule = compileGraph(chain({ type: 'functionNode', name: 'Fn', content: "const handler = () => { throw new Error('boom'); };" }));
  await assert.rejects(solve(rule, {}, { now: ZEN_NOW, sandbox }), /node "Fn" \(functionNode\): .*boom/);
  await assert.rejects(solve(rule, {}, { now: ZEN_NOW }), /node "Fn" \(functionNode\): function nodes need a script sandbox/);
});
