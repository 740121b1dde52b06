// Decision tables the Studio scenarios start from, built here (never copied from the shared fixtures).
export type Doc = Record<string, any>;

function condition(column: string, operator: string, value: unknown, type = 'general'): Doc {
  return { column, type: 'input', scalarCondition: { operator, value, type } };
}
function result(column: string, value: string): Doc {
  return { column, type: 'output', outputScalarValue: { type: 'common', value } };
}

/** A small pricing table: two conditions, two results, three rows (the last an ELSE row). */
export function pricingTable(name = 'Membership discount', extra: Doc = {}): Doc {
  return {
    type: 'decision-table', name, status: 'published', tags: ['pricing'],
    inputSchema: { customer: { tier: {}, age: {} } },
    outputSchema: { discount: {}, note: {} },
    decisionTable: {
      columns: [
        { columnId: 'tier', type: 'input', alias: 'col-tier', condition: { type: 'simple', name: 'Tier', definition: { content: 'customer.tier', type: 'INPUT_VARIABLE', valid: true } } },
        { columnId: 'age', type: 'input', alias: 'col-age', condition: { type: 'simple', name: 'Age', definition: { content: 'customer.age', type: 'INPUT_VARIABLE', valid: true } } },
        { columnId: 'discount', type: 'output', alias: 'col-discount', columnOutput: { type: 'simple', name: 'Discount', outputVariable: 'discount' } },
        { columnId: 'note', type: 'output', alias: 'col-note', columnOutput: { type: 'simple', name: 'Note', outputVariable: 'note' } },
      ],
      rows: [
        { active: true, cells: [condition('tier', '=', 'gold'), condition('age', '>=', '18'), result('discount', '20'), result('note', 'Gold member')] },
        { active: true, cells: [condition('tier', 'IN', ['silver', 'bronze']), condition('age', 'between', ['18', '65']), result('discount', '10'), result('note', 'Member')] },
        { active: true, cells: [condition('tier', 'ELSE', ''), condition('age', 'anything', ''), result('discount', '0'), result('note', 'No discount')] },
      ],
    },
    ...extra,
  };
}

/** A rows x columns table (half conditions, half results) for the open-time and scroll checks. */
export function bigTable(rows = 10_000, columns = 20, name = 'Ten thousand rows'): Doc {
  const conditions = Math.floor(columns / 2);
  const cols: Doc[] = [];
  const inputSchema: Doc = {};
  const outputSchema: Doc = {};
  for (let c = 0; c < columns; c++) {
    const id = `c${c}`;
    if (c < conditions) {
      inputSchema[`in${c}`] = {};
      cols.push({ columnId: id, type: 'input', alias: `col-in-${c}`, condition: { type: 'simple', name: `In ${c}`, definition: { content: `in${c}`, type: 'INPUT_VARIABLE', valid: true } } });
    } else {
      outputSchema[`out${c}`] = {};
      cols.push({ columnId: id, type: 'output', alias: `col-out-${c}`, columnOutput: { type: 'simple', name: `Out ${c}`, outputVariable: `out${c}` } });
    }
  }
  const body = Array.from({ length: rows }, (_, r) => ({
    active: true,
    cells: cols.map((col, c) => (c < conditions
      ? condition(col.columnId, c % 3 === 0 ? 'between' : '>=', c % 3 === 0 ? [String(r), String(r + 10)] : String(r * c))
      : result(col.columnId, `r${r}c${c}`))),
  }));
  return { type: 'decision-table', name, status: 'published', inputSchema, outputSchema, decisionTable: { columns: cols, rows: body } };
}
