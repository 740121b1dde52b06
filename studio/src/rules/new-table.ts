// A decision table from scratch: one condition column, one result column and one row, as DecisionRules' editor
// starts a new table. Ids are random UUIDs (crypto.randomUUID), aliases col-<n>.
import type { RuleDocument } from '../api/types.ts';

export function newDecisionTable(name: string): RuleDocument {
  const condition = crypto.randomUUID();
  const result = crypto.randomUUID();
  return {
    type: 'decision-table',
    name,
    description: '',
    status: 'pending',
    tags: [],
    inputSchema: { input: {} },
    outputSchema: { output: {} },
    decisionTable: {
      columns: [
        { columnId: condition, type: 'input', alias: 'col-1', condition: { type: 'simple', name: 'Condition', definition: { content: 'input', type: 'INPUT_VARIABLE', valid: true } } },
        { columnId: result, type: 'output', alias: 'col-2', columnOutput: { type: 'simple', name: 'Result', outputVariable: 'output' } },
      ],
      rows: [
        {
          active: true,
          cells: [
            { column: condition, type: 'input', scalarCondition: { operator: 'anything', value: '', type: 'general' } },
            { column: result, type: 'output', outputScalarValue: { type: 'common', value: '' } },
          ],
        },
      ],
    },
  };
}
