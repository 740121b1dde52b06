// Decision tables: inputs evaluated once, each rule's unary tests against them, then the hit policy
// (U A P F R O C C+ C< C> C#), input values and output values checked, default outputs when no rule matches.
import type { DmnDecisionTable } from '../../rules/dmn/model.ts';
import { FeelContext, feelCompare, feelEquals, isNumber, num } from '../feel/index.ts';
import type { FeelNumber, FeelValue } from '../feel/index.ts';
import type { CompileScope, TypedCompiler } from './scope.ts';
import type { UnaryEvaluator } from './feel.ts';
import { feelExpression, feelUnaryTests } from './feel.ts';
import type { Evaluator, Frame } from './run.ts';
import { warn } from './run.ts';
import { indexRules } from './table-index.ts';
import { coerce } from './types.ts';
import type { DmnType } from './types.ts';

interface CompiledOutput {
  name: string;
  path: string;
  type: DmnType;
  allowed?: UnaryEvaluator;
  /** The listed output values, in priority order (P, O). */
  priorities?: Evaluator;
  defaultOutput?: Evaluator;
}

interface CompiledRule {
  index: number;
  tests: UnaryEvaluator[];
  outputs: Evaluator[];
  /** Each output entry's path, for warnings (made once: a path built per match is a string per match). */
  outputPaths: string[];
}

interface Match {
  rule: CompiledRule;
  values: FeelValue[];
}

export function compileDecisionTable(table: DmnDecisionTable, scope: CompileScope, compiler: TypedCompiler): Evaluator {
  const problems = compiler.problems;
  const path = table.path;
  const inputs = table.inputs.map((input) => ({
    path: input.path,
    text: input.expression.trim(),
    value: feelExpression(input.expression, scope, `${input.path}.inputExpression`, problems),
    type: compiler.type(input.typeRef, scope, input.path),
    allowed: input.inputValues ? feelUnaryTests(input.inputValues, scope, `${input.path}.inputValues`, problems) : undefined,
  }));
  const outputs: CompiledOutput[] = table.outputs.map((output, index) => ({
    name: output.name ?? `output${index + 1}`,
    path: output.path,
    type: compiler.type(output.typeRef, scope, output.path),
    ...(output.outputValues
      ? {
          allowed: feelUnaryTests(output.outputValues, scope, `${output.path}.outputValues`, problems),
          priorities: feelExpression(`[${output.outputValues}]`, scope, `${output.path}.outputValues`, problems),
        }
      : {}),
    ...(output.defaultOutput !== undefined
      ? { defaultOutput: feelExpression(output.defaultOutput, scope, `${output.path}.defaultOutputEntry`, problems) }
      : {}),
  }));
  // Each rule's tests see the names in scope plus `?`, the input value (FEEL's unary tests bind it).
  const rules: CompiledRule[] = table.rules.map((rule, index) => ({
    index,
    tests: rule.inputEntries.map((entry, column) => feelUnaryTests(entry, scope, `${rule.path}.inputEntry[${column}]`, problems)),
    outputs: rule.outputEntries.map((entry, column) => feelExpression(entry, scope, `${rule.path}.outputEntry[${column}]`, problems)),
    outputPaths: rule.outputEntries.map((_, column) => `${rule.path}.outputEntry[${column}]`),
  }));
  // Large tables look their candidate rules up in an index over their most selective literal column.
  const candidates = indexRules(table.rules.map((rule) => rule.inputEntries), inputs.length);
  const single = outputs.length === 1;
  const hitPolicy = table.hitPolicy;
  const aggregation = table.aggregation;

  const names = outputs.map((output) => output.name);
  // Entries set in a loop: a context built from mapped pairs is an array of arrays per matched rule.
  const shape = (values: FeelValue[]): FeelValue => {
    if (single) return values[0] ?? null;
    const context = new FeelContext();
    for (let index = 0; index < names.length; index++) context.entries.set(names[index]!, values[index] ?? null);
    return context;
  };

  return (frame) => {
    const values: FeelValue[] = [];
    for (const input of inputs) {
      const value = coerce(input.value(frame), input.type, frame, input.path);
      if (input.allowed && value !== null && input.allowed(value, frame) !== true) {
        return warn(frame, input.path, `the input '${input.text}' is not one of its input values`);
      }
      values.push(value);
    }
    const matches: Match[] = [];
    const positions = candidates?.(values);
    const count = positions ? positions.length : rules.length;
    for (let k = 0; k < count; k++) {
      const rule = rules[positions ? positions[k]! : k]!;
      if (!ruleMatches(rule, values, frame)) continue;
      const results: FeelValue[] = [];
      for (let column = 0; column < rule.outputs.length; column++) {
        const spec = outputs[column]!;
        const result = coerce(rule.outputs[column]!(frame), spec.type, frame, rule.outputPaths[column]!);
        if (spec.allowed && result !== null && spec.allowed(result, frame) !== true) {
          return warn(frame, rule.outputPaths[column]!, `the output is not one of the output values of '${spec.name}'`);
        }
        results.push(result);
      }
      matches.push({ rule, values: results });
      if (hitPolicy === 'FIRST') break;
    }
    if (matches.length === 0) return noMatch(frame);
    switch (hitPolicy) {
      case 'UNIQUE':
        if (matches.length > 1) {
          return warn(frame, path, `hit policy UNIQUE: rules ${matches.map((match) => match.rule.index + 1).join(', ')} all match`);
        }
        return shape(matches[0]!.values);
      case 'ANY': {
        const first = matches[0]!;
        const differs = matches.find((match) => match.values.some((value, index) => feelEquals(value, first.values[index] ?? null) !== true));
        if (differs) return warn(frame, path, `hit policy ANY: rules ${first.rule.index + 1} and ${differs.rule.index + 1} match with different outputs`);
        return shape(first.values);
      }
      case 'FIRST':
        return shape(matches[0]!.values);
      case 'PRIORITY':
        return shape(byPriority(matches, frame)[0]!.values);
      case 'OUTPUT ORDER':
        return byPriority(matches, frame).map((match) => shape(match.values));
      case 'RULE ORDER':
        return matches.map((match) => shape(match.values));
      case 'COLLECT':
        if (!aggregation) return matches.map((match) => shape(match.values));
        if (!single) return warn(frame, path, `hit policy COLLECT with ${aggregation} needs a single output`);
        return aggregate(
          matches.map((match) => match.values[0] ?? null),
          frame,
        );
    }
  };

  function noMatch(frame: Frame): FeelValue {
    const defaults = outputs.map((output) => (output.defaultOutput ? coerce(output.defaultOutput(frame), output.type, frame, output.path) : null));
    if (hitPolicy === 'COLLECT' && aggregation === 'COUNT') return defaults[0] ?? num(0);
    if (!defaults.some((value) => value !== null)) {
      return (hitPolicy === 'COLLECT' && !aggregation) || hitPolicy === 'RULE ORDER' || hitPolicy === 'OUTPUT ORDER' ? [] : null;
    }
    return shape(defaults);
  }

  /** Matches sorted by their outputs' positions in the output values (first output first), stable by rule order. */
  function byPriority(matches: Match[], frame: Frame): Match[] {
    // One match is in order already: its output values need neither evaluating nor ranking.
    if (matches.length < 2) return matches;
    const lists = outputs.map((output) => {
      const listed = output.priorities?.(frame);
      return Array.isArray(listed) ? listed : [];
    });
    const rank = (match: Match) =>
      match.values.map((value, index) => {
        const position = lists[index]!.findIndex((candidate) => feelEquals(candidate, value) === true);
        return position < 0 ? Number.MAX_SAFE_INTEGER : position;
      });
    const ranked = matches.map((match) => ({ match, rank: rank(match) }));
    ranked.sort((a, b) => {
      for (let index = 0; index < a.rank.length; index++) if (a.rank[index] !== b.rank[index]) return a.rank[index]! - b.rank[index]!;
      return a.match.rule.index - b.match.rule.index;
    });
    return ranked.map((entry) => entry.match);
  }

  function aggregate(values: FeelValue[], frame: Frame): FeelValue {
    const present = values.filter((value) => value !== null);
    switch (aggregation) {
      case 'COUNT':
        return num(present.length);
      case 'SUM': {
        if (!present.every(isNumber)) return warn(frame, path, 'hit policy COLLECT SUM: an output is not a number');
        return (present as FeelNumber[]).reduce((sum, value) => sum.plus(value), num(0));
      }
      case 'MIN':
      case 'MAX': {
        let best: FeelValue = null;
        for (const value of present) {
          const order = best === null ? 0 : feelCompare(value, best);
          if (order === null) return warn(frame, path, `hit policy COLLECT ${aggregation}: outputs cannot be compared`);
          if (best === null || (aggregation === 'MIN' ? order < 0 : order > 0)) best = value;
        }
        return best;
      }
      default:
        return null;
    }
  }
}

/** Whether every input entry of the rule accepts its input (a plain loop: this runs for every rule of every solve). */
function ruleMatches(rule: CompiledRule, values: readonly FeelValue[], frame: Frame): boolean {
  const tests = rule.tests;
  for (let column = 0; column < tests.length; column++) if (tests[column]!(values[column] ?? null, frame) !== true) return false;
  return true;
}
