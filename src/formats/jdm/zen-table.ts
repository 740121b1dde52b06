// A JDM decision table node to and from the neutral TableSpec: the ZEN cells whose meaning a DecisionRules table
// states exactly (literals, comparisons, lists, closed intervals, `startsWith`/`endsWith` on `$`, input paths and
// the expression forms of table-spec.ts). Anything else is refused naming its row and column, never dropped.
import type { Condition, Expr, Scalar, TableSpec, Unsupported } from './table-spec.ts';
import { CannotConvertError } from './table-spec.ts';

export interface JdmNode {
  id: string;
  type: string;
  name: string;
  content?: unknown;
  position?: { x: number; y: number };
  [field: string]: unknown;
}
export interface JdmEdge {
  id: string;
  type?: string;
  sourceId: string;
  targetId: string;
  sourceHandle?: string;
  [field: string]: unknown;
}
export interface JdmDecision {
  nodes: JdmNode[];
  edges: JdmEdge[];
}

interface JdmField { id: string; name?: string; field?: string | null }
interface JdmTableContent {
  hitPolicy?: string;
  inputs: JdmField[];
  outputs: JdmField[];
  rules: Record<string, string>[];
  inputField?: string | null;
  outputPath?: string | null;
  executionMode?: string;
  passThrough?: boolean;
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
    const value = parseLiteral(compare[2]!);
    return value === undefined ? undefined : { op: COMPARISONS[compare[1]!]!, value };
  }
  const range = /^\[\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*\]$/.exec(text);
  if (range) return { op: 'between', lo: Number(range[1]), hi: Number(range[2]) };
  const notIn = /^not\s+in\s*\[(.*)\]$/s.exec(text);
  if (notIn) {
    const values = splitList(notIn[1]!).map(parseLiteral);
    return values.every((v) => v !== undefined) ? { op: 'notIn', values: values as Scalar[] } : undefined;
  }
  const textTest = /^(endsWith|startsWith)\(\s*\$\s*,\s*(.+)\)$/s.exec(text);
  if (textTest) {
    const value = parseLiteral(textTest[2]!);
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

/** The decision table node of a JDM graph that is exactly `input -> table -> output`, else what stops it. */
export function singleTableNode(jdm: JdmDecision, base: string): { node: JdmNode; path: string } {
  const at = (i: number) => `${base}.nodes[${i}]`;
  const tables = jdm.nodes.map((n, i) => ({ node: n, path: at(i) })).filter((n) => n.node.type === 'decisionTableNode');
  const others = jdm.nodes.map((n, i) => ({ node: n, path: at(i) })).filter((n) => !['inputNode', 'outputNode', 'decisionTableNode'].includes(n.node.type));
  const problems: Unsupported[] = others.map((o) => ({ path: `${o.path}.type`, reason: `a ${o.node.type} has no DecisionRules table equivalent; only an input -> decision table -> output graph converts` }));
  if (tables.length !== 1) problems.push({ path: `${base}.nodes`, reason: `holds ${tables.length} decision table nodes; a graph converts to a DecisionRules table when it holds exactly one` });
  const inputs = jdm.nodes.filter((n) => n.type === 'inputNode').length;
  const outputs = jdm.nodes.filter((n) => n.type === 'outputNode').length;
  if (inputs !== 1 || outputs !== 1) problems.push({ path: `${base}.nodes`, reason: `holds ${inputs} input and ${outputs} output nodes; exactly one of each converts` });
  if (problems.length === 0) {
    const table = tables[0]!.node;
    const wired = (from: string, to: string) => jdm.edges.some((e) => e.sourceId === from && e.targetId === to);
    const input = jdm.nodes.find((n) => n.type === 'inputNode')!;
    const output = jdm.nodes.find((n) => n.type === 'outputNode')!;
    if (jdm.edges.length !== 2 || !wired(input.id, table.id) || !wired(table.id, output.id)) {
      problems.push({ path: `${base}.edges`, reason: 'the edges must be exactly input -> table -> output' });
    }
  }
  if (problems.length > 0) throw new CannotConvertError(problems);
  return tables[0]!;
}

/** A JDM decision table node as a TableSpec. Throws CannotConvertError naming every cell it cannot express. */
export function fromJdmTable(node: JdmNode, name: string, path: string): TableSpec {
  const content = (node.content ?? {}) as JdmTableContent;
  const problems: Unsupported[] = [];
  const hitPolicy = content.hitPolicy === 'collect' ? 'collect' : 'first';
  if (content.hitPolicy !== undefined && content.hitPolicy !== 'first' && content.hitPolicy !== 'collect') {
    problems.push({ path: `${path}.content.hitPolicy`, reason: `hit policy ${JSON.stringify(content.hitPolicy)} is neither first nor collect` });
  }
  if (typeof content.inputField === 'string' && content.inputField !== '') problems.push({ path: `${path}.content.inputField`, reason: 'a table reading a part of its input (inputField) has no DecisionRules equivalent' });
  if (typeof content.outputPath === 'string' && content.outputPath !== '') problems.push({ path: `${path}.content.outputPath`, reason: 'a table writing under a path (outputPath) has no DecisionRules equivalent' });
  if (content.executionMode === 'loop') problems.push({ path: `${path}.content.executionMode`, reason: 'a table run once per array item (executionMode loop) has no DecisionRules equivalent' });
  if (content.passThrough === true) problems.push({ path: `${path}.content.passThrough`, reason: 'passThrough (the input copied into the output) has no DecisionRules table equivalent' });
  const inputsList = Array.isArray(content.inputs) ? content.inputs : [];
  const outputsList = Array.isArray(content.outputs) ? content.outputs : [];
  const inputs = inputsList.map((c, i) => {
    if (typeof c.field !== 'string' || !PATH.test(c.field.trim())) {
      problems.push({ path: `${path}.content.inputs[${i}].field`, reason: `input column "${c.name ?? c.id}" must test an input path (got ${JSON.stringify(c.field ?? null)}); columns of full expressions do not convert` });
    }
    return { field: String(c.field ?? '').trim(), name: c.name };
  });
  const outputs = outputsList.map((c, i) => {
    if (typeof c.field !== 'string' || !PATH.test(c.field.trim())) {
      problems.push({ path: `${path}.content.outputs[${i}].field`, reason: `output column "${c.name ?? c.id}" must write a dotted path (got ${JSON.stringify(c.field ?? null)})` });
    }
    return { field: String(c.field ?? '').trim(), name: c.name };
  });
  const rulesList = Array.isArray(content.rules) ? content.rules : [];
  const rows = rulesList.map((rule, r) => ({
    when: inputsList.map((column) => {
      const condition = parseZenCondition(rule[column.id]);
      if (!condition) problems.push({ path: `${path}.content.rules[${r}].${column.id}`, reason: `row ${r + 1}, column "${column.name ?? column.id}": unsupported ZEN cell ${JSON.stringify(rule[column.id])} (no exact DecisionRules condition)` });
      return condition ?? { op: 'any' as const };
    }),
    then: outputsList.map((column) => {
      const value = parseZenOutput(rule[column.id]);
      if (!value) problems.push({ path: `${path}.content.rules[${r}].${column.id}`, reason: `row ${r + 1}, output "${column.name ?? column.id}": unsupported ZEN expression ${JSON.stringify(rule[column.id] ?? '')} (only literals and input paths convert)` });
      return value ?? { kind: 'lit' as const, value: '' };
    }),
  }));
  if (problems.length > 0) throw new CannotConvertError(problems);
  return { name, hitPolicy, inputs, outputs, rows };
}

function literal(value: Scalar): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return String(value);
}

const INFIX: Partial<Record<string, string>> = {
  add: '+', sub: '-', mul: '*', div: '/', gt: '>', ge: '>=', lt: '<', le: '<=', eq: '==', and: 'and', or: 'or',
};

/** ZEN expression text; every infix operation bracketed so precedence never differs from the Verdict rendering. */
export function renderZenExpr(expr: Expr): string {
  if (expr.kind === 'ref') return expr.path;
  if (expr.kind === 'lit') return literal(expr.value);
  const args = expr.args.map(renderZenExpr);
  const infix = INFIX[expr.fn];
  if (infix) return `(${args[0]} ${infix} ${args[1]})`;
  switch (expr.fn) {
    case 'round2': return `round(${args[0]}, 2)`;
    case 'floor': return `floor(${args[0]})`;
    case 'abs': return `abs(${args[0]})`;
    case 'min': return `min([${args.join(', ')}])`;
    case 'max': return `max([${args.join(', ')}])`;
    case 'not': return `not(${args[0]})`;
    case 'if': return `(${args[0]} ? ${args[1]} : ${args[2]})`;
    case 'upper': return `upper(${args[0]})`;
    case 'len': return `len(${args[0]})`;
    // DecisionRules CONCAT turns every argument into text; ZEN `+` only joins strings.
    case 'concat': return `(${expr.args.map((a, i) => (a.kind === 'lit' && typeof a.value === 'string' ? args[i] : `string(${args[i]})`)).join(' + ')})`;
    case 'endsWith': return `endsWith(${args[0]}, ${args[1]})`;
    case 'startsWith': return `startsWith(${args[0]}, ${args[1]})`;
    default: throw new Error(`no ZEN rendering for ${expr.fn}`);
  }
}

const COMPARE: Record<string, string> = { ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' };

/** A ZEN unary test; `$` is the column's value. */
export function renderZenCondition(condition: Condition): string {
  switch (condition.op) {
    case 'any': return '';
    case 'eq': return literal(condition.value);
    case 'ne': case 'lt': case 'le': case 'gt': case 'ge': return `${COMPARE[condition.op]} ${literal(condition.value)}`;
    case 'in': return condition.values.map(literal).join(', ');
    case 'notIn': return `not in [${condition.values.map(literal).join(', ')}]`;
    case 'between': return `[${condition.lo}..${condition.hi}]`;
    case 'endsWith': return `endsWith($, ${literal(condition.value)})`;
    case 'startsWith': return `startsWith($, ${literal(condition.value)})`;
    case 'expr': {
      // In a unary cell a leading "(" may open an interval like (1..5): ZEN cannot parse `((a) or (b))`, so the
      // outermost brackets go (inner operations stay bracketed).
      const text = renderZenExpr(condition.expr);
      const infix = condition.expr.kind === 'call' && INFIX[condition.expr.fn] !== undefined;
      return infix ? text.slice(1, -1) : text;
    }
  }
}

/** The decision-table node alone (for flows that chain several tables). */
export function toJdmTableNode(spec: TableSpec, id: string, options: { passThrough?: boolean } = {}): JdmNode {
  const inputIds = spec.inputs.map((_, i) => `${id}-in-${i}`);
  const outputIds = spec.outputs.map((_, i) => `${id}-out-${i}`);
  return {
    id,
    type: 'decisionTableNode',
    name: spec.name,
    content: {
      hitPolicy: spec.hitPolicy,
      passThrough: options.passThrough ?? false,
      inputs: spec.inputs.map((c, i) => ({ id: inputIds[i], name: c.name ?? c.field, field: c.field })),
      outputs: spec.outputs.map((c, i) => ({ id: outputIds[i], name: c.name ?? c.field, field: c.field })),
      rules: spec.rows.map((row, r) => {
        const rule: Record<string, string> = { _id: `${id}-r${r}` };
        row.when.forEach((condition, i) => (rule[inputIds[i]!] = renderZenCondition(condition)));
        row.then.forEach((value, i) => (rule[outputIds[i]!] = renderZenExpr(value)));
        return rule;
      }),
    },
  };
}

export function edge(sourceId: string, targetId: string): JdmEdge {
  return { id: `${sourceId}->${targetId}`, type: 'edge', sourceId, targetId };
}

/** input -> table -> output, laid out left to right as the GoRules editor would place them. */
export function toJdmDecision(spec: TableSpec): JdmDecision {
  return {
    nodes: [
      { id: 'request', type: 'inputNode', name: 'Request', position: { x: 100, y: 100 } },
      { ...toJdmTableNode(spec, 'table'), position: { x: 400, y: 100 } },
      { id: 'response', type: 'outputNode', name: 'Response', position: { x: 700, y: 100 } },
    ],
    edges: [edge('request', 'table'), edge('table', 'response')],
  };
}
