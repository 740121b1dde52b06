// Reads a GoRules JDM decision table into a TableSpec, so a ZEN table (zen's own 8k test decision) can be solved
// by Verdict. The cell reading lives in src/formats/jdm/zen-table.ts (`verdict convert` uses it too).
import { fromJdmTable as fromTableNode, parseZenCondition, parseZenOutput } from '../../src/formats/jdm/zen-table.ts';
import type { JdmNode } from '../../src/formats/jdm/zen-table.ts';
import type { TableSpec } from './table-spec.ts';

export { parseZenCondition, parseZenOutput };

/** The JDM's single decision table as a TableSpec. Throws naming the first cell it cannot express. */
export function fromJdmTable(jdm: unknown, name: string): TableSpec {
  const nodes = ((jdm as { nodes?: JdmNode[] }).nodes ?? []).map((node, index) => ({ node, index }));
  const tables = nodes.filter((n) => n.node.type === 'decisionTableNode');
  if (tables.length !== 1) throw new Error(`expected one decision table node, found ${tables.length}`);
  return fromTableNode(tables[0]!.node, name, `nodes[${tables[0]!.index}]`);
}
