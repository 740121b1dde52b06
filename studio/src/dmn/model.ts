// DMN rules in the Studio (rule type `dmn`): the XML is what is edited; the server reads the typed model from it on
// every save (docs/decisions/dmn-rule-type.md), so a blank rule carries the XML only.
import type { RuleDocument } from '../api/types.ts';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A model with one input and one decision table, valid as it is. */
export function blankDmnXml(name: string): string {
  const model = escapeXml(name);
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" id="definitions" name="${model}" namespace="https://verdict.local/dmn/${encodeURIComponent(name)}">
  <inputData id="input_amount" name="amount">
    <variable name="amount" typeRef="number"/>
  </inputData>
  <decision id="decision_result" name="result">
    <variable name="result" typeRef="string"/>
    <informationRequirement id="req_amount"><requiredInput href="#input_amount"/></informationRequirement>
    <decisionTable id="table_result" hitPolicy="FIRST">
      <input id="in_amount" label="amount"><inputExpression id="expr_amount" typeRef="number"><text>amount</text></inputExpression></input>
      <output id="out_result" name="result" typeRef="string"/>
      <rule id="rule_high"><inputEntry id="ie_high"><text>&gt;= 100</text></inputEntry><outputEntry id="oe_high"><text>"high"</text></outputEntry></rule>
      <rule id="rule_low"><inputEntry id="ie_low"><text>-</text></inputEntry><outputEntry id="oe_low"><text>"low"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>
`;
}

export function blankDmn(name: string): RuleDocument {
  return { type: 'dmn', name, status: 'pending', dmn: blankDmnXml(name) };
}
