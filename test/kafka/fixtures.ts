// Rules the Kafka tests solve, written for these tests in the DecisionRules export shape.

type Doc = Record<string, unknown>;

function cond(column: string, operator: string, value: unknown = ''): Doc {
  return { column, type: 'input', scalarCondition: { operator, value, type: 'general' } };
}
function out(column: string, value: string): Doc {
  return { column, type: 'output', outputScalarValue: { type: 'common', value } };
}

/** Fruit prices: {fruit: "apple"} -> [{price: 3, colour: "red"}]; "pear" matches two rows. */
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

/** A one-row table answering {"message": text}; versions of it tell which version was solved. */
export function messageTable(ruleId: string, alias: string, version: number, message: string, status = 'published'): Doc {
  return {
    name: `Message ${alias}`,
    type: 'decision-table',
    status,
    ruleId,
    version,
    ruleAlias: alias,
    inputSchema: { any: {} },
    outputSchema: { message: {} },
    decisionTable: {
      columns: [
        { columnId: 'c1', type: 'input', condition: { type: 'simple', name: 'Any', inputVariable: 'any' } },
        { columnId: 'c2', type: 'output', columnOutput: { type: 'simple', name: 'Message', outputVariable: 'message' } },
      ],
      rows: [{ active: true, cells: [cond('c1', 'anything'), out('c2', message)] }],
    },
  };
}

export function script(ruleId: string, alias: string, source: string): Doc {
  return {
    name: `Script ${alias}`,
    type: 'complex-rule',
    status: 'published',
    ruleId,
    version: 1,
    ruleAlias: alias,
    inputSchema: {},
    outputSchema: {},
    script: source,
  };
}

/** A rule flow over the fruit table: {fruit} -> [{firstPrice}]. */
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

/** Everything the contract tests solve in the main space. */
export function contractRules(): Doc[] {
  return [
    fruitTable(),
    fruitFlow(),
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
