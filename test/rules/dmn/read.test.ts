// Reading DMN XML into the typed model: every boxed expression, item definitions, requirements across imports,
// older DMN namespaces, and problems that name the element.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readDmn } from '../../../src/rules/dmn/index.ts';

const tck = (path: string) => readFileSync(new URL(`../../conformance/dmn-tck/${path}`, import.meta.url), 'utf8');

function definitions(body: string, namespace = 'https://www.omg.org/spec/DMN/20230324/MODEL/'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="${namespace}" namespace="urn:test" name="test" id="d">${body}</definitions>`;
}

test('a decision table model reads with its hit policy, inputs, outputs and rules', async () => {
  const { model, problems } = await readDmn(tck('compliance-level-2/0004-simpletable-U/0004-simpletable-U.dmn'));
  assert.deepEqual(problems, []);
  const decision = model!.decisions.find((candidate) => candidate.name === 'Approval Status')!;
  assert.equal(decision.typeRef, 'string');
  assert.equal(decision.requiredInputs.length, 3);
  const logic = decision.logic!;
  assert.equal(logic.kind, 'decisionTable');
  if (logic.kind !== 'decisionTable') return;
  assert.equal(logic.hitPolicy, 'UNIQUE');
  assert.deepEqual(logic.inputs.map((input) => input.expression), ['Age', 'RiskCategory', 'isAffordable']);
  assert.ok(logic.rules.length > 0);
  assert.equal(logic.rules[0]!.inputEntries.length, 3);
  assert.match(logic.rules[0]!.path, /^decision 'Approval Status'\.decisionTable\.rule\[0\]$/);
});

test('DMN 1.5 boxed conditional, iterators and filter read into their kinds', async () => {
  const xml = definitions(`
    <decision id="c" name="C"><conditional><if><literalExpression><text>x &gt; 1</text></literalExpression></if>
      <then><literalExpression><text>"big"</text></literalExpression></then>
      <else><literalExpression><text>"small"</text></literalExpression></else></conditional></decision>
    <decision id="f" name="F"><for iteratorVariable="i"><in><literalExpression><text>[1,2]</text></literalExpression></in>
      <return><literalExpression><text>i * 2</text></literalExpression></return></for></decision>
    <decision id="e" name="E"><every iteratorVariable="i"><in><literalExpression><text>[1,2]</text></literalExpression></in>
      <satisfies><literalExpression><text>i &gt; 0</text></literalExpression></satisfies></every></decision>
    <decision id="g" name="G"><filter><in><literalExpression><text>[1,2,3]</text></literalExpression></in>
      <match><literalExpression><text>item &gt; 1</text></literalExpression></match></filter></decision>`);
  const { model, problems } = await readDmn(xml);
  assert.deepEqual(problems, []);
  const [c, f, e, g] = model!.decisions.map((decision) => decision.logic!);
  assert.equal(c!.kind, 'conditional');
  assert.ok(c!.kind === 'conditional' && c!.then.kind === 'literal' && c!.then.text === '"big"');
  assert.ok(f!.kind === 'iterator' && f!.quantifier === 'for' && f!.variable === 'i');
  assert.ok(e!.kind === 'iterator' && e!.quantifier === 'every' && e!.body.kind === 'literal' && e!.body.text === 'i > 0');
  assert.ok(g!.kind === 'filter' && g!.match.kind === 'literal' && g!.match.text === 'item > 1');
});

test('item definitions keep components, collections, allowed values and type constraints', async () => {
  const xml = definitions(`
    <itemDefinition name="tPerson"><itemComponent name="name"><typeRef>string</typeRef></itemComponent>
      <itemComponent name="age"><typeRef>number</typeRef><allowedValues><text>[0..150]</text></allowedValues></itemComponent></itemDefinition>
    <itemDefinition name="tPeople" isCollection="true"><typeRef>tPerson</typeRef>
      <typeConstraint><text>count(?) &lt; 10</text></typeConstraint></itemDefinition>`);
  const { model, problems } = await readDmn(xml);
  assert.deepEqual(problems, []);
  const [person, people] = model!.itemDefinitions;
  assert.deepEqual(person!.components.map((component) => [component.name, component.typeRef]), [['name', 'string'], ['age', 'number']]);
  assert.equal(person!.components[1]!.allowedValues, '[0..150]');
  assert.equal(people!.isCollection, true);
  assert.equal(people!.typeRef, 'tPerson');
  assert.equal(people!.typeConstraint, 'count(?) < 10');
});

test('requirements across imports keep the namespace of the imported model', async () => {
  const { model, problems } = await readDmn(tck('compliance-level-3/0089-nested-inputdata-imports/0089-nested-inputdata-imports.dmn'));
  assert.deepEqual(problems, []);
  assert.equal(model!.imports.length, 2);
  const decision = model!.decisions[0]!;
  assert.deepEqual(decision.requiredDecisions[0], { namespace: 'http://www.trisotech.com/definitions/_9d46ece4-a96c-4cb0-abc0-0ca121ac3768', id: '_96df766e-23e1-4aa6-9d5d-545fbe2f1e23' });
});

test('a DMN 1.3 model reads as DMN 1.5', async () => {
  const xml = definitions('<decision id="a" name="A"><literalExpression><text>1 + 1</text></literalExpression></decision>', 'https://www.omg.org/spec/DMN/20191111/MODEL/');
  const { model, problems } = await readDmn(xml);
  assert.deepEqual(problems, []);
  assert.deepEqual(model!.decisions[0]!.logic, { kind: 'literal', path: "decision 'A'.literalExpression", text: '1 + 1' });
});

test('malformed models: problems name the element; not DMN at all: one clear problem', async () => {
  const xml = definitions(`
    <decision id="a" name="A"><decisionTable hitPolicy="COLLECT" aggregation="AVERAGE">
      <input><inputExpression><text>x</text></inputExpression></input><output/>
      <rule><inputEntry><text>1</text></inputEntry><inputEntry><text>2</text></inputEntry><outputEntry><text>3</text></outputEntry></rule>
    </decisionTable></decision>
    <decision id="b" name="A"><literalExpression expressionLanguage="http://www.javascript.org"><text>1</text></literalExpression></decision>`);
  const { problems } = await readDmn(xml);
  const messages = problems.map((problem) => `${problem.path}: ${problem.message}`);
  assert.ok(messages.some((message) => /decisionTable\.aggregation: 'AVERAGE' is not an aggregation/.test(message)), messages.join('\n'));
  assert.ok(messages.some((message) => /rule\[0\]: the rule has 2 input entries for 1 inputs/.test(message)), messages.join('\n'));
  assert.ok(messages.some((message) => /the expression language 'http:\/\/www.javascript.org' is not supported/.test(message)), messages.join('\n'));
  assert.ok(messages.some((message) => /the name 'A' is also the name of decision 'A'/.test(message)), messages.join('\n'));

  const notDmn = await readDmn('<html><body/></html>');
  assert.equal(notDmn.model, undefined);
  assert.match(notDmn.problems[0]!.message, /not a DMN 1\.1-1\.5 model/);
  const broken = await readDmn('<definitions');
  assert.equal(broken.model, undefined);
  assert.equal(broken.problems.length, 1);
});

test('elements without an id get one from their kind and name, so they stay apart', async () => {
  const { model, problems } = await readDmn(
    definitions('<decision name="A"><literalExpression><text>1</text></literalExpression></decision><decision name="B"><literalExpression><text>2</text></literalExpression></decision>'),
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(model!.decisions.map((decision) => decision.id), ['Decision:A', 'Decision:B']);
});

test('hostile XML: entities are not expanded (no entity bombs, no external files)', async () => {
  const bomb = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY file SYSTEM "file:///etc/passwd">]>
<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:x" name="x"><decision id="a" name="A"><literalExpression><text>&b;&file;</text></literalExpression></decision></definitions>`;
  const { model } = await readDmn(bomb);
  const logic = model!.decisions[0]!.logic!;
  assert.ok(logic.kind === 'literal' && !logic.text.includes('aaaa') && !logic.text.includes('root:'), JSON.stringify(logic));
});

test('the typed model is plain JSON: it survives a JSON round trip unchanged', async () => {
  for (const path of ['compliance-level-3/0086-import/0086-import.dmn', 'compliance-level-3/0085-decision-services/0085-decision-services.dmn']) {
    const { model } = await readDmn(tck(path));
    assert.deepEqual(JSON.parse(JSON.stringify(model)), model, path);
  }
});

test('a Camunda DMN 1.1 model reads: its namespace, FEEL named `feel`, a JUEL entry a clear problem', async () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/DMN/20151101/dmn.xsd" xmlns:camunda="http://camunda.org/schema/1.0/dmn" id="dish" name="Dish" namespace="http://camunda.org/schema/1.0/dmn">
  <decision id="decision" name="Dish"><decisionTable id="t" hitPolicy="FIRST">
    <input id="i" label="Season" camunda:inputVariable="s"><inputExpression id="e" typeRef="string" expressionLanguage="feel"><text>season</text></inputExpression></input>
    <output id="o" name="dish" typeRef="string"/>
    <rule id="r1"><inputEntry id="a"><text>"Fall"</text></inputEntry><outputEntry id="b"><text>"Spareribs"</text></outputEntry></rule>
    <rule id="r2"><inputEntry id="c" expressionLanguage="juel"><text>\${true}</text></inputEntry><outputEntry id="d"><text>"Stew"</text></outputEntry></rule>
  </decisionTable></decision>
</definitions>`;
  const { model, problems } = await readDmn(xml);
  assert.equal(model!.decisions[0]!.logic!.kind, 'decisionTable');
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.match(problems[0]!.message, /the expression language 'juel' is not supported \(only FEEL\)/);
});
