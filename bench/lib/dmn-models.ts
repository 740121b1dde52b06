// The DMN models of the engine-dmn case: the TCK's models with decision tables (their test inputs), and a
// generated 1,000-rule UNIQUE table. Inputs are JSON, given to both engines in their own value types.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { TckValue } from '../../scripts/tck/test-file.ts';
import { readTestFile } from '../../scripts/tck/test-file.ts';
import { intBetween, pick, seededRandom } from './table-spec.ts';

export interface DmnBenchModel {
  /** The TCK folder (`compliance-level-2/0004-simpletable-U`) or `table1000`. */
  name: string;
  /** The model's file (read by both engines). */
  file: string;
  inputs: Record<string, unknown>[];
}

const NUMERIC = new Set(['decimal', 'double', 'float', 'int', 'integer', 'long', 'short', 'byte']);

/** A TCK value as JSON, or undefined for a temporal value (JSON strings would not read as one in Drools). */
function tckJson(value: TckValue): unknown {
  switch (value.kind) {
    case 'nil':
      return null;
    case 'list': {
      const items = value.items.map(tckJson);
      return items.includes(undefined) ? undefined : items;
    }
    case 'context': {
      const entries = value.components.map(([name, component]) => [name, tckJson(component)] as const);
      return entries.some(([, v]) => v === undefined) ? undefined : Object.fromEntries(entries);
    }
    case 'value':
      if (value.xsdType && NUMERIC.has(value.xsdType)) return Number(value.text.trim());
      if (value.xsdType === 'boolean') return value.text.trim() === 'true';
      return value.xsdType === undefined || value.xsdType === 'string' ? value.text : undefined;
  }
}

/**
 * The TCK folders (levels 2 and 3) with one model holding a decision table and importing nothing, with the inputs
 * of their decision test cases that JSON carries (no dates, times or durations).
 */
export function tckTableModels(tckDir: string): DmnBenchModel[] {
  const models: DmnBenchModel[] = [];
  for (const level of ['compliance-level-2', 'compliance-level-3']) {
    for (const folder of readdirSync(path.join(tckDir, level)).sort()) {
      const dir = path.join(tckDir, level, folder);
      const dmns = readdirSync(dir).filter((f) => f.endsWith('.dmn'));
      if (dmns.length !== 1) continue;
      const xml = readFileSync(path.join(dir, dmns[0]), 'utf8');
      if (!/<(?:\w+:)?decisionTable[\s>]/.test(xml) || /<(?:\w+:)?import[\s>]/.test(xml)) continue;
      const inputs: Record<string, unknown>[] = [];
      for (const testFile of readdirSync(dir).filter((f) => /-test-.*\.xml$/.test(f)).sort()) {
        for (const testCase of readTestFile(readFileSync(path.join(dir, testFile), 'utf8'), testFile).testCases) {
          if (testCase.type !== 'decision' || testCase.inputs.some((i) => i.namespace)) continue;
          const entries = testCase.inputs.map((i) => [i.name, tckJson(i.value)] as const);
          if (entries.every(([, v]) => v !== undefined)) inputs.push(Object.fromEntries(entries));
        }
      }
      if (inputs.length > 0) models.push({ name: `${level}/${folder}`, file: path.join(dir, dmns[0]), inputs });
    }
  }
  return models;
}

export const TABLE1000_NAMESPACE = 'https://verdict.dev/bench/dmn/table1000';
export const CATEGORIES = ['retail', 'business', 'public', 'charity', 'private'];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A UNIQUE decision table of `rows` rules: rule i matches an amount in [10i..10i+10) and one category (i mod 5),
 * and answers a score and a band. Rules do not overlap, so every engine must look at all of them.
 */
export function table1000Xml(rows = 1000): string {
  const rules: string[] = [];
  for (let i = 0; i < rows; i++) {
    rules.push(
      `<rule id="r${i}"><inputEntry><text>[${10 * i}..${10 * i + 10})</text></inputEntry>` +
        `<inputEntry><text>${escapeXml(`"${CATEGORIES[i % CATEGORIES.length]}"`)}</text></inputEntry>` +
        `<outputEntry><text>${i}</text></outputEntry><outputEntry><text>${escapeXml(`"band ${i % 17}"`)}</text></outputEntry></rule>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" namespace="${TABLE1000_NAMESPACE}" name="table1000" id="table1000">
  <inputData id="amount" name="amount"><variable name="amount" typeRef="number"/></inputData>
  <inputData id="category" name="category"><variable name="category" typeRef="string"/></inputData>
  <decision id="pricing" name="pricing">
    <variable name="pricing"/>
    <informationRequirement><requiredInput href="#amount"/></informationRequirement>
    <informationRequirement><requiredInput href="#category"/></informationRequirement>
    <decisionTable hitPolicy="UNIQUE">
      <input id="in1" label="amount"><inputExpression typeRef="number"><text>amount</text></inputExpression></input>
      <input id="in2" label="category"><inputExpression typeRef="string"><text>category</text></inputExpression></input>
      <output id="out1" name="score" typeRef="number"/>
      <output id="out2" name="band" typeRef="string"/>
      ${rules.join('\n      ')}
    </decisionTable>
  </decision>
</definitions>
`;
}

/** Amounts over the whole table; the category matching the rule four times in five, so one in five finds none. */
export function table1000Inputs(rows = 1000, count = 200): Record<string, unknown>[] {
  const random = seededRandom(3101);
  return Array.from({ length: count }, () => {
    const amount = intBetween(random, 0, rows * 10 - 1);
    const rule = Math.floor(amount / 10);
    const category = random() < 0.8 ? CATEGORIES[rule % CATEGORIES.length] : pick(random, CATEGORIES);
    return { amount, category };
  });
}
