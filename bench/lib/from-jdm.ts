// Reads a GoRules JDM decision table into a TableSpec, so a ZEN table (zen's own 8k test decision) can be solved
// by Verdict. Covers the unary-test forms ZEN's tables use; anything else fails naming the row and column.
import type { Condition, Expr, Scalar, TableSpec } from './table-spec.ts';

interface JdmField { id: string; name?: string; field?: string }
interface JdmTableContent {
  hitPolicy?: string;
  inputs: JdmField[];
  outputs: JdmField[];
  rules: Record<string, string>[];
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const SINGLE_QUOTED = /^'(?:[^'\\]|\\.)*'$/s;
const DOUBLE_QUOTED = /^"(?:[^"\\]|\\.)*"$/s;
const PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

function parseLiteral(text: string): Scalar | undefined {
  const t = text.trim();
  if (NUMBER.test(t)) return Number(t);
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (SINGLE_QUOTED.test(t) || DOUBLE_QUOTED.test(t)) return t.slice(1, -1).replace(/\\(.)/g, '$1');
  return undefined;
}

/** Splits `'a', 'b, c', 3` on top-level commas (not inside quotes or brackets). */
function splitList(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

const COMPARISONS: Record<string, 'ne' | 'lt' | 'le' | 'gt' | 'ge'> = { '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };

/** One ZEN unary test (`$` = the column value) as a neutral condition, or undefined when not supported. */
export function parseZenCondition(cell: string | undefined): Condition | undefined {
  const text = (cell ?? '').trim();
  if (text === '' || text === '-') return { op: 'any' };
  const compare = /^(!=|<=|>=|<|>)\s*(.+)$/.exec(text);
  if (compare) {
    const value = parseLiteral(compare[2]);
    return value === undefined ? undefined : { op: COMPARISONS[compare[1]], value };
  }
  const range = /^\[\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*\]$/.exec(text);
  if (range) return { op: 'between', lo: Number(range[1]), hi: Number(range[2]) };
  const notIn = /^not\s+in\s*\[(.*)\]$/s.exec(text);
  if (notIn) {
    const values = splitList(notIn[1]).map(parseLiteral);
    return values.every((v) => v !== undefined) ? { op: 'notIn', values: values as Scalar[] } : undefined;
  }
  const textTest = /^(endsWith|startsWith)\(\s*\$\s*,\s*(.+)\)$/s.exec(text);
  if (textTest) {
    const value = parseLiteral(textTest[2]);
    return typeof value === 'string' ? { op: textTest[1] as 'endsWith' | 'startsWith', value } : undefined;
  }
  const items = splitList(text);
  const values = items.map(parseLiteral);
  if (values.some((v) => v === undefined)) return undefined;
  if (values.length === 1) return { op: 'eq', value: values[0] as Scalar };
  return { op: 'in', values: values as Scalar[] };
}

/** One ZEN output expression: a literal or an input path. */
export function parseZenOutput(cell: string | undefined): Expr | undefined {
  const text = (cell ?? '').trim();
  const value = parseLiteral(text);
  if (value !== undefined) return { kind: 'lit', value };
  if (PATH.test(text) && text !== 'null') return { kind: 'ref', path: text };
  return undefined;
}

function tableContent(jdm: unknown): JdmTableContent {
  const nodes = (jdm as { nodes?: { type?: string; content?: unknown }[] }).nodes ?? [];
  const tables = nodes.filter((n) => n.type === 'decisionTableNode');
  if (tables.length !== 1) throw new Error(`expected one decision table node, found ${tables.length}`);
  return tables[0].content as JdmTableContent;
}

/** The JDM's single decision table as a TableSpec. Throws naming the first cell it cannot express. */
export function fromJdmTable(jdm: unknown, name: string): TableSpec {
  const content = tableContent(jdm);
  const hitPolicy = content.hitPolicy === 'collect' ? 'collect' : 'first';
  const fieldOf = (c: JdmField, kind: string): string => {
    if (!c.field) throw new Error(`${kind} column "${c.name ?? c.id}" has no field`);
    return c.field;
  };
  const inputs = content.inputs.map((c) => ({ field: fieldOf(c, 'input'), name: c.name }));
  const outputs = content.outputs.map((c) => ({ field: fieldOf(c, 'output'), name: c.name }));
  const rows = content.rules.map((rule, r) => ({
    when: content.inputs.map((column) => {
      const condition = parseZenCondition(rule[column.id]);
      if (!condition) throw new Error(`row ${r + 1}, column "${column.name ?? column.id}": unsupported ZEN cell ${JSON.stringify(rule[column.id])}`);
      return condition;
    }),
    then: content.outputs.map((column) => {
      const value = parseZenOutput(rule[column.id]);
      if (!value) throw new Error(`row ${r + 1}, output "${column.name ?? column.id}": unsupported ZEN expression ${JSON.stringify(rule[column.id])}`);
      return value;
    }),
  }));
  return { name, hitPolicy, inputs, outputs, rows };
}
