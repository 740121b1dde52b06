// Rules the Kafka tests solve, written for these tests in the DecisionRules export shape.

import { cond, messageTable, out, script } from '../support/rule-builders.ts';
import type { Doc } from '../support/rule-builders.ts';
import type { Request } from './harness.ts';

export { messageTable, script };

export function fruitTable(): Doc {
  const rows: Array<[string, string, string]> = [
    ['apple', '3', 'red'],
    ['pear', '4', 'green'],
    ['pear', '5', 'yellow'],
    ['plum', '6', 'blue'],
  ];
  return {
    name: 'Fruit Prices',
    type: 'decision-table',
    status: 'published',
    ruleId: 'rule-fruit',
    version: 1,
    ruleAlias: 'fruit-prices',
    inputSchema: { fruit: {} },
    outputSchema: { price: {}, colour: {} },
    decisionTable: {
      columns: [
        { columnId: 'c-fruit', type: 'input', condition: { type: 'simple', name: 'Fruit', inputVariable: 'fruit' } },
        { columnId: 'c-price', type: 'output', columnOutput: { type: 'simple', name: 'Price', outputVariable: 'price' } },
        { columnId: 'c-colour', type: 'output', columnOutput: { type: 'simple', name: 'Colour', outputVariable: 'colour' } },
      ],
      rows: rows.map(([fruit, price, colour]) => ({
        active: true,
        cells: [cond('c-fruit', '=', fruit), out('c-price', price), out('c-colour', colour)],
      })),
    },
  };
}

export const FRUITS = ['apple', 'pear', 'plum'] as const;
export const FRUIT_ANSWERS: Record<string, unknown[]> = {
  apple: [{ price: 3, colour: 'red' }],
  pear: [
    { price: 4, colour: 'green' },
    { price: 5, colour: 'yellow' },
  ],
  plum: [{ price: 6, colour: 'blue' }],
};

export function fruitFlow(): Doc {
  return {
    name: 'Fruit Flow',
    type: 'composition',
    status: 'published',
    ruleId: 'rule-fruit-flow',
    version: 1,
    ruleAlias: 'fruit-flow',
    inputSchema: { fruit: {} },
    outputSchema: { firstPrice: {} },
    dataTree: {
      globalVariable: 'start',
      mapping: [],
      children: [
        {
          baseId: 'rule-fruit',
          globalVariable: 'Fruit',
          mapping: [{ key: 'fruit', source: 'start', sourceVariable: 'fruit' }],
          children: [{ globalVariable: 'end', children: [null], mapping: [{ key: 'firstPrice', source: 'Fruit', sourceVariable: 'price' }] }],
        },
      ],
    },
  };
}

/** A GoRules JDM decision graph (issue 30): input -> expression -> output; Kafka solves it like any rule. */
export function fruitGraph(): Doc {
  return {
    name: 'Fruit Basket',
    type: 'decision-graph',
    status: 'published',
    ruleId: 'rule-fruit-graph',
    version: 1,
    ruleAlias: 'fruit-basket',
    inputSchema: {},
    outputSchema: {},
    decisionGraph: {
      nodes: [
        { id: 'in', type: 'inputNode', name: 'Request', position: { x: 0, y: 0 } },
        { id: 'calc', type: 'expressionNode', name: 'Basket', position: { x: 200, y: 0 }, content: { expressions: [{ id: 'e1', key: 'total', value: 'price * quantity' }] } },
        { id: 'out', type: 'outputNode', name: 'Response', position: { x: 400, y: 0 } },
      ],
      edges: [{ id: 'e-in', sourceId: 'in', targetId: 'calc' }, { id: 'e-out', sourceId: 'calc', targetId: 'out' }],
    },
  };
}

/** Everything the contract tests solve in the main space. */
export function contractRules(): Doc[] {
  return [
    fruitTable(),
    fruitFlow(),
    fruitGraph(),
    messageTable('rule-versions', 'versioned', 1, 'v1'),
    messageTable('rule-versions', 'versioned', 2, 'v2'),
    messageTable('rule-versions', 'versioned', 3, 'v3', 'pending'),
    messageTable('rule-draft', 'draft-only', 1, 'draft', 'pending'),
    messageTable('rule-dup-1', 'dup', 1, 'first'),
    messageTable('rule-dup-2', 'dup', 1, 'second'),
    script('rule-thrower', 'thrower', 'throw new Error("fruit is required");'),
    script('rule-spin', 'spin', 'while (true) {}'),
    script('rule-big', 'big-result', "output.big = 'x'.repeat(3000);\nreturn output;"),
  ];
}

/** Requests for the volume tests: the fruit table, correlation id `${prefix}-${i}`, spread over the partitions. */
export function volume(prefix: string, count: number, apiKey: string, partitions: number): Request[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `${prefix}-${i}`,
    partition: i % partitions,
    headers: { 'api-key': apiKey, 'rule-id': 'fruit-prices', 'x-correlation-id': `${prefix}-${i}` },
    value: JSON.stringify({ fruit: FRUITS[i % FRUITS.length] }),
  }));
}
