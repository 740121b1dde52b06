// DMN models for the Studio's DMN tests: a decision table and a literal expression over two input data, with a
// diagram (DMNDI) so dmn-js draws the decision requirements as written.
export const DISH_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:dmndi="https://www.omg.org/spec/DMN/20191111/DMNDI/" xmlns:dc="http://www.omg.org/spec/DMN/20180521/DC/" xmlns:di="http://www.omg.org/spec/DMN/20180521/DI/" id="dinner" name="Dinner" namespace="https://verdict.test/dmn/dish">
  <decision id="dish-decision" name="Dish">
    <informationRequirement id="req-season"><requiredInput href="#season" /></informationRequirement>
    <informationRequirement id="req-guests"><requiredInput href="#guests" /></informationRequirement>
    <decisionTable id="dish-table" hitPolicy="UNIQUE">
      <input id="in-season" label="Season">
        <inputExpression id="in-season-expr" typeRef="string"><text>Season</text></inputExpression>
      </input>
      <input id="in-guests" label="How many guests">
        <inputExpression id="in-guests-expr" typeRef="number"><text>Guest Count</text></inputExpression>
      </input>
      <output id="out-dish" label="Dish" name="Dish" typeRef="string" />
      <rule id="r-fall">
        <inputEntry id="r-fall-season"><text>"Fall"</text></inputEntry>
        <inputEntry id="r-fall-guests"><text>&lt;= 8</text></inputEntry>
        <outputEntry id="r-fall-dish"><text>"Spareribs"</text></outputEntry>
      </rule>
      <rule id="r-winter">
        <inputEntry id="r-winter-season"><text>"Winter"</text></inputEntry>
        <inputEntry id="r-winter-guests"><text>&lt;= 8</text></inputEntry>
        <outputEntry id="r-winter-dish"><text>"Pasta"</text></outputEntry>
      </rule>
      <rule id="r-many">
        <inputEntry id="r-many-season"><text>-</text></inputEntry>
        <inputEntry id="r-many-guests"><text>&gt; 8</text></inputEntry>
        <outputEntry id="r-many-dish"><text>"Stew"</text></outputEntry>
      </rule>
    </decisionTable>
  </decision>
  <decision id="greeting-decision" name="Greeting">
    <informationRequirement id="req-dish"><requiredDecision href="#dish-decision" /></informationRequirement>
    <variable id="greeting-variable" name="Greeting" typeRef="string" />
    <literalExpression id="greeting-expression"><text>"Tonight: " + Dish</text></literalExpression>
  </decision>
  <inputData id="season" name="Season"><variable id="season-variable" name="Season" typeRef="string" /></inputData>
  <inputData id="guests" name="Guest Count"><variable id="guests-variable" name="Guest Count" typeRef="number" /></inputData>
  <dmndi:DMNDI>
    <dmndi:DMNDiagram id="dish-diagram">
      <dmndi:DMNShape id="greeting-shape" dmnElementRef="greeting-decision"><dc:Bounds height="80" width="180" x="250" y="60" /></dmndi:DMNShape>
      <dmndi:DMNShape id="dish-shape" dmnElementRef="dish-decision"><dc:Bounds height="80" width="180" x="250" y="220" /></dmndi:DMNShape>
      <dmndi:DMNShape id="season-shape" dmnElementRef="season"><dc:Bounds height="45" width="125" x="150" y="400" /></dmndi:DMNShape>
      <dmndi:DMNShape id="guests-shape" dmnElementRef="guests"><dc:Bounds height="45" width="125" x="400" y="400" /></dmndi:DMNShape>
      <dmndi:DMNEdge id="req-dish-edge" dmnElementRef="req-dish"><di:waypoint x="340" y="220" /><di:waypoint x="340" y="140" /></dmndi:DMNEdge>
      <dmndi:DMNEdge id="req-season-edge" dmnElementRef="req-season"><di:waypoint x="213" y="400" /><di:waypoint x="300" y="300" /></dmndi:DMNEdge>
      <dmndi:DMNEdge id="req-guests-edge" dmnElementRef="req-guests"><di:waypoint x="463" y="400" /><di:waypoint x="380" y="300" /></dmndi:DMNEdge>
    </dmndi:DMNDiagram>
  </dmndi:DMNDI>
</definitions>
`;

/** The same model as DMN 1.5 (its model and diagram namespaces). */
export function asDmn15(xml: string): string {
  return xml.replace('https://www.omg.org/spec/DMN/20191111/MODEL/', 'https://www.omg.org/spec/DMN/20230324/MODEL/')
    .replace('https://www.omg.org/spec/DMN/20191111/DMNDI/', 'https://www.omg.org/spec/DMN/20230324/DMNDI/');
}

/** The same model as DMN 1.2, which dmn-js does not open. */
export function asDmn12(xml: string): string {
  return xml.replace('https://www.omg.org/spec/DMN/20191111/MODEL/', 'http://www.omg.org/spec/DMN/20180521/MODEL/')
    .replace('https://www.omg.org/spec/DMN/20191111/DMNDI/', 'http://www.omg.org/spec/DMN/20180521/DMNDI/');
}
