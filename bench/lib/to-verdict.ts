// Renders a TableSpec as a Verdict (DecisionRules-format) decision table, and expressions as function text.
import type { Condition, Expr, Scalar, TableSpec } from './table-spec.ts';
import { setDotted } from './table-spec.ts';

/** The strategy that gives a table's hit policy its meaning in Verdict. */
export function verdictStrategy(spec: TableSpec): 'FIRST_MATCH' | 'STANDARD' {
  return spec.hitPolicy === 'first' ? 'FIRST_MATCH' : 'STANDARD';
}

function quote(text: string): string {
  if (text.includes('{') || text.includes('}')) {
    // Quoted strings interpolate {refs} in DecisionRules; benchmark literals never need braces.
    throw new Error(`string literal ${JSON.stringify(text)} contains a brace, which DecisionRules would interpolate`);
  }
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function literal(value: Scalar): string {
  if (typeof value === 'string') return quote(value);
  return String(value);
}

const INFIX: Partial<Record<string, string>> = { add: '+', sub: '-', mul: '*', div: '/' };
const NAMED: Partial<Record<string, string>> = {
  gt: 'GT', ge: 'GTE', lt: 'LT', le: 'LTE', eq: 'EQ', and: 'AND', or: 'OR', not: 'NOT', if: 'IF',
  min: 'MIN', max: 'MAX', floor: 'FLOOR', abs: 'ABS', upper: 'UPPER_CASE', concat: 'CONCAT', len: 'LEN',
};

/** DecisionRules function text. Infix operators are always bracketed: the product groups chains from the right. */
export function renderVerdictExpr(expr: Expr): string {
  if (expr.kind === 'ref') return `{${expr.path}}`;
  if (expr.kind === 'lit') return literal(expr.value);
  const args = expr.args.map(renderVerdictExpr);
  const infix = INFIX[expr.fn];
  if (infix) return `(${args[0]} ${infix} ${args[1]})`;
  switch (expr.fn) {
    case 'round2':
      return `ROUND(${args[0]}, 2)`;
    case 'endsWith':
    case 'startsWith': {
      const suffix = expr.args[1];
      if (suffix.kind !== 'lit' || typeof suffix.value !== 'string') throw new Error(`${expr.fn} needs a literal text`);
      const side = expr.fn === 'endsWith' ? 'RIGHT' : 'LEFT';
      return `EQ(${side}(${args[0]}, ${suffix.value.length}), ${args[1]})`;
    }
    default: {
      const name = NAMED[expr.fn];
      if (!name) throw new Error(`no DecisionRules function for ${expr.fn}`);
      return `${name}(${args.join(', ')})`;
    }
  }
}

const OPERATORS: Record<string, string> = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' };

function conditionCell(condition: Condition, field: string): Record<string, unknown> {
  switch (condition.op) {
    case 'any':
      return { operator: 'anything', value: '', type: 'general' };
    case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge':
      return { operator: OPERATORS[condition.op], value: String(condition.value), type: 'general' };
    case 'in':
      return { operator: 'IN', value: condition.values.map(String), type: 'general' };
    case 'notIn':
      return { operator: 'NOT IN', value: condition.values.map(String), type: 'general' };
    case 'between':
      return { operator: 'between', value: [String(condition.lo), String(condition.hi)], type: 'general' };
    case 'endsWith':
    case 'startsWith': {
      const text = renderVerdictExpr({ kind: 'call', fn: condition.op, args: [{ kind: 'ref', path: field }, { kind: 'lit', value: condition.value }] });
      return { operator: 'function', type: 'function', value: text, stringValue: text };
    }
    case 'expr': {
      const text = renderVerdictExpr(condition.expr);
      return { operator: 'function', type: 'function', value: text, stringValue: text };
    }
  }
}

function resultCell(expr: Expr): Record<string, unknown> {
  if (expr.kind === 'lit') {
    if (typeof expr.value === 'string' && /^\s*(-?\d|true\b|false\b|null\b|[[{"])/.test(expr.value)) {
      // A simple value is JSON-cast on output; such a string would come back as a number/boolean/object.
      throw new Error(`text result ${JSON.stringify(expr.value)} would be cast by the simple-value rules`);
    }
    return { type: 'common', value: String(expr.value) };
  }
  const text = renderVerdictExpr(expr);
  return { type: 'function', value: text, stringValue: text };
}

function schemaOf(fields: readonly string[]): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  for (const field of fields) setDotted(schema, field, {});
  return schema;
}

/** A published decision-table rule document, as a DecisionRules export would carry it. */
export function toVerdictTable(spec: TableSpec, ids: { ruleId?: string; ruleAlias?: string } = {}): Record<string, unknown> {
  const inputIds = spec.inputs.map((_, i) => `in-${i}`);
  const outputIds = spec.outputs.map((_, i) => `out-${i}`);
  const columns = [
    ...spec.inputs.map((column, i) => ({
      columnId: inputIds[i],
      type: 'input',
      alias: `col-in-${i}`,
      condition: { type: 'simple', name: column.name ?? column.field, definition: { content: column.field, type: 'INPUT_VARIABLE', valid: true } },
    })),
    ...spec.outputs.map((column, i) => ({
      columnId: outputIds[i],
      type: 'output',
      alias: `col-out-${i}`,
      columnOutput: { type: 'simple', name: column.name ?? column.field, outputVariable: column.field },
    })),
  ];
  const rows = spec.rows.map((row) => ({
    active: true,
    cells: [
      ...row.when.map((condition, i) => ({
        column: inputIds[i],
        type: 'input',
        scalarCondition: conditionCell(condition, spec.inputs[i].field),
      })),
      ...row.then.map((value, i) => ({ column: outputIds[i], type: 'output', outputScalarValue: resultCell(value) })),
    ],
  }));
  return {
    type: 'decision-table',
    name: spec.name,
    status: 'published',
    version: 1,
    ...(ids.ruleId ? { ruleId: ids.ruleId, baseId: ids.ruleId } : {}),
    ...(ids.ruleAlias ? { ruleAlias: ids.ruleAlias } : {}),
    inputSchema: schemaOf(spec.inputs.map((c) => c.field)),
    outputSchema: schemaOf(spec.outputs.map((c) => c.field)),
    userVariables: [],
    decisionTable: { columns, rows },
  };
}
