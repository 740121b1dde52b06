// The decision requirements graph evaluated: dependency order, each decision once, decision selection, BKMs and
// decision services as functions, boxed expressions, type checks, imports, and errors that name the decision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileDmn } from '../../../src/engine/dmn/index.ts';
import { readDmn } from '../../../src/rules/dmn/index.ts';
import { NOW, compile, definitions, input, literal, requirementsXml, solve } from './helpers.ts';

test('decisions are evaluated in dependency order, each once, and only those asked for when selected', async () => {
  const compiled = await compile(
    definitions(`${input('i1', 'Monthly Salary', 'number')}
      ${literal('d3', 'Total', 'Doubled + Base', ['d1', 'd2'])}
      ${literal('d1', 'Base', 'Monthly Salary * 12', ['i1'])}
      ${literal('d2', 'Doubled', 'Base * 2', ['d1'])}
      ${literal('d4', 'Broken', 'Monthly Salary / 0', ['i1'])}`),
  );
  const all = solve(compiled, { 'Monthly Salary': 1000 });
  assert.deepEqual(all.results, { Total: 36000, Base: 12000, Doubled: 24000, Broken: null });
  const selected = solve(compiled, { 'Monthly Salary': 1000 }, { decisions: ['Doubled'] });
  assert.deepEqual(selected.results, { Doubled: 24000 });
  assert.throws(() => solve(compiled, {}, { decisions: ['Nope'] }), /the model 'test' has no decision named 'Nope'/);
  assert.throws(() => solve(compiled, [1] as unknown as Record<string, unknown>), /the input of the DMN model 'test' must be an object of input data by name, not an array/);
});

test('a failing decision required twice warns once: each decision is evaluated once', async () => {
  const compiled = await compile(
    definitions(`${literal('d1', 'Shared', 'nosuchfunction(1)')}
      ${literal('d2', 'A', 'Shared', ['d1'])}
      ${literal('d3', 'B', 'Shared', ['d1'])}`),
  );
  const alone = solve(compiled, {}, { decisions: ['Shared'] }).warnings;
  assert.ok(alone.length > 0 && alone.every((warning) => warning.startsWith("decision 'Shared'")), alone.join('\n'));
  assert.deepEqual(solve(compiled, {}).warnings, alone);
});

test('a value that does not conform to the decision type is null with a warning naming the decision', async () => {
  const compiled = await compile(definitions(`${literal('d1', 'Age', '"old"', [], 'number')}${literal('d2', 'Ages', '[1, 2]', [], 'number')}${literal('d3', 'One', '[7]', [], 'number')}${literal('d4', 'Count', '3', [], 'integer')}`));
  const { results, warnings } = solve(compiled, {});
  // `integer` (Camunda's typeRef) reads as number.
  assert.deepEqual(results, { Age: null, Ages: null, One: 7, Count: 3 });
  assert.match(warnings.join('\n'), /decision 'Age': the value does not conform to the type 'number'/);
});

test('item definitions: components, collections and allowed values are checked; dates read from JSON text', async () => {
  const compiled = await compile(
    definitions(`
      <itemDefinition name="tAge"><typeRef>number</typeRef><allowedValues><text>[0..150]</text></allowedValues></itemDefinition>
      <itemDefinition name="tPerson"><itemComponent name="name"><typeRef>string</typeRef></itemComponent><itemComponent name="age"><typeRef>tAge</typeRef></itemComponent></itemDefinition>
      <itemDefinition name="tPeople" isCollection="true"><typeRef>tPerson</typeRef></itemDefinition>
      ${input('i1', 'People', 'tPeople')}${input('i2', 'Day', 'date')}
      ${literal('d1', 'Names', 'People.name', ['i1'])}
      ${literal('d2', 'Next day', 'Day + duration("P1D")', ['i2'])}`),
  );
  const good = solve(compiled, { People: [{ name: 'Ann', age: 30 }], Day: '2026-02-28' });
  assert.deepEqual(good.results, { Names: ['Ann'], 'Next day': '2026-03-01' });
  const bad = solve(compiled, { People: [{ name: 'Bob', age: 200 }], Day: '2026-02-28' });
  assert.equal(bad.results.Names, null);
  assert.match(bad.warnings.join('\n'), /inputData 'People': the value does not conform to the type 'tPeople'/);
});

test('business knowledge models are functions: invoked from FEEL and by a boxed invocation', async () => {
  const bkm = `<businessKnowledgeModel id="k1" name="Tax"><variable name="Tax"/>
      <encapsulatedLogic><formalParameter name="amount" typeRef="number"/><formalParameter name="rate" typeRef="number"/>
        <literalExpression><text>amount * rate</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>`;
  const invocation = `<decision id="d2" name="Boxed">${requirementsXml(['k1'])}
      <invocation><literalExpression><text>Tax</text></literalExpression>
        <binding><parameter name="rate"/><literalExpression><text>0.5</text></literalExpression></binding>
        <binding><parameter name="amount"/><literalExpression><text>10</text></literalExpression></binding></invocation></decision>`;
  const compiled = await compile(definitions(`${bkm}${literal('d1', 'Feel', 'Tax(100, 0.2) + Tax(rate: 1, amount: 1)', ['k1'])}${invocation}`));
  assert.deepEqual(solve(compiled, {}).results, { Feel: 21, Boxed: 5 });
});

test('decision services: invoked as a function from FEEL and evaluated directly', async () => {
  const compiled = await compile(
    definitions(`${input('i1', 'n', 'number')}
      ${literal('d1', 'Square', 'n * n', ['i1'])}
      ${literal('d2', 'Plus one', 'Square + 1', ['d1'])}
      <decisionService id="s1" name="Square service"><outputDecision href="#d2"/><encapsulatedDecision href="#d1"/><inputData href="#i1"/></decisionService>
      <decision id="d3" name="Call"><knowledgeRequirement><requiredKnowledge href="#s1"/></knowledgeRequirement>
        <literalExpression><text>Square service(4)</text></literalExpression></decision>`),
  );
  assert.deepEqual(solve(compiled, { n: 3 }, { decisions: ['Call'] }).results, { Call: 17 });
  assert.deepEqual(solve(compiled, { n: 5 }, { decisionService: 'Square service' }).results, { 'Plus one': 26 });
  assert.throws(() => solve(compiled, {}, { decisionService: 'Nope' }), /the model 'test' has no decision service named 'Nope'/);
  // A decision given among the inputs is not evaluated (as the TCK's runners give decisions).
  assert.deepEqual(solve(compiled, { n: 5, Square: 100 }, { decisions: ['Plus one'] }).results, { 'Plus one': 101 });
});

test('boxed context, list, relation, function, conditional, iterators and filter', async () => {
  const compiled = await compile(
    definitions(`
      <decision id="c" name="Ctx"><context>
        <contextEntry><variable name="a"/><literalExpression><text>2</text></literalExpression></contextEntry>
        <contextEntry><variable name="twice"/><functionDefinition><formalParameter name="v"/><literalExpression><text>v * a</text></literalExpression></functionDefinition></contextEntry>
        <contextEntry><variable name="b"/><literalExpression><text>twice(a + 1)</text></literalExpression></contextEntry>
      </context></decision>
      <decision id="r" name="Rel"><relation><column name="k"/><column name="v"/>
        <row><literalExpression><text>"x"</text></literalExpression><literalExpression><text>1</text></literalExpression></row>
        <row><literalExpression><text>"y"</text></literalExpression><literalExpression><text>2</text></literalExpression></row></relation></decision>
      <decision id="l" name="Lst"><list><literalExpression><text>1</text></literalExpression><literalExpression><text>"two"</text></literalExpression></list></decision>
      <decision id="f" name="For"><for iteratorVariable="i"><in><literalExpression><text>[1, 2, 3]</text></literalExpression></in><return><literalExpression><text>i * 10</text></literalExpression></return></for></decision>
      <decision id="s" name="Some"><some iteratorVariable="i"><in><literalExpression><text>[1, 2, 3]</text></literalExpression></in><satisfies><literalExpression><text>i &gt; 2</text></literalExpression></satisfies></some></decision>
      <decision id="e" name="Every"><every iteratorVariable="i"><in><literalExpression><text>[1, 2, 3]</text></literalExpression></in><satisfies><literalExpression><text>i &gt; 2</text></literalExpression></satisfies></every></decision>
      <decision id="g" name="Filter"><filter><in><literalExpression><text>[{v: 1}, {v: 5}]</text></literalExpression></in><match><literalExpression><text>item.v &gt; 2</text></literalExpression></match></filter></decision>
      <decision id="i" name="If"><conditional><if><literalExpression><text>1 &gt; 2</text></literalExpression></if><then><literalExpression><text>"yes"</text></literalExpression></then><else><literalExpression><text>"no"</text></literalExpression></else></conditional></decision>`),
  );
  assert.deepEqual(solve(compiled, {}).results, {
    Ctx: { a: 2, twice: null, b: 6 },
    Rel: [{ k: 'x', v: 1 }, { k: 'y', v: 2 }],
    Lst: [1, 'two'],
    For: [10, 20, 30],
    Some: true,
    Every: false,
    Filter: [{ v: 5 }],
    If: 'no',
  });
});

test('imported models: their decisions, BKMs and types under the import prefix', async () => {
  const imported = definitions(
    `<itemDefinition name="tName"><typeRef>string</typeRef></itemDefinition>
     <businessKnowledgeModel id="k1" name="Greet"><variable name="Greet"/><encapsulatedLogic><formalParameter name="who"/>
       <literalExpression><text>"Hello " + who</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>`,
    'urn:lib',
    'lib',
  );
  const main = definitions(
    `<import name="my lib" namespace="urn:lib" importType="https://www.omg.org/spec/DMN/20230324/MODEL/"/>
     ${input('i1', 'Name', 'my lib.tName')}
     <decision id="d1" name="Greeting">${requirementsXml(['i1'])}<knowledgeRequirement><requiredKnowledge href="urn:lib#k1"/></knowledgeRequirement>
       <literalExpression><text>my lib.Greet(Name)</text></literalExpression></decision>`,
  );
  const compiled = await compile(main, [imported]);
  assert.deepEqual(compiled.problems, []);
  assert.deepEqual(solve(compiled, { Name: 'Ann' }).results, { Greeting: 'Hello Ann' });
});

test('bad expressions and unsupported functions: compile problems with paths, the rest still evaluates', async () => {
  const read = await readDmn(
    definitions(`${literal('d1', 'Bad', '1 +* 2')}${literal('d2', 'Good', '1 + 2')}
      <businessKnowledgeModel id="k1" name="J"><variable name="J"/><encapsulatedLogic kind="Java"><context/></encapsulatedLogic></businessKnowledgeModel>`),
  );
  const compiled = compileDmn(read.model!);
  const messages = compiled.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n');
  assert.match(messages, /decision 'Bad'\.literalExpression: FEEL expression '1 \+\* 2' does not compile/);
  assert.match(messages, /businessKnowledgeModel 'J'.*Java functions are not supported/);
  const { results, warnings } = compiled.evaluate(new Map(), { now: NOW });
  assert.deepEqual([...results.keys()], ['Bad', 'Good']);
  assert.equal(results.get('Bad'), null);
  assert.match(warnings.join('\n'), /decision 'Bad'\.literalExpression: FEEL expression/);
});

test('a cycle of decisions is a compile problem; its decisions evaluate to null with a warning', async () => {
  const read = await readDmn(definitions(`${literal('d1', 'A', 'B + 1', ['d2'])}${literal('d2', 'B', 'A + 1', ['d1'])}${literal('d3', 'C', '1')}`));
  const compiled = compileDmn(read.model!);
  assert.match(compiled.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'), /decision '(A|B)': the decision requires itself \(a cycle\)/);
  const { results, warnings } = compiled.evaluate(new Map(), { now: NOW });
  assert.equal(results.get('A'), null);
  assert.equal(results.get('B'), null);
  assert.equal(String(results.get('C')), '1');
  assert.match(warnings.join('\n'), /requires itself/);
});

test('BKMs may call themselves; one recursing without end is null with a warning, not a crash', async () => {
  const compiled = await compile(
    definitions(`<businessKnowledgeModel id="k1" name="Loop"><variable name="Loop"/>${requirementsXml(['k1'])}
        <encapsulatedLogic><formalParameter name="n"/><literalExpression><text>Loop(n + 1)</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>
      <decision id="d1" name="Forever">${requirementsXml(['k1'])}<literalExpression><text>Loop(1)</text></literalExpression></decision>
      <businessKnowledgeModel id="k2" name="Factorial"><variable name="Factorial"/>${requirementsXml(['k2'])}
        <encapsulatedLogic><formalParameter name="n"/><literalExpression><text>if n &lt;= 1 then 1 else n * Factorial(n - 1)</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>
      <decision id="d2" name="Fine">${requirementsXml(['k2'])}<literalExpression><text>Factorial(5)</text></literalExpression></decision>`),
  );
  const { results, warnings } = solve(compiled, {});
  assert.deepEqual(results, { Forever: null, Fine: 120 });
  assert.match(warnings.join('\n'), /decision 'Forever': the evaluation recursed too deep/);
});

test('FEEL sees the item definitions: instance of and typed parameters', async () => {
  const compiled = await compile(
    definitions(`
      <itemDefinition name="tPerson"><itemComponent name="name"><typeRef>string</typeRef></itemComponent></itemDefinition>
      <itemDefinition name="tNames" isCollection="true"><typeRef>string</typeRef></itemDefinition>
      ${literal('d1', 'Is person', '{name: "Ann"} instance of tPerson')}
      ${literal('d2', 'Not person', '{name: 1} instance of tPerson')}
      ${literal('d3', 'Names', '["a", "b"] instance of tNames')}
      ${literal('d4', 'Typed', '(function(p: tPerson) p.name)({name: "Bo"})')}`),
  );
  assert.deepEqual(solve(compiled, {}).results, { 'Is person': true, 'Not person': false, Names: true, Typed: 'Bo' });
});

test('a function item type checks how many parameters a function value takes', async () => {
  const compiled = await compile(
    definitions(`
      <itemDefinition name="tBinary"><functionItem outputTypeRef="number"><parameters name="a" typeRef="number"/><parameters name="b" typeRef="number"/></functionItem></itemDefinition>
      <businessKnowledgeModel id="k1" name="Apply"><variable name="Apply"/>
        <encapsulatedLogic><formalParameter name="f" typeRef="tBinary"/><literalExpression><text>f(2, 3)</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>
      <decision id="d1" name="Two">${requirementsXml(['k1'])}<literalExpression><text>Apply(function(x, y) x * y)</text></literalExpression></decision>
      <decision id="d2" name="One">${requirementsXml(['k1'])}<literalExpression><text>Apply(function(x) x)</text></literalExpression></decision>`),
  );
  assert.deepEqual(solve(compiled, {}).results, { Two: 6, One: null });
});

test('a Camunda DMN 1.1 table reading process variables (no input data elements) evaluates', async () => {
  const compiled = await compile(`<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/DMN/20151101/dmn.xsd" id="dish" name="Dish" namespace="http://camunda.org/schema/1.0/dmn">
  <decision id="decision" name="Dish"><decisionTable id="t" hitPolicy="FIRST">
    <input id="i" label="Season"><inputExpression id="e" typeRef="string"><text>season</text></inputExpression></input>
    <input id="j" label="Guests"><inputExpression id="f" typeRef="integer"><text>guestCount</text></inputExpression></input>
    <output id="o" name="dish" typeRef="string"/>
    <rule id="r1"><inputEntry id="a"><text>"Fall"</text></inputEntry><inputEntry id="b"><text>&lt;= 8</text></inputEntry><outputEntry id="c"><text>"Spareribs"</text></outputEntry></rule>
    <rule id="r2"><inputEntry id="d"><text>-</text></inputEntry><inputEntry id="g"><text>-</text></inputEntry><outputEntry id="h"><text>"Stew"</text></outputEntry></rule>
  </decisionTable></decision>
</definitions>`);
  assert.deepEqual(solve(compiled, { season: 'Fall', guestCount: 4 }).results, { Dish: 'Spareribs' });
  assert.deepEqual(solve(compiled, { season: 'Fall', guestCount: 12 }).results, { Dish: 'Stew' });
});
