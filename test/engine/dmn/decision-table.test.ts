// Decision tables: every hit policy, input and output values, default outputs, several outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, definitions, escape, input, requirementsXml, solve } from './helpers.ts';

interface Table {
  hitPolicy?: string;
  aggregation?: string;
  outputs?: { name: string; values?: string; default?: string }[];
  inputValues?: string;
  rules: [string, ...string[]][];
}

/** A table deciding on input `x` (a number): rules are [input entry, output entries...]. */
function model(table: Table): string {
  const outputs = table.outputs ?? [{ name: 'out' }];
  const outputXml = outputs
    .map(
      (output) => `<output name="${output.name}">${output.values ? `<outputValues><text>${escape(output.values)}</text></outputValues>` : ''}${
        output.default ? `<defaultOutputEntry><text>${escape(output.default)}</text></defaultOutputEntry>` : ''
      }</output>`,
    )
    .join('');
  const rules = table.rules
    .map(([test, ...outs]) => `<rule><inputEntry><text>${escape(test)}</text></inputEntry>${outs.map((out) => `<outputEntry><text>${escape(out)}</text></outputEntry>`).join('')}</rule>`)
    .join('');
  return definitions(`${input('i1', 'x', 'number')}
    <decision id="d" name="D">${requirementsXml(['i1'])}
      <decisionTable${table.hitPolicy ? ` hitPolicy="${table.hitPolicy}"` : ''}${table.aggregation ? ` aggregation="${table.aggregation}"` : ''}>
        <input><inputExpression typeRef="number"><text>x</text></inputExpression>${table.inputValues ? `<inputValues><text>${escape(table.inputValues)}</text></inputValues>` : ''}</input>
        ${outputXml}${rules}
      </decisionTable></decision>`);
}

async function decide(table: Table, x: unknown) {
  const { results, warnings } = solve(await compile(model(table)), { x });
  return { value: results.D, warnings };
}

const overlapping: [string, string][] = [
  ['> 10', '"big"'],
  ['> 5', '"medium"'],
  ['-', '"any"'],
];

test('UNIQUE: one match answers, several matches are null with a warning naming the rules, none is null', async () => {
  const rules: [string, string][] = [['< 5', '"low"'], ['>= 5', '"high"']];
  assert.equal((await decide({ rules }, 3)).value, 'low');
  assert.equal((await decide({ rules }, 7)).value, 'high');
  const clash = await decide({ rules: overlapping }, 12);
  assert.equal(clash.value, null);
  assert.match(clash.warnings.join('\n'), /decision 'D'\.decisionTable: hit policy UNIQUE: rules 1, 2, 3 all match/);
});

test('ANY: matches with equal outputs answer, different outputs are an error', async () => {
  assert.equal((await decide({ hitPolicy: 'ANY', rules: [['> 1', '"yes"'], ['> 2', '"yes"']] }, 5)).value, 'yes');
  const different = await decide({ hitPolicy: 'ANY', rules: overlapping }, 12);
  assert.equal(different.value, null);
  assert.match(different.warnings.join('\n'), /hit policy ANY: rules 1 and 2 match with different outputs/);
});

test('FIRST and RULE ORDER follow the rules; COLLECT lists every match', async () => {
  assert.equal((await decide({ hitPolicy: 'FIRST', rules: overlapping }, 7)).value, 'medium');
  assert.deepEqual((await decide({ hitPolicy: 'RULE ORDER', rules: overlapping }, 12)).value, ['big', 'medium', 'any']);
  assert.deepEqual((await decide({ hitPolicy: 'COLLECT', rules: overlapping }, 7)).value, ['medium', 'any']);
});

test('PRIORITY and OUTPUT ORDER follow the output values', async () => {
  const outputs = [{ name: 'out', values: '"any","medium","big"' }];
  assert.equal((await decide({ hitPolicy: 'PRIORITY', outputs, rules: overlapping }, 12)).value, 'any');
  assert.deepEqual((await decide({ hitPolicy: 'OUTPUT ORDER', outputs, rules: overlapping }, 12)).value, ['any', 'medium', 'big']);
});

test('COLLECT with SUM, MIN, MAX and COUNT aggregates the matched outputs', async () => {
  const rules: [string, string][] = [['> 0', '10'], ['> 5', '20'], ['> 10', '5'], ['> 100', '1']];
  assert.equal((await decide({ hitPolicy: 'COLLECT', aggregation: 'SUM', rules }, 12)).value, 35);
  assert.equal((await decide({ hitPolicy: 'COLLECT', aggregation: 'MIN', rules }, 12)).value, 5);
  assert.equal((await decide({ hitPolicy: 'COLLECT', aggregation: 'MAX', rules }, 12)).value, 20);
  assert.equal((await decide({ hitPolicy: 'COLLECT', aggregation: 'COUNT', rules }, 12)).value, 3);
  assert.equal((await decide({ hitPolicy: 'COLLECT', aggregation: 'COUNT', rules }, -1)).value, 0);
});

test('no match answers the default output; several outputs answer a context', async () => {
  const outputs = [{ name: 'a', default: '"none"' }, { name: 'b', default: '0' }];
  const table = { outputs, rules: [['> 10', '"big"', '1'] as [string, string, string]] };
  assert.deepEqual((await decide(table, 12)).value, { a: 'big', b: 1 });
  assert.deepEqual((await decide(table, 1)).value, { a: 'none', b: 0 });
});

test('an input outside its input values is an error naming the input', async () => {
  const outside = await decide({ inputValues: '[0..100]', rules: [['-', '"ok"']] }, 200);
  assert.equal(outside.value, null);
  assert.match(outside.warnings.join('\n'), /input\[0\]: the input 'x' is not one of its input values/);
  assert.equal((await decide({ inputValues: '[0..100]', rules: [['-', '"ok"']] }, 50)).value, 'ok');
});
