// Renders a TableSpec as a GoRules JDM decision (input -> decision table -> output) for @gorules/zen-engine. The
// rendering lives in src/formats/jdm/zen-table.ts (`verdict convert --to jdm` uses it too).
export { edge, renderZenCondition, renderZenExpr, toJdmDecision, toJdmTableNode } from '../../src/formats/jdm/zen-table.ts';
export type { JdmDecision, JdmEdge, JdmNode } from '../../src/formats/jdm/zen-table.ts';
