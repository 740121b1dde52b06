// The generic structural compare (studio/src/compare/json-diff.ts): aligned JSON lines, arrays matched by id or
// by equal elements, lifecycle fields left out, and one difference per change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignArrays, diffDocuments } from '../../studio/src/compare/json-diff.ts';

test('equal documents (keys in another order, other lifecycle) have no difference and print the same lines both sides', () => {
  const left = { name: 'T', type: 'decision-tree', version: 1, status: 'pending', lastUpdate: 'a', nodes: [{ id: 'a', type: 'then', nodes: [] }] };
  const right = { nodes: [{ type: 'then', nodes: [], id: 'a' }], type: 'decision-tree', name: 'T', version: 2, status: 'published', lastUpdate: 'b' };
  const diff = diffDocuments(left, right);
  assert.deepEqual(diff.differences, []);
  assert.ok(diff.lines.every((l) => l.status === 'same' && l.left === l.right));
  assert.ok(!diff.lines.some((l) => /version|status|lastUpdate/.test(l.left!)), 'lifecycle fields are left out');
  assert.equal(diff.lines.map((l) => l.left).join('\n'), JSON.stringify({ name: 'T', type: 'decision-tree', nodes: [{ id: 'a', type: 'then', nodes: [] }] }, null, 2).replace(/,$/gm, ''));
});

test('a changed value is one difference on the lines that face each other, named by its path', () => {
  const tree = (value: string) => ({ nodes: [{ id: 'n1', type: 'if', nodes: [{ id: 'c1', type: 'condition', modelVariablePath: 'age', scalarCondition: { operator: '>=', value } }] }] });
  const diff = diffDocuments(tree('18'), tree('21'));
  assert.deepEqual(diff.differences.map((d) => d.label), ['nodes[0].nodes[0].scalarCondition.value changed']);
  const [d] = diff.differences;
  assert.deepEqual(diff.lines.slice(d!.line, d!.line + d!.count), [{ left: '            "value": "18"', right: '            "value": "21"', status: 'changed' }]);
  assert.equal(diff.lines.filter((l) => l.status !== 'same').length, 1, 'everything else faces its equal');
});

test('nodes with ids align by id: an inserted node is only on the right, a removed one only on the left, the rest compared inside', () => {
  const left = { nodes: [{ id: 'a', v: 1 }, { id: 'b', v: 2 }, { id: 'c', v: 3 }] };
  const right = { nodes: [{ id: 'a', v: 1 }, { id: 'x', v: 9 }, { id: 'c', v: 4 }] };
  const diff = diffDocuments(left, right);
  assert.deepEqual(diff.differences.map((d) => d.label), ['nodes[1] only in the left version', 'nodes[1] only in the right version', 'nodes[2].v changed']);
  const removed = diff.differences[0]!;
  assert.ok(diff.lines.slice(removed.line, removed.line + removed.count).every((l) => l.status === 'left-only' && l.right === undefined));
  assert.deepEqual(alignArrays(left.nodes, right.nodes), [[0, 0], [1, undefined], [undefined, 1], [2, 2]]);
});

test('arrays without ids align on equal elements and pair the rest in order; surplus stands alone', () => {
  assert.deepEqual(alignArrays([1, 2, 3, 4], [1, 9, 3, 4, 5]), [[0, 0], [1, 1], [2, 2], [3, 3], [undefined, 4]]);
  assert.deepEqual(alignArrays(['a', 'b', 'c'], ['c']), [[0, undefined], [1, undefined], [2, 0]]);
  const diff = diffDocuments({ tags: ['x', 'y'] }, { tags: ['x', 'z', 'w'] });
  assert.deepEqual(diff.differences.map((d) => d.label), ['tags[1] changed', 'tags[2] only in the right version']);
});

test('keys only on one side keep their place; a type change shows both forms facing each other', () => {
  const diff = diffDocuments({ a: 1, gone: true, b: 2 }, { a: 1, b: { deep: [1, 2] }, added: 'x' });
  assert.deepEqual(diff.differences.map((d) => d.label), ['gone only in the left version', 'b changed', 'added only in the right version']);
  const changed = diff.differences[1]!;
  const lines = diff.lines.slice(changed.line, changed.line + changed.count);
  assert.equal(lines[0]!.left, '  "b": 2');
  assert.equal(lines[0]!.right, '  "b": {');
  assert.equal(lines.length, 6);
  assert.ok(lines.slice(1).every((l) => l.left === undefined && l.status === 'changed'));
});

// The time is not asserted (a loaded machine can miss any window); what keeps it linear is: only the elements
// between the common start and end are aligned by LCS, so one edit among 20,000 rows is aligned alone.
test('a large lookup-style array: one changed row, or one inserted row, is the one difference', () => {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ key: `k${i}`, value: i }));
  const changed = rows.slice();
  changed[12_345] = { key: 'k12345', value: -1 };
  assert.deepEqual(diffDocuments({ data: rows }, { data: changed }).differences.map((d) => d.label), ['data[12345].value changed']);
  // Untrimmed, 20,000 x 20,001 elements are beyond the LCS budget and would pair in order: 10,000 changed rows.
  const inserted = [...rows.slice(0, 10_000), { key: 'new', value: 0 }, ...rows.slice(10_000)];
  assert.deepEqual(diffDocuments({ data: rows }, { data: inserted }).differences.map((d) => d.label), ['data[10000] only in the right version']);
});
