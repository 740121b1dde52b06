// Renders a TableSpec as json-rules-engine rules: one rule per row, priorities keeping row order, a row's outputs
// carried in its event params. First-hit tables stop the engine after the first success, as ZEN and Verdict do.
import { Engine } from 'json-rules-engine';
import type { RuleProperties } from 'json-rules-engine';
import type { Condition, Expr, TableSpec } from './table-spec.ts';
import { setDotted, usesExpressions } from './table-spec.ts';

type Leaf = { fact: string; path?: string; operator: string; value: unknown };

function factOf(field: string): { fact: string; path?: string } {
  const dot = field.indexOf('.');
  return dot < 0 ? { fact: field } : { fact: field.slice(0, dot), path: `$.${field.slice(dot + 1)}` };
}

const OPERATORS: Record<string, string> = {
  eq: 'equal', ne: 'notEqual', lt: 'lessThan', le: 'lessThanInclusive', gt: 'greaterThan', ge: 'greaterThanInclusive',
  in: 'in', notIn: 'notIn',
};

function leaves(condition: Condition, field: string): Leaf[] {
  const fact = factOf(field);
  switch (condition.op) {
    case 'any': return [];
    case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge':
      return [{ ...fact, operator: OPERATORS[condition.op], value: condition.value }];
    case 'in': case 'notIn':
      return [{ ...fact, operator: OPERATORS[condition.op], value: condition.values }];
    case 'between':
      return [
        { ...fact, operator: 'greaterThanInclusive', value: condition.lo },
        { ...fact, operator: 'lessThanInclusive', value: condition.hi },
      ];
    case 'endsWith': case 'startsWith':
      return [{ ...fact, operator: condition.op, value: condition.value }];
    case 'expr':
      throw new Error('json-rules-engine has no expressions');
  }
}

function param(expr: Expr): unknown {
  if (expr.kind === 'lit') return expr.value;
  if (expr.kind === 'ref') return factOf(expr.path);
  throw new Error('json-rules-engine has no expressions');
}

/** Whether json-rules-engine can state this table at all (no function cells). */
export function jreCanExpress(spec: TableSpec): boolean {
  return !usesExpressions(spec);
}

export interface JreTable {
  engine: Engine;
  /** Runs the engine and returns the matched rows' outputs in row order. */
  solve(input: Record<string, unknown>): Promise<Record<string, unknown>[]>;
}

export function toJreTable(spec: TableSpec): JreTable {
  const engine = new Engine([], { allowUndefinedFacts: true, replaceFactsInEventParams: true });
  engine.addOperator<unknown, string>('endsWith', (a, b) => typeof a === 'string' && a.endsWith(b));
  engine.addOperator<unknown, string>('startsWith', (a, b) => typeof a === 'string' && a.startsWith(b));
  const stopAfterHit = spec.hitPolicy === 'first';
  spec.rows.forEach((row, index) => {
    const all = row.when.flatMap((condition, i) => leaves(condition, spec.inputs[i].field));
    const params: Record<string, unknown> = { row: index };
    row.then.forEach((value, i) => (params[`o${i}`] = param(value)));
    const rule: RuleProperties = {
      name: `row-${index}`,
      // Distinct priorities: evaluated one by one from the top, so a first-hit stop is exact.
      priority: spec.rows.length - index,
      conditions: { all },
      event: { type: 'row', params },
    };
    if (stopAfterHit) rule.onSuccess = () => void engine.stop();
    engine.addRule(rule);
  });
  const fields = spec.outputs.map((c) => c.field);
  return {
    engine,
    async solve(input) {
      const run = await engine.run(input);
      const hits = run.results
        .map((r) => r.event?.params ?? {})
        .sort((a, b) => (a.row as number) - (b.row as number));
      const chosen = stopAfterHit ? hits.slice(0, 1) : hits;
      return chosen.map((params) => {
        const output: Record<string, unknown> = {};
        fields.forEach((field, i) => setDotted(output, field, params[`o${i}`]));
        return output;
      });
    },
  };
}
