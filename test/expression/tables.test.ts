// Decision tables that compute (issue: function conditions, function outputs, JSON outputs with expressions,
// calc columns, SOLVE and LOOKUP_VALUE from cells), compiled and solved through the engine entry points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solve, solveSync } from '../../src/engine/index.ts';
import { mapResolver, NOW } from './helpers.ts';
import { ast, fx, plantItems, table, when, whenFx } from './rule-docs.ts';

const options = { now: NOW, timeZone: 'Europe/Prague' };

test('function conditions from stringValue and from AST-only cells (Bank Solver style)', () => {
  const rule = compileRule(
    table({
      name: 'Bank Solver',
      columns: [
        { id: 'c1', kind: 'input', target: 'loan' },
        { id: 'c2', kind: 'input', target: 'tax' },
        { id: 'o', kind: 'output', target: 'message' },
      ],
      rows: [
        { c1: whenFx(undefined, { functionName: 'LESS', parameters: ['{loan}', '{maxClientLoan}'] }), c2: whenFx('GT(TIMES({loan},{tax}),0)'), o: fx('"eligible"') },
        { c1: when('anything'), c2: when('anything'), o: fx('"not eligible"') },
      ],
    }),
  );
  assert.deepEqual(solveSync(rule, { loan: 30000, maxClientLoan: 240000, tax: 1.15 }, options).result, [{ message: 'eligible' }, { message: 'not eligible' }]);
  assert.deepEqual(solveSync(rule, { loan: 30000, maxClientLoan: 1000, tax: 1.15 }, options).result, [{ message: 'not eligible' }]);
  // an unresolved variable makes the condition false, not the solve
  assert.deepEqual(solveSync(rule, { loan: 30000, tax: 1.15 }, options).result, [{ message: 'not eligible' }]);
});

test('calc columns feed later cells; output casting and interpolation (Loyalty Discount, §2.13 E3)', () => {
  const rule = compileRule(
    table({
      name: 'Loyalty Discount',
      variables: { regularDiscount: 10 },
      columns: [
        { id: 'price', kind: 'input', target: 'basicPrice' },
        { id: 'class', kind: 'input', target: 'customer.loyaltyClass' },
        { id: 'credit', kind: 'input', target: 'customer.credit' },
        { id: 'calc', kind: 'calc', target: 'discount' },
        { id: 'final', kind: 'output', target: 'finalPrice' },
        { id: 'msg', kind: 'output', target: 'message' },
      ],
      rows: [
        {
          price: when('<=', '120'),
          class: when('=', 'REGULAR'),
          credit: when('betweenLeftOpen', ['0', '15']),
          calc: fx('{regularDiscount}+5', { functionName: 'PLUS_CHAR', parameters: ['{regularDiscount}', 5] }),
          final: fx('{basicPrice}*(1-{discount}/100)'),
          msg: fx("'You get {discount}% discount!'"),
        },
        {
          price: when('ELSE'),
          class: when('ELSE'),
          credit: when('ELSE'),
          calc: fx('0'),
          final: fx('{basicPrice}'),
          msg: fx('"Thank you for your order!"'),
        },
      ],
    }),
  );
  assert.deepEqual(solveSync(rule, { basicPrice: 100, customer: { loyaltyClass: 'REGULAR', credit: 10 } }, options).result, [
    { finalPrice: 85, message: 'You get 15% discount!' },
  ]);
  assert.deepEqual(solveSync(rule, { basicPrice: 500, customer: { loyaltyClass: 'REGULAR', credit: 0 } }, options).result, [
    { finalPrice: 500, message: 'Thank you for your order!' },
  ]);
});

test('function conditions, calc column and interpolation of §2.13 E4', () => {
  const rule = compileRule(
    table({
      name: 'E4',
      columns: [
        { id: 'c', kind: 'input', target: 'anything' },
        { id: 'calc', kind: 'calc', target: 'calcVar' },
        { id: 'o', kind: 'output', target: 'output' },
      ],
      rows: [
        {
          c: whenFx('EQ(1, "1")', { functionName: 'EQUAL', parameters: [1, '1'] }),
          calc: fx('ABS(-2)', { functionName: 'ABS', parameters: [{ functionName: 'MINUS_CHAR', parameters: [2] }] }),
          o: fx('"1 equals \'1\', and absolute value of -2 is {calcVar}"'),
        },
        { c: whenFx('LT(2, 6)'), calc: fx('AVG(10, 16, 80, 5)'), o: fx('"2 is less than 6, and average of 10, 16, 80 and 5 is {calcVar}"') },
      ],
    }),
  );
  assert.deepEqual(solveSync(rule, {}, options).result, [
    { output: "1 equals '1', and absolute value of -2 is 2" },
    { output: '2 is less than 6, and average of 10, 16, 80 and 5 is 27.75' },
  ]);
});

test('JSON outputs with embedded expressions (JSON_Example rows)', () => {
  const rule = compileRule(
    table({
      name: 'JSON Example',
      columns: [
        { id: 'row', kind: 'input', target: 'row' },
        { id: 'data', kind: 'input', target: 'data' },
        { id: 'o', kind: 'output', target: 'result' },
      ],
      rows: [
        { row: when('=', '1'), data: when('anything'), o: fx('{"animal":{data}}') },
        { row: when('=', '2'), data: when('anything'), o: fx('{"animal":"{data}"}') },
        { row: when('=', '3'), data: when('anything'), o: fx('{"price":SUM(1,{data})}') },
        { row: when('=', '6'), data: when('anything'), o: fx('{{data}:["dog","cat","bird"]}') },
        { row: when('=', '7'), data: when('anything'), o: ast({ '9': 'nine', _kvp_1: { key: { functionName: 'SUM', parameters: ['1', '{data}'] }, value: 'three' } }) },
        { row: when('=', '8'), data: when('anything'), o: fx('{"animals":{data},"number":COUNT({data})}') },
      ],
    }),
  );
  const run = (row: number, data: unknown): unknown => solveSync(rule, { row, data }, options).result;
  assert.deepEqual(run(1, 'cat'), [{ result: { animal: 'cat' } }]);
  assert.deepEqual(run(2, 'cat'), [{ result: { animal: '{data}' } }]);
  assert.deepEqual(run(3, 2), [{ result: { price: 3 } }]);
  assert.deepEqual(run(6, 'animals'), [{ result: { animals: ['dog', 'cat', 'bird'] } }]);
  assert.deepEqual(run(7, 2), [{ result: { '9': 'nine', '3': 'three' } }]);
  const pets = [{ name: 'dog', legs: 4 }, { name: 'snake', legs: 0 }];
  assert.deepEqual(run(8, pets), [{ result: { animals: pets, number: 2 } }]);
});

test('a table whose cells SOLVE another table, with strategy, version and path', async () => {
  const v1 = compileRule(plantItems(1));
  const v2 = compileRule(plantItems(2));
  const caller = compileRule(
    table({
      name: 'Solve Example',
      columns: [
        { id: 'g', kind: 'input', target: 'group' },
        { id: 'first', kind: 'output', target: 'first' },
        { id: 'names', kind: 'output', target: 'names' },
        { id: 'prices', kind: 'output', target: 'prices' },
        { id: 'latest', kind: 'output', target: 'latest' },
        { id: 'missing', kind: 'output', target: 'missingVersion' },
      ],
      rows: [
        {
          g: when('anything'),
          first: fx('SOLVE("plant-items-example",{"group":{group}},{"version":1,"path":"name"})'),
          names: fx('SOLVE("plant-items-example",{"group":{group}},{"version":1,"strategy":"ARRAY","path":"name"})'),
          prices: fx('ARRAY_PICK(SOLVE("plant-items-example",{"group":{group}},{"version":1}),"price")'),
          latest: fx('SOLVE("plant-items-example",{"group":{group}},{"strategy":"FIRST_MATCH","path":"name"})'),
          missing: fx('IS_NULL(SOLVE("plant-items-example",{"group":{group}},{"version":99}))'),
        },
      ],
    }),
  );
  assert.equal(caller.async, true);
  assert.deepEqual(
    caller.dependencies.map((d) => `${d.idOrAlias}@${d.version ?? 'latest'}`).sort(),
    ['plant-items-example@1', 'plant-items-example@99', 'plant-items-example@latest'],
  );
  const resolver = mapResolver({ 'plant-items-example': v2, 'plant-items-example@1': v1, 'plant-items-example@2': v2 });
  const { result } = await solve(caller, { group: 'plant' }, { ...options, resolver });
  assert.deepEqual(result, [
    { first: 'Monstera', names: ['Monstera', 'Begonia', 'Maranta'], prices: [460, 590, 390], latest: 'Ficus', missingVersion: true },
  ]);
});

test('a calc column LOOKUP_VALUE feeding conditions (lookup-table tutorial, conformance vector 8)', () => {
  const wireRouter = compileRule({
    type: 'lookup-table',
    name: 'Wire Router',
    status: 'published',
    version: 1,
    ruleAlias: 'wire-router',
    primaryKeyColumn: 'swift',
    columns: [
      { name: 'SWIFT', alias: 'swift', isPrimaryKey: true },
      { name: 'Country', alias: 'country' },
    ],
    data: { HBUSGB4B: { swift: 'HBUSGB4B', country: 'UK', _position: 0 }, BOFAUS3N: { swift: 'BOFAUS3N', country: 'US', _position: 1 } },
    inputSchema: { primaryKey: {}, outputColumn: {} },
    outputSchema: { output: {} },
  });
  const fees = compileRule(
    table({
      name: 'Fee Multiplier',
      columns: [
        { id: 'calc', kind: 'calc', target: 'destination' },
        { id: 'known', kind: 'input', target: 'destination' },
        { id: 'same', kind: 'input', target: 'destination' },
        { id: 'fee', kind: 'output', target: 'feeMultiplier' },
        { id: 'msg', kind: 'output', target: 'message' },
      ],
      rows: [
        { calc: fx('LOOKUP_VALUE("wire-router",{swiftCode},null,"Country")'), known: when('isNotNull'), same: when('=', '{originCountry}'), fee: fx('1'), msg: fx('"Domestic transfer to {destination}"') },
        { calc: fx('LOOKUP_VALUE("wire-router",{swiftCode},null,"Country")'), known: when('isNotNull'), same: when('<>', '{originCountry}'), fee: fx('2.5'), msg: fx('"International transfer"') },
        { calc: fx('LOOKUP_VALUE("wire-router",{swiftCode},null,"Country")'), known: when('isNull'), same: when('anything'), fee: fx('3'), msg: fx('"Unknown bank"') },
      ],
    }),
  );
  assert.deepEqual(fees.dependencies, [{ idOrAlias: 'wire-router' }]);
  const resolver = mapResolver({ 'wire-router': wireRouter });
  assert.deepEqual(solveSync(fees, { swiftCode: 'HBUSGB4B', originCountry: 'UK' }, { ...options, resolver }).result, [{ feeMultiplier: 1, message: 'Domestic transfer to UK' }]);
  assert.deepEqual(solveSync(fees, { swiftCode: 'BOFAUS3N', originCountry: 'UK' }, { ...options, resolver }).result, [{ feeMultiplier: 2.5, message: 'International transfer' }]);
  assert.deepEqual(solveSync(fees, { swiftCode: 'XXXXXXXX', originCountry: 'UK' }, { ...options, resolver }).result, [{ feeMultiplier: 3, message: 'Unknown bank' }]);
});

test('a function output that fails yields null and a failing function condition does not match', () => {
  const rule = compileRule(
    table({
      name: 'Failures',
      columns: [
        { id: 'c', kind: 'input', target: 'number' },
        { id: 'o', kind: 'output', target: 'sum' },
      ],
      rows: [
        { c: when('anything'), o: fx('SUM({number},6)') },
        { c: whenFx('GT(SUM({number}, 1), 1)'), o: fx('"big"') },
      ],
    }),
  );
  assert.deepEqual(solveSync(rule, { number: 'a' }, options).result, [{ sum: null }]);
  assert.deepEqual(solveSync(rule, { number: 4 }, options).result, [{ sum: 10 }, { sum: 'big' }]);
});

test('a cell that does not compile does not stop the rule: it is null (or no match), with its problem kept', async () => {
  const doc = table({
    name: 'Dates',
    columns: [
      { id: 'c', kind: 'input', target: 'any' },
      { id: 'bad', kind: 'output', target: 'bad' },
      { id: 'good', kind: 'output', target: 'good' },
      { id: 'zoned', kind: 'output', target: 'zoned' },
    ],
    rows: [
      { c: when('anything'), bad: fx('DATE_FORMAT(DATE({input}, "DD-MM-YYYY")'), good: fx('10 - 5 - 2'), zoned: fx('DATE_FORMAT(DATE({input}Z), "DD-MM-YYYY")') },
      { c: whenFx('GT({input},'), bad: fx('"never"'), good: fx('"never"'), zoned: fx('"never"') },
    ],
  });
  const rule = compileRule(doc);
  assert.deepEqual(rule.warnings?.map((w) => w.path), ['decisionTable.rows[0].cells[1].outputScalarValue.stringValue', 'decisionTable.rows[1].cells[0].scalarCondition.stringValue']);
  const { result, trace } = await solve(rule, { input: '04/16/2024' }, { trace: true, now: 0 });
  assert.deepEqual(result, [{ bad: null, good: 3, zoned: '16-04-2024' }]);
  const second = (trace as { conditions: { evaluationError?: string }[] }[])[1]!.conditions[0]!;
  assert.match(second.evaluationError ?? '', /^does not compile: decisionTable\.rows\[1\]\.cells\[0\]\.scalarCondition\.stringValue: /);
});
