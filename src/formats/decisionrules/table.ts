// A DecisionRules decision table to and from the neutral TableSpec (src/formats/jdm/table-spec.ts). Writing covers
// every TableSpec; reading covers the cells whose meaning a ZEN table states exactly: general operators on literal
// values, `anything`, simple results (literals and one `{input.path}`), columns bound to input paths. Everything
// else (function cells, ELSE, dates, calc columns, disabled rows, text results the output cast would turn into
// another type) is listed with its path and reason, never dropped.
import type { Condition, Expr, Scalar, TableSpec, Unsupported } from '../jdm/table-spec.ts';
import { CannotConvertError, setDotted } from '../jdm/table-spec.ts';

/** The strategy that gives a table's hit policy its meaning in Verdict. */
export function verdictStrategy(spec: Pick<TableSpec, 'hitPolicy'>): 'FIRST_MATCH' | 'STANDARD' {
  return spec.hitPolicy === 'first' ? 'FIRST_MATCH' : 'STANDARD';
}

function quote(text: string): string {
  if (text.includes('{') || text.includes('}')) {
    // Quoted strings interpolate {refs} in DecisionRules.
    throw new CannotConvertError([{ path: '', reason: `string literal ${JSON.stringify(text)} contains a brace, which DecisionRules would interpolate` }]);
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
      const suffix = expr.args[1]!;
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

/** A simple value's text is JSON-cast on output (rule-format §2.10): these strings would come back as another type. */
const CAST_AWAY = /^\s*(-?\d|true\b|false\b|null\b|[[{"])/;

function resultCell(expr: Expr): Record<string, unknown> {
  if (expr.kind === 'lit') {
    if (typeof expr.value === 'string' && CAST_AWAY.test(expr.value)) {
      throw new CannotConvertError([{ path: '', reason: `text result ${JSON.stringify(expr.value)} would be cast to another type by DecisionRules' simple values` }]);
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

/** A decision-table rule document, as a DecisionRules export would carry it (published, version 1 unless given). */
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
        scalarCondition: conditionCell(condition, spec.inputs[i]!.field),
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/** A cell's text as the literal DecisionRules compares it as: a plain number, a boolean, else text. */
function cellLiteral(text: string): Scalar {
  if (NUMERIC.test(text)) return Number(text);
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}

const REVERSE: Record<string, 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'> = { '=': 'eq', '<>': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };

function readCondition(stored: unknown, path: string, problems: Unsupported[]): Condition {
  const refuse = (reason: string): Condition => {
    problems.push({ path, reason });
    return { op: 'any' };
  };
  if (!isObject(stored)) return refuse('the cell has no condition');
  const operator = String(stored.operator ?? '');
  const type = stored.type ?? 'general';
  if (type !== 'general') return refuse(`a ${String(type)} condition (${operator}) has no exact ZEN unary test here`);
  const value = stored.value;
  const variable = (text: string) => /\{[^}]*\}/.test(text);
  if (operator === 'anything') return { op: 'any' };
  if (REVERSE[operator] !== undefined) {
    if (typeof value !== 'string') return refuse(`operator ${operator} needs a text value`);
    if (variable(value)) return refuse(`the value ${JSON.stringify(value)} reads a variable; only literal values convert`);
    if (value.trim() === '') return refuse(`an empty value with ${operator} (DecisionRules compares it with "") does not convert`);
    return { op: REVERSE[operator]!, value: cellLiteral(value) };
  }
  if (operator === 'IN' || operator === 'NOT IN') {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || variable(v) || v.trim() === '')) return refuse(`${operator} converts with a list of literal values only`);
    return { op: operator === 'IN' ? 'in' : 'notIn', values: (value as string[]).map(cellLiteral) };
  }
  if (operator === 'between') {
    if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'string' && NUMERIC.test(v))) return refuse('between converts with two numbers only');
    return { op: 'between', lo: Number(value[0]), hi: Number(value[1]) };
  }
  return refuse(`operator ${JSON.stringify(operator)} has no exact ZEN unary test here`);
}

function readResult(stored: unknown, path: string, problems: Unsupported[]): Expr {
  const refuse = (reason: string): Expr => {
    problems.push({ path, reason });
    return { kind: 'lit', value: '' };
  };
  if (!isObject(stored)) return refuse('the cell has no result');
  const type = stored.type ?? 'common';
  const text = stored.value;
  if (type === 'function') {
    const source = typeof stored.stringValue === 'string' ? stored.stringValue : typeof text === 'string' ? text : undefined;
    const single = source === undefined ? null : /^\s*\{([^{}]+)\}\s*$/.exec(source);
    if (single && PATH.test(single[1]!.trim())) return { kind: 'ref', path: single[1]!.trim() };
    return refuse(`the function ${JSON.stringify(source ?? text)} has no exact ZEN expression here (only literals and one {input.path} convert)`);
  }
  if (type !== 'common') return refuse(`a ${String(type)} result has no exact ZEN expression here`);
  if (typeof text !== 'string') return refuse('a simple result must be text');
  const single = /^\s*\{([^{}]+)\}\s*$/.exec(text);
  if (single && PATH.test(single[1]!.trim())) return { kind: 'ref', path: single[1]!.trim() };
  if (/\{[^}]*\}/.test(text)) return refuse(`the result ${JSON.stringify(text)} mixes text and variables`);
  // The output cast (rule-format §2.10): JSON text becomes its value; only scalars convert.
  let cast: unknown;
  try {
    cast = JSON.parse(text);
  } catch {
    cast = text;
  }
  if (cast === null || typeof cast === 'object') return refuse(`the result ${JSON.stringify(text)} is ${cast === null ? 'null' : 'an object or array'}; only numbers, booleans and text convert`);
  return { kind: 'lit', value: cast as Scalar };
}

/** The input path a condition column reads (both stored forms, rule-format §2.2). */
function conditionPath(column: Json): string | undefined {
  const condition = column.condition;
  if (!isObject(condition)) return undefined;
  if (typeof condition.inputVariable === 'string') return condition.inputVariable;
  const definition = condition.definition;
  if (isObject(definition) && typeof definition.content === 'string' && (definition.type === undefined || definition.type === 'INPUT_VARIABLE')) return definition.content;
  return undefined;
}

/** A decision-table document as a TableSpec with the given hit policy; CannotConvertError lists what does not convert. */
export function fromVerdictTable(document: Record<string, unknown>, hitPolicy: TableSpec['hitPolicy']): TableSpec {
  const problems: Unsupported[] = [];
  if (document.type !== 'decision-table') throw new CannotConvertError([{ path: 'type', reason: `a ${String(document.type)} has no JDM table equivalent; only decision tables convert` }]);
  const table = isObject(document.decisionTable) ? document.decisionTable : {};
  const columns = Array.isArray(table.columns) ? (table.columns as unknown[]).filter(isObject) : [];
  const inputColumns: { id: string; field: string; name?: string }[] = [];
  const outputColumns: { id: string; field: string; name?: string }[] = [];
  columns.forEach((column, i) => {
    const path = `decisionTable.columns[${i}]`;
    const id = String(column.columnId ?? '');
    if (column.type === 'input') {
      const field = conditionPath(column);
      if (field === undefined || !PATH.test(field)) problems.push({ path: `${path}.condition`, reason: 'a condition column converts when it reads an input path' });
      inputColumns.push({ id, field: field ?? '', name: isObject(column.condition) && typeof column.condition.name === 'string' ? column.condition.name : undefined });
    } else if (column.type === 'output') {
      const output = isObject(column.columnOutput) ? column.columnOutput : {};
      const field = typeof output.outputVariable === 'string' ? output.outputVariable : '';
      if (!PATH.test(field)) problems.push({ path: `${path}.columnOutput.outputVariable`, reason: 'a result column converts when it writes a dotted output path' });
      outputColumns.push({ id, field, name: typeof output.name === 'string' ? output.name : undefined });
    } else {
      problems.push({ path: `${path}.type`, reason: `a ${String(column.type)} column (calculation) has no JDM table equivalent` });
    }
  });
  const rows = (Array.isArray(table.rows) ? table.rows : []).map((row, r) => {
    const path = `decisionTable.rows[${r}]`;
    const cells = isObject(row) && Array.isArray(row.cells) ? (row.cells as unknown[]).filter(isObject) : [];
    if (isObject(row) && row.active === false) problems.push({ path: `${path}.active`, reason: 'an inactive row has no JDM equivalent (delete it or activate it before converting)' });
    const cellOf = (id: string) => cells.findIndex((c) => c.column === id);
    return {
      when: inputColumns.map((column) => {
        const index = cellOf(column.id);
        return readCondition(index < 0 ? { operator: 'anything', value: '' } : cells[index]!.scalarCondition, `${path}.cells[${index}].scalarCondition`, problems);
      }),
      then: outputColumns.map((column) => {
        const index = cellOf(column.id);
        return readResult(index < 0 ? undefined : cells[index]!.outputScalarValue, `${path}.cells[${index}].outputScalarValue`, problems);
      }),
    };
  });
  if (problems.length > 0) throw new CannotConvertError(problems);
  return {
    name: typeof document.name === 'string' ? document.name : 'table',
    hitPolicy,
    inputs: inputColumns.map(({ field, name }) => ({ field, ...(name !== undefined ? { name } : {}) })),
    outputs: outputColumns.map(({ field, name }) => ({ field, ...(name !== undefined ? { name } : {}) })),
    rows,
  };
}
