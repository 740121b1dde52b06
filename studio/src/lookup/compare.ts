// A lookup table shown as a decision table of result columns, one per lookup column, for the side-by-side
// version compare (versions/CompareView.tsx), which aligns rows and marks changed cells for either.
import type { RuleDocument } from '../api/types.ts';
import { cellText, readLookup } from './model.ts';

export function lookupAsTable(rule: RuleDocument): RuleDocument {
  const { columns, rows } = readLookup(rule);
  return {
    ...rule,
    decisionTable: {
      columns: columns.map((c) => ({ columnId: c.alias, type: 'output', columnOutput: { type: 'simple', name: c.name, outputVariable: c.alias } })),
      rows: rows.map((row) => ({
        active: true,
        cells: columns.map((c) => ({ column: c.alias, type: 'output', outputScalarValue: { type: 'common', value: cellText(row[c.alias]) } })),
      })),
    },
  };
}
