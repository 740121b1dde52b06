// readRule (src/rules/validate.ts): a document is checked and read into its type's typed model in one pass; the
// engine compiles only from that model. A model refers to the document's own cell objects, never copies them.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRule } from '../../src/rules/validate.ts';
import type { RuleModel } from '../../src/rules/rule-types.ts';
import { cellPosition } from '../../src/rules/model/decision-table.ts';
import type { TreeBlock } from '../../src/rules/model/decision-tree.ts';
import { fixture } from './helpers.ts';

function modelOf(doc: unknown): RuleModel {
  const read = readRule(doc);
  assert.deepEqual(read.problems, []);
  assert.ok(read.model);
  return read.model;
}

test('a malformed document has problems and no model; a valid one a model and no problems', () => {
  const broken = fixture('pricing-table.json');
  broken.decisionTable.rows[0].cells[0].scalarCondition.operator = 'betwen';
  const read = readRule(broken);
  assert.equal(read.model, undefined);
  assert.deepEqual(read.problems.map((p) => p.path), ['decisionTable.rows[0].cells[0].scalarCondition.operator']);
  assert.equal(readRule('not a rule').model, undefined);
  assert.equal(modelOf(fixture('pricing-table.json')).type, 'decision-table');
});

test('a table model has one column form, ids as text, and cells matched to columns by id', () => {
  const doc = fixture('pricing-table.json');
  const columns = doc.decisionTable.columns;
  // The ≥1.19 condition form, a number id, and the cells of the first row in reverse order.
  columns[1].condition = { type: 'simple', name: 'Period', definition: { content: ' period ' } };
  columns[2].columnId = 7;
  for (const row of doc.decisionTable.rows) {
    for (const cell of row.cells) if (cell.column === 'c-promo') cell.column = 7;
  }
  const first = doc.decisionTable.rows[0];
  first.cells.reverse();
  doc.decisionTable.rows[1].active = false;
  const model = modelOf(doc);
  assert.equal(model.type, 'decision-table');
  if (model.type !== 'decision-table') return;
  assert.deepEqual(
    model.columns.map((c) => [c.id, c.kind, c.target, c.position]),
    [
      ['c-product', 'input', 'productType', 0],
      ['c-period', 'input', 'period', 1],
      ['7', 'input', 'promoCode', 2],
      ['c-crude', 'output', 'prices.crudePrice', 3],
      ['c-final', 'output', 'prices.finalPrice', 4],
      ['c-message', 'output', 'message', 5],
    ],
  );
  const row = model.rows[0]!;
  assert.equal(row.cells[0]!.scalarCondition!.value, 'basic');
  assert.equal(row.cells[3]!.outputScalarValue!.value, '10');
  // The cell is the stored object itself (no copy of a large table), and its stored position is found back.
  assert.equal(row.cells[0], first.cells.find((c: { column: unknown }) => c.column === 'c-product'));
  assert.equal(cellPosition(row, row.cells[0]!), first.cells.length - 1);
  assert.equal(model.rows[1]!.active, false);
  assert.equal(model.rows.length, doc.decisionTable.rows.length);
});

test('a row without a cell for a column has none in the model', () => {
  const doc = fixture('pricing-table.json');
  doc.decisionTable.rows[0].cells = doc.decisionTable.rows[0].cells.filter((c: { column: string }) => c.column !== 'c-promo');
  const model = modelOf(doc);
  if (model.type !== 'decision-table') throw new Error('expected a table');
  assert.equal(model.rows[0]!.cells[2], undefined);
  assert.notEqual(model.rows[0]!.cells[1], undefined);
});

test('a tree model holds typed blocks: an if with its conditions and body, else, then with results', () => {
  const model = modelOf(fixture('shipping-tree.json'));
  if (model.type !== 'decision-tree') throw new Error('expected a tree');
  const [first, second] = model.blocks as [TreeBlock, TreeBlock];
  assert.equal(first.kind, 'if');
  if (first.kind !== 'if') return;
  assert.deepEqual(first.conditions.map((c) => [c.kind, c.id, c.path]), [['condition', 't2', 'nodes[0].nodes[0]'], ['or', 't3', 'nodes[0].nodes[1]']]);
  const or = first.conditions[1]!;
  assert.ok(or.kind === 'or');
  assert.deepEqual(or.items.map((g) => g.kind), ['group', 'group']);
  const leaf = first.conditions[0]!;
  assert.ok(leaf.kind === 'condition');
  assert.equal(leaf.modelVariablePath, 'parcel.weight');
  assert.deepEqual(leaf.scalarCondition.value, ['0', '20']);
  assert.deepEqual(first.body.map((b) => b.kind), ['then']);
  const then = first.body[0]!;
  assert.ok(then.kind === 'then');
  assert.deepEqual(then.results.map((r) => [r.id, r.modelVariablePath, r.outputScalarValue.value]), [['t9', 'price', '12'], ['t10', 'delivery.hours', '24']]);
  assert.equal(second.kind, 'else');
});

test('a tree node without an id is known by its path', () => {
  const doc = fixture('shipping-tree.json');
  delete doc.nodes[0].id;
  const model = modelOf(doc);
  if (model.type !== 'decision-tree') throw new Error('expected a tree');
  assert.equal(model.blocks[0]!.id, 'nodes[0]');
});

test('a lookup model keys its rows by text whatever the data encoding; a script model holds its source', () => {
  const lookup = modelOf(fixture('banks-lookup.json'));
  if (lookup.type !== 'lookup-table') throw new Error('expected a lookup table');
  assert.equal(lookup.primaryKey.alias, 'bic');
  assert.ok(lookup.rows.some((row) => row.key === '1234'));
  const script = modelOf({ name: 's', type: 'complex-rule', status: 'published', inputSchema: {}, outputSchema: {}, script: 'return input;' });
  assert.deepEqual(script.type === 'complex-rule' && script.script, 'return input;');
});

test('a decision flow model holds typed nodes with their connectors, and the connections', () => {
  const flow = JSON.parse(readFileSync(new URL('../fixtures/flows/segmentation/segmentation-flow.json', import.meta.url), 'utf8'));
  const model = modelOf(flow);
  if (model.type !== 'workflow') throw new Error('expected a decision flow');
  const stored = flow.workflowData.nodes as { id: string; type: string; connectors?: unknown[] }[];
  assert.deepEqual(model.nodes.map((n) => [n.id, n.type]), stored.map((n) => [n.id, n.type]));
  assert.deepEqual(model.nodes.map((n) => n.path), stored.map((_, i) => `workflowData.nodes[${i}]`));
  assert.equal(model.connections.length, flow.workflowData.connections.length);
  const connectorIds = new Set(model.nodes.flatMap((n) => n.connectors.map((c) => c.id)));
  for (const connection of model.connections) assert.ok(connectorIds.has(connection.source) && connectorIds.has(connection.target));
  const rule = model.nodes.find((n) => n.type === 'BUSINESS_RULE');
  // The node's data is typed by its type: a BUSINESS_RULE node names the rule it calls.
  if (rule?.type === 'BUSINESS_RULE') assert.ok(rule.data.rule.ruleAlias ?? rule.data.rule.baseId);
  const integration = modelOf({ ...flow, type: 'integration-flow' });
  assert.equal(integration.type, 'integration-flow');
});

test('a rule flow model is its tree of nodes from start to the end node, with their mappings', () => {
  const composition = fixture('pricing-flow-export.json')[0];
  const model = modelOf(composition);
  if (model.type !== 'composition') throw new Error('expected a rule flow');
  assert.equal(model.document, composition);
  const names: string[] = [];
  const walk = (node: typeof model.root): void => {
    names.push(node.name);
    node.children.forEach(walk);
  };
  walk(model.root);
  assert.equal(names[0], composition.dataTree.globalVariable);
  assert.equal(model.root.baseId, undefined);
  const ruleNode = model.root.children[0]!;
  assert.equal(ruleNode.baseId, composition.dataTree.children[0].baseId);
  assert.equal(ruleNode.path, 'dataTree.children[0]');
  assert.ok(ruleNode.mapping.every((m) => typeof m.key === 'string' && typeof m.source === 'string'));
});
