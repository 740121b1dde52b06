// Renders a TableSpec as a Verdict (DecisionRules-format) decision table, and expressions as function text. The
// rendering lives in src/formats/decisionrules/table.ts (`verdict convert --to decisionrules` uses it too).
export { renderVerdictExpr, toVerdictTable, verdictStrategy } from '../../src/formats/decisionrules/table.ts';
