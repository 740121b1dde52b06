// The DMN designer's model (studio/src/dmn/model.ts): the draft's XML written back without the stale model and
// back to the opened document when every edit is undone; the DMN version a model's namespace names (which editor
// opens it); the input data names the bench offers; the blank model, which the server reads without a problem.
// DOMParser is the browser's; here @xmldom/xmldom stands in for it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import { blankDmn, dmnDecisionNames, dmnInputNames, dmnNamespaces, dmnXml, withDmnXml, withOriginModel } from '../../studio/src/dmn/model.ts';
import { readDmn } from '../../src/rules/dmn/read.ts';
import { DISH_XML, asDmn15 } from './dmn-models.ts';

(globalThis as { DOMParser?: unknown }).DOMParser ??= DOMParser;

const saved = { type: 'dmn', name: 'Dish', ruleId: 'r1', version: 1, dmn: DISH_XML, dmnModel: { name: 'Dinner' }, inputSchema: { Season: {} } };

test('an edit writes the XML and drops the derived model; undoing every edit gives back the opened document itself', () => {
  const edited = withDmnXml(saved, DISH_XML.replace('Spareribs', 'Roast beef'));
  assert.equal(edited.dmnModel, undefined);
  assert.match(dmnXml(edited), /Roast beef/);
  assert.deepEqual(edited.inputSchema, saved.inputSchema);
  assert.equal(withOriginModel(edited, saved), saved, 'the very document the page loaded: no unsaved draft');
  // Something else changed meanwhile: the XML and model come back, the other change stays.
  const renamed = withOriginModel({ ...edited, name: 'Dinner dish' }, saved);
  assert.notEqual(renamed, saved);
  assert.equal(renamed.name, 'Dinner dish');
  assert.equal(renamed.dmn, DISH_XML);
  assert.deepEqual(renamed.dmnModel, saved.dmnModel);
});

test('the version of a model decides its editor: the definitions element namespace, whatever the prefix', () => {
  assert.equal(dmnNamespaces(DISH_XML)?.version, '1.3');
  assert.equal(dmnNamespaces(DISH_XML)?.diagram, 'https://www.omg.org/spec/DMN/20191111/DMNDI/');
  const v15 = dmnNamespaces(asDmn15(DISH_XML));
  assert.deepEqual(v15, { version: '1.5', model: 'https://www.omg.org/spec/DMN/20230324/MODEL/', diagram: 'https://www.omg.org/spec/DMN/20230324/DMNDI/' });
  assert.equal(dmnNamespaces('<dmn:definitions xmlns:dmn="http://www.omg.org/spec/DMN/20151101/dmn.xsd" id="a" name="a" namespace="x"/>')?.version, '1.1');
  assert.equal(dmnNamespaces('<definitions xmlns="http://www.omg.org/spec/DMN/20180521/MODEL" id="a" name="a" namespace="x"/>')?.version, '1.2', 'without the final slash');
  assert.equal(dmnNamespaces('<definitions id="a"/>'), undefined);
  assert.equal(dmnNamespaces('<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"/>'), undefined);
});

test('the bench offers the input data and the decisions by name', () => {
  assert.deepEqual(dmnInputNames(saved), ['Season', 'Guest Count']);
  assert.deepEqual(dmnInputNames({ type: 'dmn', dmn: '' }), []);
  assert.deepEqual(dmnDecisionNames(saved), ['Dish', 'Greeting']);
});

test('a new DMN rule is a model the server reads without a problem, with a diagram for dmn-js', async () => {
  const blank = blankDmn('Order <size> & "mix"');
  assert.equal(blank.type, 'dmn');
  const read = await readDmn(dmnXml(blank));
  assert.deepEqual(read.problems, []);
  assert.equal(read.model?.name, 'Order <size> & "mix"');
  assert.deepEqual(read.model?.decisions.map((d) => d.name), ['Result']);
  assert.equal(dmnNamespaces(dmnXml(blank))?.version, '1.3');
  assert.match(dmnXml(blank), /<dmndi:DMNShape id="result-shape"/);
});
