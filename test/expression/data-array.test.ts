// Data and array functions, spec/rule-format.md §4.9.5, §4.9.6, §4.6 (lambdas), §11 Fn7, Fn9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { out } from './helpers.ts';

const input2 = [{ order: { price: 10, code: 'A' } }, { order: { price: 30, code: 'B' } }, { order: { price: 50, code: 'C' } }];
const input3 = [
  { order: [{ code: 'A2', price: 1 }, { code: 'X', price: 11 }] },
  { order: [{ code: 'A5', price: 2 }] },
];

test('PICK follows dotted paths and [n] indexes, null when absent', () => {
  assert.equal(out('PICK({"order":{"code":"A"}},"order.code")'), 'A');
  assert.equal(out('PICK(["A","B","C"],"[2]")'), 'C');
  assert.equal(out('PICK({input3},"[0].order[1].price")', { input3 }), 11);
  assert.equal(out('PICK({o},"order[1].price")', { o: input3[0] }), 11);
  assert.equal(out('PICK({"a":1},"b")'), null);
  assert.equal(out('PICK({"a":1},"constructor")'), null);
  assert.equal(out('PICK({"a":1},"__proto__")'), null);
  assert.equal(out('PICK("text","length")'), null);
  assert.equal(out('PICK({"a":1},{"x":1})'), null);
});

test('RAW_VALUE exempts the result from output casting', () => {
  assert.equal(out('RAW_VALUE("0001")'), '0001');
  assert.equal(out('"0001"'), 1);
  assert.equal(out('RAW_VALUE(TEXT(true))'), 'true');
  assert.deepEqual(out('RAW_VALUE(["a","b",1,2])'), ['a', 'b', 1, 2]);
  assert.equal(out('IF(true, RAW_VALUE("01"), "02")'), '01');
  assert.equal(out('IF(false, RAW_VALUE("01"), "02")'), 2);
  assert.equal(out('NVL(null, RAW_VALUE("007"))'), '007');
  assert.equal(out('CONCAT(RAW_VALUE("0"), "1")'), 1);
});

test('ARRAY_PICK', () => {
  assert.deepEqual(out('ARRAY_PICK([{"order":{"code":"A"}},{"order":{"code":"B"}}],"order.code")'), ['A', 'B']);
  assert.deepEqual(out('ARRAY_PICK([{"key":[{"a":1}]},{"key":[{"a":2}]}],"key[0].a")'), [1, 2]);
  assert.deepEqual(out('ARRAY_PICK([{"a":1},{}],"a")'), [1, null]);
  assert.equal(out('ARRAY_PICK("x","a")'), null);
});

test('ARRAY_MAP binds the parameter per element', () => {
  assert.deepEqual(out('ARRAY_MAP([1,2,3],"x",SUM({x},1))'), [2, 3, 4]);
  assert.deepEqual(out('ARRAY_MAP([1,3,7],"x",{x}/0.5)'), [2, 6, 14]);
  assert.deepEqual(out('ARRAY_MAP(["a","bb","ccc"],\'el\',LEN({el}))'), [1, 2, 3]);
  assert.deepEqual(out('ARRAY_MAP({items},"i",{i.price}*{rate})', { items: [{ price: 2 }, { price: 5 }], rate: 10 }), [20, 50]);
  assert.deepEqual(out('ARRAY_MAP([1,2],"x","item {x}")'), ['item 1', 'item 2']);
  assert.deepEqual(out('ARRAY_MAP([],"x",{x})'), []);
  assert.equal(out('ARRAY_MAP(5,"x",{x})'), null);
  assert.equal(out('ARRAY_MAP([1,"a"],"x",{x}*2)'), null);
});

test('a lambda parameter shadows a variable of the same name, and nested lambdas shadow outer ones', () => {
  assert.deepEqual(out('ARRAY_MAP([1,2],"x",{x})', { x: 'outer' }), [1, 2]);
  assert.equal(out('CONCAT({x}, COUNT(ARRAY_MAP([1],"x",{x})))', { x: 'outer' }), 'outer1');
  assert.deepEqual(out('ARRAY_MAP([[0,0,1],[0,1,1],[1,1,1]],\'arr\',COUNT(ARRAY_FILTER({arr},\'x\',EQ({x},1))))'), [1, 2, 3]);
  assert.deepEqual(out('ARRAY_MAP([[1,2],[3]],"x",ARRAY_MAP({x},"x",{x}*10))'), [[10, 20], [30]]);
  assert.deepEqual(out('ARRAY_MAP([1,2],"a",ARRAY_MAP([10],"b",{a}+{b}))'), [[11], [12]]);
});

test('ARRAY_FILTER keeps elements whose expression is true', () => {
  assert.deepEqual(out('ARRAY_FILTER([1,8,12,4],"x",LT({x},5))'), [1, 4]);
  assert.deepEqual(out('ARRAY_FILTER([{"code":"A"},{"code":"B"},{"code":"A"}],"obj",EQ(PICK({obj},"code"),"A"))'), [{ code: 'A' }, { code: 'A' }]);
  assert.deepEqual(out('ARRAY_FILTER([1,2],"x","yes")'), []);
  assert.equal(out('ARRAY_FILTER(null,"x",true)'), null);
});

test('ARRAY_REDUCE folds from the first element; [] gives null', () => {
  assert.equal(out('ARRAY_REDUCE([1,2,3,4],"x","y",SUM({x},{y}))'), 10);
  assert.equal(out('ARRAY_REDUCE([1,2,3,4],"a","b",TIMES({a},{b}))'), 24);
  assert.equal(out('ARRAY_REDUCE([1,2,3,4],"w1","w2",CONCAT_WS("_",{w1},{w2}))'), '1_2_3_4');
  assert.equal(out('ARRAY_REDUCE([1,2,3,4,5],"x","y",CONCAT({x},{y}))'), 12345);
  assert.equal(out('ARRAY_REDUCE([],"x","y",SUM({x},{y}))'), null);
  assert.equal(out('ARRAY_REDUCE([7],"x","y",SUM({x},{y}))'), 7);
});

test('a lambda parameter name must be a literal', () => {
  assert.throws(() => out('ARRAY_MAP([1],{name},{x})'), /ARRAY_MAP expects a quoted parameter name such as "x" as argument 2 at line 1, column 15/);
  assert.throws(() => out('ARRAY_REDUCE([1],"a","",1)'), /argument 3/);
});

test('ARRAY_INCLUDES / INCLUDES use EQ semantics and deep equality', () => {
  assert.equal(out('ARRAY_INCLUDES([1,5,10],5)'), true);
  assert.equal(out('ARRAY_INCLUDES([1,5,9],6)'), false);
  assert.equal(out('ARRAY_INCLUDES({input},{"code":"A","quantity":"3"})', { input: [{ code: 'B' }, { code: 'A', quantity: '3' }] }), true);
  assert.equal(out('ARRAY_INCLUDES([1,null],null)'), true);
  assert.equal(out('ARRAY_INCLUDES(null,1)'), false);
  assert.equal(out('ARRAY_INCLUDES({},1)'), false);
  assert.equal(out('INCLUDES(["a"],"a")'), true);
});

test('ARRAY_FLATTEN', () => {
  assert.deepEqual(out('ARRAY_FLATTEN([1,2,[3,4],[[5]]])'), [1, 2, 3, 4, 5]);
  assert.deepEqual(out('ARRAY_FLATTEN([1,2,[3,4],[[5]]],1)'), [1, 2, 3, 4, [5]]);
  assert.equal(out('ARRAY_FLATTEN("x")'), null);
  assert.equal(out('ARRAY_FLATTEN([1],0)'), null);
  assert.equal(out('ARRAY_FLATTEN([1],1.5)'), null);
});

test('deprecated ARRAY_SUM, ARRAY_CONCAT, ARRAY_CONCAT_WS, ARRAY_AND, ARRAY_OR', () => {
  assert.equal(out('ARRAY_SUM({input2},"order.price")', { input2 }), 90);
  assert.equal(out('ARRAY_SUM([1,2,3])'), 6);
  assert.equal(out('ARRAY_SUM(["a"])'), null);
  assert.equal(out('ARRAY_CONCAT({input3},"order[0].code")', { input3 }), 'A2A5');
  assert.equal(out('ARRAY_CONCAT(["a","b"])'), 'ab');
  assert.equal(out('ARRAY_CONCAT_WS("_",{input2},"order.code")', { input2 }), 'A_B_C');
  assert.equal(out('ARRAY_AND([true,true,false])'), false);
  assert.equal(out('ARRAY_OR([true,false,false])'), true);
  assert.equal(out('ARRAY_AND(["x"])'), null);
  assert.equal(out('ARRAY_OR(5)'), null);
});
