// Renders a TableSpec as a GoRules JDM decision (input -> decision table -> output) for @gorules/zen-engine.
import type { Condition, Expr, Scalar, TableSpec } from './table-spec.ts';

export type JdmNode = { id: string; type: string; name: string; content?: unknown };
export type JdmEdge = { id: string; type: 'edge'; sourceId: string; targetId: string };
export interface JdmDecision {
  nodes: JdmNode[];
  edges: JdmEdge[];
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
        row.when.forEach((condition, i) => (rule[inputIds[i]] = renderZenCondition(condition)));
        row.then.forEach((value, i) => (rule[outputIds[i]] = renderZenExpr(value)));
        return rule;
      }),
    },
  };
}

export function edge(sourceId: string, targetId: string): JdmEdge {
  return { id: `${sourceId}->${targetId}`, type: 'edge', sourceId, targetId };
}

export function toJdmDecision(spec: TableSpec): JdmDecision {
  return {
    nodes: [
      { id: 'request', type: 'inputNode', name: 'Request' },
      toJdmTableNode(spec, 'table'),
      { id: 'response', type: 'outputNode', name: 'Response' },
    ],
    edges: [edge('request', 'table'), edge('table', 'response')],
  };
}
