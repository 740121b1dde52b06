// Builds small decision-flow documents for tests, in the exported JSON shape (spec/rule-format.md §8.2).
// Every node gets an in-connector `<id>-in` (START has none) and the out-connectors its type has:
// `<id>-out`, `<id>-loop` / `<id>-end` for loops, `<id>-case<n>` per Switch case. An edge [from, to] connects the
// out-connector `from` to the in-connector of node `to`.

export interface NodeSpec {
  id: string;
  type: string;
  name?: string;
  version?: number;
  data?: Record<string, unknown>;
}

function connectorsOf(spec: NodeSpec): Record<string, unknown>[] {
  const connector = (id: string, type: string, subType = 'none') => ({ id, type, subType, maxConnections: -1 });
  const list = spec.type === 'START' ? [] : [connector(`${spec.id}-in`, 'in')];
  if (spec.type === 'FOREACH' || spec.type === 'BUSINESS_RULE') {
    list.push(connector(`${spec.id}-loop`, 'out', 'outgoing-loop'), connector(`${spec.id}-end`, 'out', 'out-end'));
  } else if (spec.type === 'IF_STATEMENT') {
    const cases = (spec.data?.cases ?? []) as { connectorId: string }[];
    for (const c of cases) list.push(connector(c.connectorId, 'out', 'out-inner'));
  } else if (spec.type !== 'END') {
    list.push(connector(`${spec.id}-out`, 'out'));
  }
  return list;
}

export function workflow(nodes: NodeSpec[], edges: [string, string][], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'workflow',
    name: 'Test flow',
    status: 'published',
    inputSchema: {},
    outputSchema: {},
    ruleAlias: 'test-flow',
    version: 1,
    workflowData: {
      nodes: nodes.map((spec) => ({
        id: spec.id,
        type: spec.type,
        version: spec.version ?? 1,
        ...(spec.name === undefined ? {} : { name: spec.name }),
        position: { x: 0, y: 0 },
        connectors: connectorsOf(spec),
        ...(spec.data === undefined ? {} : { data: spec.data }),
      })),
      connections: edges.map(([from, to], i) => ({ id: `c${i}`, source: from, target: `${to}-in`, type: 0 })),
    },
    ...extra,
  };
}

/** A flow expression as stored in nodes. */
export function expr(text: string): Record<string, unknown> {
  return { type: 1, outputScalarValue: { type: 'function', value: text, stringValue: text } };
}

export function assign(...pairs: [target: string, expression: string][]): Record<string, unknown> {
  return { mapping: pairs.map(([target, text]) => ({ source: { expression: expr(text) }, target: { path: target } })) };
}

export function declare(...pairs: [name: string, expression: string][]): Record<string, unknown> {
  return { variables: pairs.map(([name, text]) => ({ name, expression: expr(text) })) };
}

export function businessRule(ruleAlias: string, mapping: [target: string, source: string][], options: { strategy?: string; version?: number | null; baseId?: string } = {}): Record<string, unknown> {
  return {
    rule: { ruleAlias, version: options.version === undefined ? 1 : options.version, type: 'decision-table', ...(options.baseId ? { baseId: options.baseId } : {}) },
    strategy: options.strategy ?? 'STANDARD',
    evaluationType: 'STATIC',
    mapping: mapping.map(([target, source]) => ({ target: { path: target }, source: { path: source } })),
  };
}

export function switchCases(strategy: string, cases: { name: string; connectorId: string; conditions?: [variable: string, operator: string, value: unknown][]; isDefault?: boolean }[]): Record<string, unknown> {
  return {
    evaluationStrategy: strategy,
    cases: cases.map((c) =>
      c.isDefault
        ? { name: c.name, type: 'DEFAULT', connectorId: c.connectorId }
        : {
            name: c.name,
            type: 'CASE',
            connectorId: c.connectorId,
            conditions: (c.conditions ?? []).map(([variable, operator, value]) => ({
              variable,
              decisionNode: { type: 0, scalarCondition: { type: 'general', operator, value } },
            })),
          },
    ),
  };
}
