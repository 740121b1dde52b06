// Which paths the table's columns use that its models lack: a condition column reading `customer.tier` while the
// input model does not name it, a result column writing a path the output model lacks. The solver does not need
// the model, but the bench form, the expression completions and DecisionRules' own designer do; the designer
// flags such columns and offers to add their paths (issue 26, "the input model does not follow the table").
import { hasPath, isModelPath } from './schema.ts';
import { columnBinding, columnKind, tableOf } from './table.ts';

export type ModelSide = 'input' | 'output';

export interface ModelGaps {
  /** Paths condition columns read and the input model lacks, once each, in column order. */
  input: string[];
  /** Paths result columns write and the output model lacks. */
  output: string[];
  /** Column index to what it lacks, said for its header ("customer.tier is not in the input model"). */
  columns: Map<number, string>;
}

export function modelGaps(rule: any): ModelGaps {
  const gaps: ModelGaps = { input: [], output: [], columns: new Map() };
  tableOf(rule).columns.forEach((column, index) => {
    const kind = columnKind(column);
    if (kind === 'calc') return; // a calculation defines a variable, not a model field
    const side: ModelSide = kind === 'input' ? 'input' : 'output';
    const path = columnBinding(column).trim();
    if (!isModelPath(path) || hasPath(side === 'input' ? rule?.inputSchema : rule?.outputSchema, path)) return;
    if (!gaps[side].includes(path)) gaps[side].push(path);
    gaps.columns.set(index, `${path} is not in the ${side} model`);
  });
  return gaps;
}
