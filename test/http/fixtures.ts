// Rules the HTTP tests solve: one of each solvable type, written for these tests (modelled on the shapes of
// real DecisionRules exports, not copied from them).

import { cond, messageTable, out, script } from '../support/rule-builders.ts';
import type { Doc } from '../support/rule-builders.ts';

export { messageTable, script };

export function plantTable(overrides: Doc = {}): Doc {
  const rows: Array<[string, string, string, string]> = [
    ['plant', 'anything', 'Monstera', '460'],
    ['plant', 'anything', 'Begonia', '590'],
    ['book', 'anything', 'Plant Lovers', '470'],
    ['plant', 'true', 'Maranta', '390'],
  ];
  return {
    name: 'Plant Items',
    type: 'decision-table',
    status: 'published',
    ruleId: 'rule-plants',
    version: 1,
    ruleAlias: 'plant-items',
    inputSchema: { group: {}, inStock: {} },
    outputSchema: { name: {}, price: {} },
    decisionTable: {
      columns: [
        { columnId: 'c-group', type: 'input', alias: 'col-group', condition: { type: 'simple', name: 'Group', inputVariable: 'group' } },
        { columnId: 'c-stock', type: 'input', alias: 'col-stock', condition: { type: 'simple', name: 'In stock', inputVariable: 'inStock' } },
        { columnId: 'c-name', type: 'output', alias: 'col-name', columnOutput: { type: 'simple', name: 'Name', outputVariable: 'name' } },
        { columnId: 'c-price', type: 'output', alias: 'col-price', columnOutput: { type: 'simple', name: 'Price', outputVariable: 'price' } },
      ],
      rows: rows.map(([group, stock, name, price]) => ({
        active: true,
        cells: [
          cond('c-group', '=', group),
          stock === 'anything' ? cond('c-stock', 'anything') : cond('c-stock', '=', stock),
          out('c-name', name),
          out('c-price', price),
        ],
      })),
    },
    ...overrides,
  };
}

export function deliveryTree(): Doc {
  const then = (id: string, price: string, hours: string): Doc => ({
    id,
    type: 'then',
    operandText: 'Then',
    nodes: [
      { id: `${id}-p`, type: 'result', modelVariablePath: 'price', outputScalarValue: { type: 'common', value: price } },
      { id: `${id}-h`, type: 'result', modelVariablePath: 'hours', outputScalarValue: { type: 'common', value: hours } },
    ],
  });
  return {
    name: 'Delivery Tree',
    type: 'decision-tree',
    status: 'published',
    ruleId: 'rule-tree',
    version: 1,
    ruleAlias: 'delivery-tree',
    inputSchema: { weight: {} },
    outputSchema: { price: {}, hours: {} },
    nodes: [
      {
        id: 'if1',
        type: 'if',
        operandText: 'If',
        nodes: [
          { id: 'c1', type: 'condition', modelVariablePath: 'weight', scalarCondition: { operator: 'between', value: ['0', '10'], type: 'general' } },
          then('t1', '5', '24'),
        ],
      },
      { id: 'else1', type: 'else', operandText: 'Else', nodes: [then('t2', '20', '72')] },
    ],
  };
}

export function bankLookup(): Doc {
  return {
    name: 'Bank Lookup',
    type: 'lookup-table',
    status: 'published',
    ruleId: 'rule-lookup',
    version: 1,
    ruleAlias: 'bank-lookup',
    primaryKeyColumn: 'pk',
    columns: [
      { name: 'Code', alias: 'pk', isPrimaryKey: true },
      { name: 'Bank', alias: 'bank', isPrimaryKey: false },
      { name: 'Country', alias: 'country', isPrimaryKey: false },
    ],
    data: {
      AAA1: { pk: 'AAA1', bank: 'First Bank', country: 'CZ', _position: 0 },
      BBB2: { pk: 'BBB2', bank: 'Second Bank', country: 'SK', _position: 1 },
    },
    inputSchema: { primaryKey: {}, outputColumn: {} },
    outputSchema: { output: {} },
  };
}

export function plantFlow(): Doc {
  return {
    name: 'Plant Flow',
    type: 'composition',
    status: 'published',
    ruleId: 'rule-flow',
    version: 1,
    ruleAlias: 'plant-flow',
    inputSchema: { group: {} },
    outputSchema: { first: {} },
    dataTree: {
      globalVariable: 'start',
      mapping: [],
      children: [
        {
          baseId: 'rule-plants',
          globalVariable: 'Plants',
          mapping: [{ key: 'group', source: 'start', sourceVariable: 'group' }],
          children: [{ globalVariable: 'end', children: [null], mapping: [{ key: 'first', source: 'Plants', sourceVariable: 'name' }] }],
        },
      ],
    },
  };
}

export const PLANT_INPUT = { group: 'plant', inStock: false };
export const MONSTERA = { name: 'Monstera', price: 460 };
export const BEGONIA = { name: 'Begonia', price: 590 };
export const MARANTA = { name: 'Maranta', price: 390 };
export const PLANT_LOVERS = { name: 'Plant Lovers', price: 470 };

/** A decision flow: START -> Assign output.double = {input.value} * 2 -> END. */
export function doublingWorkflow(): Doc {
  return {
    name: 'Doubling Flow',
    type: 'workflow',
    status: 'published',
    ruleId: 'rule-workflow',
    version: 1,
    ruleAlias: 'doubling-flow',
    inputSchema: { value: {} },
    outputSchema: { double: {} },
    workflowData: {
      nodes: [
        { id: 'n-start', type: 'START', version: 1, position: { x: 0, y: 0 }, connectors: [{ id: 'start-out', type: 'out', subType: 'none', maxConnections: -1 }] },
        {
          id: 'n-assign',
          type: 'DATA_MANIPULATION',
          version: 1,
          name: 'assign',
          position: { x: 200, y: 0 },
          connectors: [
            { id: 'assign-in', type: 'in', subType: 'none', maxConnections: -1 },
            { id: 'assign-out', type: 'out', subType: 'none', maxConnections: -1 },
          ],
          data: {
            mapping: [
              {
                source: { expression: { type: 1, outputScalarValue: { type: 'function', value: '{input.value} * 2', stringValue: '{input.value} * 2' } } },
                target: { path: 'output.double' },
              },
            ],
          },
        },
        { id: 'n-end', type: 'END', version: 1, position: { x: 400, y: 0 }, connectors: [{ id: 'end-in', type: 'in', subType: 'none', maxConnections: -1 }] },
      ],
      connections: [
        { id: 'k1', source: 'start-out', target: 'assign-in', type: 0 },
        { id: 'k2', source: 'assign-out', target: 'end-in', type: 0 },
      ],
    },
  };
}
