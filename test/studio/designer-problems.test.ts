// Server problems placed on the grid, bench traces read for highlighting, the model tree editor, and the
// function catalog the expression editor completes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locateProblems } from '../../studio/src/designer/model/problems.ts';
import { describeOutcome, readTrace } from '../../studio/src/designer/model/trace.ts';
import { addField, deleteField, fieldNameProblem, flattenSchema, leafPaths, renameField, schemaTextProblem } from '../../studio/src/designer/model/schema.ts';
import { functionCatalog, signatureOf } from '../../src/engine/expression/catalog.ts';
import { functionNames } from '../../src/engine/expression/index.ts';
import { validateRuleDocument } from '../../src/rules/validate.ts';
import { compileRule, solve } from '../../src/engine/index.ts';

function rule(): any {
  return {
    type: 'decision-table',
    name: 'P',
    status: 'published',
    inputSchema: { a: {} },
    outputSchema: { out: {} },
    decisionTable: {
      columns: [
        { columnId: 'c1', type: 'input', condition: { name: 'A', inputVariable: 'a' } },
        { columnId: 'c2', type: 'output', columnOutput: { name: 'Out', outputVariable: 'out' } },
      ],
      rows: [
        { active: true, cells: [
          { column: 'c2', type: 'output', outputScalarValue: { type: 'common', value: 'x' } },
          { column: 'c1', type: 'input', scalarCondition: { operator: 'betwen', value: ['1', '2'] } },
        ] },
        { active: 'yes', cells: [{ column: 'c1', type: 'input', scalarCondition: { operator: 'between', value: ['1'] } }] },
      ],
    },
  };
}

test('validator problems land on the cell their path names, found through the cell\'s column id', () => {
  const doc = rule();
  doc.decisionTable.columns[1].columnOutput.outputVariable = '';
  const problems = validateRuleDocument(doc);
  const index = locateProblems(doc, problems);
  assert.match(index.cells.get('0:0')![0]!, /operator: unknown operator "betwen" \(did you mean "between"\?\)/);
  assert.match(index.cells.get('1:0')![0]!, /value: must hold exactly two values/);
  assert.match(index.rows.get(1)![0]!, /active: must be true or false/);
  assert.match(index.columns.get(1)![0]!, /columnOutput.outputVariable: must not be empty/);
  assert.equal(index.count, problems.length);
  assert.equal(index.other.length, 0);
});

test('prefixed paths, table-level problems and unknown cells', () => {
  const index = locateProblems(rule(), [
    { path: 'rule.decisionTable.rows[0].cells[1].scalarCondition', message: 'bad' },
    { path: 'decisionTable.columns', message: 'needs a result column' },
    { path: 'decisionTable.rows[0].cells[9].column', message: 'unknown column' },
    { path: 'name', message: 'is required' },
  ]);
  assert.deepEqual(index.cells.get('0:0'), ['scalarCondition: bad']);
  assert.deepEqual(index.rows.get(0), ['cells[9].column: unknown column']);
  assert.deepEqual(index.other.map((p) => p.path), ['decisionTable.columns', 'name']);
});

test('a real engine trace lights the matched rows and tells which conditions held', async () => {
  const doc = rule();
  doc.decisionTable.rows = [
    { active: true, cells: [{ column: 'c1', type: 'input', scalarCondition: { operator: '=', value: '1' } }, { column: 'c2', type: 'output', outputScalarValue: { type: 'common', value: 'one' } }] },
    { active: true, cells: [{ column: 'c1', type: 'input', scalarCondition: { operator: '>', value: '0' } }, { column: 'c2', type: 'output', outputScalarValue: { type: 'common', value: 'pos' } }] },
  ];
  const compiled = compileRule(doc);
  const solved = await solve(compiled, { a: 5 }, { trace: true, now: 0 });
  const trace = readTrace(doc, solved)!;
  assert.ok(trace, 'the solve result carries a readable trace');
  assert.deepEqual([...trace.matched], [1]);
  assert.equal(trace.conditions.get('0:0')!.held, false);
  assert.equal(trace.conditions.get('1:0')!.held, true);
  assert.match(describeOutcome(trace.conditions.get('0:0')!), /did not hold — a = 5/);
});

test('trace shapes: a bare list, debugData, and bulk input', () => {
  const entries = [{ rowNumber: 2, evaluationResult: true, conditions: [{ columnId: 'c1', evaluationResult: true, inputProperty: 'a', inputValue: 1 }] }];
  for (const shape of [entries, { debugData: entries }, [entries], { trace: [entries] }]) {
    const view = readTrace(rule(), shape)!;
    assert.deepEqual([...view.matched], [1]);
    assert.equal(view.conditions.get('1:0')!.held, true);
  }
  assert.equal(readTrace(rule(), { something: 1 }), undefined);
  assert.equal(readTrace(rule(), undefined), undefined);
});

test('model tree: add, nest, rename in place and delete', () => {
  let schema: any = { client: { age: {} }, amount: {} };
  schema = addField(schema, ['client'], 'salary');
  schema = addField(schema, ['amount'], 'currency');
  schema = renameField(schema, ['client'], 'customer');
  assert.deepEqual(Object.keys(schema), ['customer', 'amount'], 'rename keeps the key order');
  assert.deepEqual(leafPaths(schema), ['customer.age', 'customer.salary', 'amount.currency']);
  schema = deleteField(schema, ['customer', 'age']);
  assert.deepEqual(flattenSchema(schema).map((n) => `${'  '.repeat(n.depth)}${n.name}${n.leaf ? '' : '/'}`), ['customer/', '  salary', 'amount/', '  currency']);
  assert.equal(fieldNameProblem(schema, ['customer'], 'salary'), '"salary" already exists here');
  assert.equal(fieldNameProblem(schema, ['customer'], 'salary', 'salary'), undefined, 'renaming to itself is fine');
  assert.match(fieldNameProblem(schema, [], 'a b')!, /letters, digits/);
  assert.equal(fieldNameProblem(schema, [], ''), 'A field needs a name');
});

test('model JSON: objects all the way down', () => {
  assert.equal(schemaTextProblem('{"a":{"b":{}}}'), undefined);
  assert.equal(schemaTextProblem('{"a":{"b":1}}'), 'a.b must be an object (leaves are {})');
  assert.equal(schemaTextProblem('[]'), 'the model must be an object (leaves are {})');
  assert.ok(schemaTextProblem('{"a":'));
});

test('the function catalog lists every callable name of the engine with its arity', () => {
  const catalog = functionCatalog();
  const names = new Set(catalog.map((f) => f.name));
  const hidden = ['PLUS_CHAR', 'MINUS_CHAR', 'TIMES_CHAR', 'DIVIDED_CHAR', 'MODULO_CHAR', 'EVAL'];
  for (const name of functionNames()) assert.equal(names.has(name), !hidden.includes(name), name);
  const round = catalog.find((f) => f.name === 'ROUND')!;
  assert.deepEqual([round.min, round.max, round.group, round.signature], [1, 2, 'math', 'ROUND(number, [places])']);
  assert.equal(catalog.find((f) => f.name === 'SUM')!.signature, 'SUM(number…)');
  assert.equal(catalog.find((f) => f.name === 'GREATER')!.signature, 'GREATER(a, b)', 'aliases share the signature');
  assert.deepEqual(catalog.find((f) => f.name === 'EQ')!.aliases, ['EQUAL']);
});

test('every signature agrees with the arity the compiler checks', () => {
  for (const f of functionCatalog()) {
    const params = /^[A-Z_]+\((.*)\)$/.exec(f.signature)![1]!.split(', ').filter((p) => p !== '');
    const required = params.filter((p) => !p.startsWith('[')).length;
    const repeatable = params.some((p) => p.endsWith('…'));
    assert.equal(required, f.min, `${f.signature} requires ${f.min}`);
    if (f.max === Infinity) assert.ok(repeatable, `${f.signature} takes any number`);
    else assert.equal(params.length, f.max, `${f.signature} takes at most ${f.max}`);
  }
});

test('a definition without parameter names gets a signature from its arity', () => {
  assert.equal(signatureOf('X', 1, 2), 'X(arg1, [arg2])');
  assert.equal(signatureOf('Y', 2, Infinity), 'Y(arg1, value…)');
  assert.equal(signatureOf('Z', 1, 1), 'Z(value)');
  assert.equal(signatureOf('W', 0, 0, ''), 'W()');
});
