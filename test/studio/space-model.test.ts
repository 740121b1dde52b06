// The plain logic of the Studio's space pages: the overview's series and chart scales (studio/src/space/chart.ts),
// the dependency graph and its layout (graph.ts) and the audit filter form (audit-filter.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Dependencies, RuleSeries } from '../../studio/src/space/api.ts';
import { auditQuery } from '../../studio/src/space/api.ts';
import { auditFilterOf, EMPTY_AUDIT_FORM } from '../../studio/src/space/audit-filter.ts';
import { bucketTimes, formatTick, linePath, maxOf, metricValues, niceMax, scales, ticks, totals } from '../../studio/src/space/chart.ts';
import { buildGraph, layoutGraph, NODE_HEIGHT, NODE_WIDTH } from '../../studio/src/space/graph.ts';

const rule: RuleSeries = {
  ruleId: 'r', ruleAlias: 'pricing', type: 'decision-table',
  total: { solves: 10, errors: 2, p50Ms: 1.5, p99Ms: 9 },
  solves: [0, 6, 4], errors: [0, 0, 2], p50Ms: [null, 1, 2], p99Ms: [null, 5, 9],
};

test('series: solves per second divide by the bucket width; error rate is % of the minute\'s solves, none without solves', () => {
  assert.deepEqual(metricValues(rule, 'rate', 60), [0, 0.1, 4 / 60]);
  assert.deepEqual(metricValues(rule, 'errorRate', 60), [null, 0, 50]);
  assert.deepEqual(metricValues(rule, 'p50', 60), [null, 1, 2]);
  assert.deepEqual(metricValues(rule, 'p99', 60), [null, 5, 9]);
  assert.deepEqual(totals(rule, 180), { rate: 10 / 180, errorRate: 20, p50: 1.5, p99: 9 });
  assert.deepEqual(bucketTimes({ from: '2026-03-01T10:00:00.000Z', bucketSeconds: 60 }, 3), [0, 1, 2].map((i) => Date.parse('2026-03-01T10:00:00.000Z') + i * 60_000));
});

test('the y axis tops at a nice 1, 2 or 5 x 10^n at or above the highest value', () => {
  assert.equal(niceMax(0), 1, 'an empty chart still has an axis');
  assert.equal(niceMax(0.07), 0.1);
  assert.equal(niceMax(1), 1);
  assert.equal(niceMax(1.2), 2);
  assert.equal(niceMax(3), 5);
  assert.equal(niceMax(7.5), 10);
  assert.equal(niceMax(420), 500);
  assert.deepEqual(ticks(2), [0, 0.5, 1, 1.5, 2]);
  assert.deepEqual(ticks(5), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(ticks(100), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual([0, 0.1, 0.30000000000000004, 2.5, 1234.5].map(formatTick), ['0', '0.1', '0.3', '2.5', '1235']);
  assert.equal(maxOf([[null, 3], [7, null], []]), 7);
});

test('scales map the first and last bucket to the plot edges and 0..max bottom to top; paths break at gaps', () => {
  const frame = { width: 110, height: 60, left: 10, right: 0, top: 10, bottom: 0 };
  const { x, y } = scales(frame, 3, 10);
  assert.deepEqual([x(0), x(1), x(2)], [10, 60, 110]);
  assert.deepEqual([y(0), y(5), y(10), y(20)], [60, 35, 10, 10], 'values above the top are clamped');
  assert.equal(linePath([1, 2, null, 4], (i) => i * 10, (v) => v), 'M0,1L10,2M30,4');
  assert.equal(linePath([null, null], (i) => i, (v) => v), '');
});

const deps: Dependencies = {
  rule: { ruleId: 'flow', version: 2, name: 'Order flow', ruleAlias: 'order-flow', type: 'composition' } as never,
  dependencies: [
    { ruleId: 'rates', version: 1, ruleAlias: 'rates', name: 'Rates', type: 'lookup-table' },
    { ruleId: 'price', version: 3, ruleAlias: 'price', name: 'Price', type: 'decision-table' },
  ],
  edges: [
    { from: { ruleId: 'flow', version: 2 }, to: { ruleId: 'price', version: 3 }, kind: 'flow' },
    { from: { ruleId: 'price', version: 3 }, to: { ruleId: 'rates', version: 1 }, kind: 'LOOKUP' },
  ],
  missing: [{ idOrAlias: 'gone', from: 'price' }],
};

test('the graph has the rule, what it uses and what is missing, with an edge per use', () => {
  const graph = buildGraph(deps);
  assert.deepEqual(graph.nodes.map((n) => [n.id, n.root, n.missing]), [
    ['flow@2', true, false], ['rates@1', false, false], ['price@3', false, false], ['missing:gone@latest', false, true],
  ]);
  assert.deepEqual(graph.edges.map((e) => [e.source, e.target, e.kind]), [
    ['flow@2', 'price@3', 'flow'], ['price@3', 'rates@1', 'LOOKUP'], ['price@3', 'missing:gone@latest', 'missing'],
  ]);
});

test('the layout puts callers above the rules they call and no two nodes on top of each other', () => {
  const graph = buildGraph(deps);
  const at = new Map(layoutGraph(graph).map((p) => [p.id, p]));
  for (const edge of graph.edges) assert.ok(at.get(edge.source)!.y + NODE_HEIGHT <= at.get(edge.target)!.y, `${edge.source} above ${edge.target}`);
  const boxes = [...at.values()];
  for (const a of boxes) {
    for (const b of boxes) {
      if (a === b) continue;
      const overlap = a.x < b.x + NODE_WIDTH && b.x < a.x + NODE_WIDTH && a.y < b.y + NODE_HEIGHT && b.y < a.y + NODE_HEIGHT;
      assert.ok(!overlap, `${a.id} and ${b.id} overlap`);
    }
  }
});

test('audit filters: only what is set is sent; a bad status or time, or from after to, is named', () => {
  assert.deepEqual(auditFilterOf(EMPTY_AUDIT_FORM), { filter: {} });
  const ok = auditFilterOf({ ruleId: ' pricing ', correlationId: 'c-1', status: '400', from: '2026-03-01T10:00', to: '2026-03-01T11:00' });
  assert.ok(ok.filter);
  assert.equal(ok.filter.ruleId, 'pricing');
  assert.equal(ok.filter.status, '400');
  assert.equal(ok.filter.from, new Date('2026-03-01T10:00').toISOString());
  assert.match(auditFilterOf({ ...EMPTY_AUDIT_FORM, status: 'ok' }).error ?? '', /Status must be a status code .* not "ok"/);
  assert.match(auditFilterOf({ ...EMPTY_AUDIT_FORM, from: 'soon' }).error ?? '', /From is not a date and time: "soon"/);
  assert.match(auditFilterOf({ ...EMPTY_AUDIT_FORM, from: '2026-03-02T00:00', to: '2026-03-01T00:00' }).error ?? '', /From is after To/);
  assert.equal(auditQuery({ ruleId: 'pricing', status: '', correlationId: 'a b' }), 'ruleId=pricing&correlationId=a+b&limit=50');
});
