// A page with only the table designer, for the designer's browser test (test/studio/designer-browser.test.ts)
// and manual checks. Not part of the Studio build. `?scenario=big` opens a 10,000 x 20 table; the current
// document is kept in `window.__rule`, the time to first frame in `window.__openMs`.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { TableDesigner } from '../index.ts';
import type { Problem } from '../index.ts';

declare global {
  interface Window {
    __rule: unknown;
    __openMs?: number;
    __changes: number;
  }
}

const scenario = new URLSearchParams(location.search).get('scenario') ?? 'sample';

function bigRule(rowCount: number, columnCount: number) {
  const columns = Array.from({ length: columnCount }, (_, i) => {
    const id = `c${i}`;
    if (i < columnCount / 2) return { columnId: id, type: 'input', condition: { type: 'simple', name: `Condition ${i}`, inputVariable: `in.f${i}` } };
    if (i < columnCount / 2 + 2) return { columnId: id, type: 'calc', calculation: { name: `Calc ${i}`, variable: `v${i}` } };
    return { columnId: id, type: 'output', columnOutput: { type: 'simple', name: `Result ${i}`, outputVariable: `out.f${i}` } };
  });
  const operators: [string, unknown][] = [['=', 'abc'], ['>', '5'], ['between', ['1', '9']], ['IN', ['a', 'b']], ['anything', '']];
  const rows = Array.from({ length: rowCount }, (_, r) => ({
    active: true,
    cells: columns.map((c, i) => {
      if (c.type === 'input') {
        const [operator, value] = operators[(r + i) % operators.length]!;
        return { column: c.columnId, type: 'input', scalarCondition: { operator, value, type: 'general' } };
      }
      if (c.type === 'calc') return { column: c.columnId, type: 'calc', outputScalarValue: { type: 'function', value: '', stringValue: `{in.f0}*${r}` } };
      return { column: c.columnId, type: 'output', outputScalarValue: { type: 'common', value: `r${r}c${i}` } };
    }),
  }));
  return { type: 'decision-table', name: 'Big', status: 'pending', inputSchema: { in: {} }, outputSchema: { out: {} }, decisionTable: { columns, rows } };
}

function sampleRule() {
  const cell = (column: string, scalarCondition: object) => ({ column, type: 'input', scalarCondition });
  const out = (column: string, outputScalarValue: object) => ({ column, type: 'output', outputScalarValue });
  return {
    type: 'decision-table',
    name: 'Sample',
    status: 'pending',
    inputSchema: { product: {}, client: { age: {} } },
    outputSchema: { price: {}, message: {} },
    decisionTable: {
      columns: [
        { columnId: 'a', type: 'input', condition: { type: 'simple', name: 'Product', inputVariable: 'product' } },
        { columnId: 'b', type: 'input', condition: { type: 'simple', name: 'Age', inputVariable: 'client.age' } },
        { columnId: 'p', type: 'output', columnOutput: { type: 'simple', name: 'Price', outputVariable: 'price' } },
        { columnId: 'm', type: 'output', columnOutput: { type: 'simple', name: 'Message', outputVariable: 'message' } },
      ],
      rows: [
        { active: true, cells: [cell('a', { operator: '=', value: 'basic', type: 'general' }), cell('b', { operator: 'between', value: ['18', '65'], type: 'general' }), out('p', { type: 'common', value: '8' }), out('m', { type: 'common', value: 'adult' })] },
        { active: true, cells: [out('p', { type: 'common', value: '5' }), cell('a', { operator: 'betwen', value: ['1', '2'], type: 'general' }), cell('b', { operator: '<', value: '18', type: 'general' }), out('m', { type: 'common', value: 'minor' })] },
      ],
    },
  };
}

// the second row's cells are stored out of column order: cells[1] is the Product condition
const problems: Problem[] = scenario === 'sample' ? [{ path: 'decisionTable.rows[1].cells[1].scalarCondition.operator', message: 'unknown operator "betwen"' }] : [];
const trace =
  scenario === 'sample'
    ? [
        { rowNumber: 1, evaluationResult: true, conditions: [{ columnId: 'a', inputProperty: 'product', inputValue: 'basic', evaluationResult: true, operator: '=', value: 'basic' }] },
        { rowNumber: 2, evaluationResult: false, conditions: [{ columnId: 'b', inputProperty: 'client.age', inputValue: 30, evaluationResult: false, operator: '<', value: '18' }] },
      ]
    : undefined;

const started = performance.now();
const initial = scenario === 'big' ? bigRule(10_000, 20) : sampleRule();
window.__rule = initial;
window.__changes = 0;

function Harness() {
  const [rule, setRule] = useState<unknown>(initial);
  useEffect(() => {
    requestAnimationFrame(() => {
      window.__openMs = performance.now() - started;
    });
  }, []);
  return (
    <TableDesigner
      rule={rule}
      problems={problems}
      trace={trace}
      onChange={(next) => {
        window.__rule = next;
        window.__changes++;
        setRule(next);
      }}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
