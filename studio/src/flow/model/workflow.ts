// Decision flows (`workflow`, spec/rule-format.md §8.2) as a graph: a node per `workflowData.nodes` entry, its
// connectors as ports, a `connections` entry per edge. The node types are the ones the engine runs
// (src/rules/workflow.ts WORKFLOW_NODE_TYPES); each new node gets the connectors and data DecisionRules
// gives it, so a flow made here exports to DecisionRules unchanged.
import type { RuleDocument } from '../../api/types.ts';
import { expressionText } from '../../designer/model/cells.ts';
import { newId, nodeById, uniqueName } from './graph.ts';
import type { FlowGraph, GraphEdge, GraphNode, Port } from './graph.ts';
import { isRecord, pointOf, without } from './format.ts';
import type { FlowFormat, NodeTypeInfo } from './format.ts';

export const WORKFLOW_NODE_TYPES: readonly NodeTypeInfo[] = [
  { type: 'START', label: 'Start', description: 'Where the flow begins; {input} is the request data.', single: true },
  { type: 'BUSINESS_RULE', label: 'Business rule', description: 'Solves another rule with inputs mapped from the flow; {name.output} is its result.' },
  { type: 'DATA_MANIPULATION', label: 'Assign', description: 'Writes expression values to output.…, declared or free variables.' },
  { type: 'VARIABLES', label: 'Declare', description: 'Declares variables {name.variable} with initial values.' },
  { type: 'IF_STATEMENT', label: 'Switch', description: 'Sends the run on along the cases whose conditions hold.' },
  { type: 'FOREACH', label: 'For each', description: 'Runs the nodes after "each item" once per element of a list.' },
  { type: 'ARRAY_APPEND', label: 'Append', description: 'Appends values to an array variable.' },
  { type: 'HTTP_CLIENT', label: 'REST API client', description: 'Calls an HTTP endpoint; {name.data} is the response.' },
  { type: 'END', label: 'End', description: 'Marks where a branch ends.' },
];

const NODE_FIELDS = ['id', 'type', 'name', 'position', 'data', 'connectors'];

/** A flow expression as stored: `{"type": 1, "outputScalarValue": {"type": "function", …}}`. */
export function storedExpression(text: string): Record<string, unknown> {
  return { type: 1, outputScalarValue: { type: 'function', value: text, stringValue: text } };
}

/** The text of a stored flow expression (its stringValue, else its AST printed). */
export function expressionTextOf(stored: unknown): string {
  return expressionText(isRecord(stored) && isRecord(stored.outputScalarValue) ? stored.outputScalarValue : undefined);
}

function port(direction: 'in' | 'out', subType = 'none'): Port {
  // DecisionRules' connector fields, kept so an exported flow opens there as it opens here.
  return { id: newId('uuid'), direction, subType, extra: { maxConnections: -1, maxCount: 1, minCount: 1 } };
}

function newNodeData(type: string, ports: Port[]): unknown {
  switch (type) {
    case 'VARIABLES': return { variables: [] };
    case 'DATA_MANIPULATION': return { mapping: [] };
    case 'FOREACH': return { listPath: '' };
    case 'BUSINESS_RULE': return { rule: {}, strategy: 'STANDARD', mapping: [], evaluationType: 'STATIC' };
    case 'IF_STATEMENT': {
      const [caseOut, defaultOut] = ports.filter((p) => p.direction === 'out');
      return {
        evaluationStrategy: 'ALL_WINNING',
        cases: [
          { name: 'Case 1', type: 'CASE', connectorId: caseOut!.id, conditions: [] },
          { name: 'Default', type: 'DEFAULT', connectorId: defaultOut!.id },
        ],
      };
    }
    case 'ARRAY_APPEND': return { values: [], target: { path: '' } };
    case 'HTTP_CLIENT': return { url: '', method: 'GET', requestName: '', body: '', bodyFormat: 'json', headers: [], connectionReference: null };
    default: return undefined;
  }
}

function newPorts(type: string): Port[] {
  switch (type) {
    case 'START': return [port('out')];
    case 'END': return [port('in')];
    case 'FOREACH':
    case 'BUSINESS_RULE': return [port('in'), port('out', 'outgoing-loop'), port('out', 'out-end')];
    case 'IF_STATEMENT': return [port('in'), port('out', 'out-inner'), port('out', 'out-inner')];
    default: return [port('in'), port('out')];
  }
}

const NAME_BASES: Record<string, string> = {
  END: 'end', VARIABLES: 'declare', DATA_MANIPULATION: 'assign', FOREACH: 'foreach', BUSINESS_RULE: 'rule',
  IF_STATEMENT: 'switch', ARRAY_APPEND: 'arrayAppend', HTTP_CLIENT: 'api',
};

/** A Switch with one more case before Default (its own out-connector). */
export function addSwitchCase(graph: FlowGraph, nodeId: string): FlowGraph {
  const node = nodeById(graph, nodeId);
  if (!node || node.type !== 'IF_STATEMENT') return graph;
  const out = port('out', 'out-inner');
  const cases: any[] = Array.isArray(node.data?.cases) ? [...node.data.cases] : [];
  const names = new Set(cases.map((c) => c?.name));
  let n = cases.filter((c) => c?.type !== 'DEFAULT').length + 1;
  while (names.has(`Case ${n}`)) n++;
  const at = cases.findIndex((c) => c?.type === 'DEFAULT');
  cases.splice(at < 0 ? cases.length : at, 0, { name: `Case ${n}`, type: 'CASE', connectorId: out.id, conditions: [] });
  return { ...graph, nodes: graph.nodes.map((x) => (x.id === nodeId ? { ...x, ports: [...x.ports, out], data: { ...x.data, cases } } : x)) };
}

/** The Switch without the case firing `connectorId`, its connector and the connections from it. */
export function removeSwitchCase(graph: FlowGraph, nodeId: string, connectorId: string): FlowGraph {
  const node = nodeById(graph, nodeId);
  if (!node || node.type !== 'IF_STATEMENT') return graph;
  const cases = (node.data?.cases ?? []).filter((c: any) => c?.connectorId !== connectorId);
  return {
    ...graph,
    nodes: graph.nodes.map((x) => (x.id === nodeId ? { ...x, ports: x.ports.filter((p) => p.id !== connectorId), data: { ...x.data, cases } } : x)),
    edges: graph.edges.filter((e) => e.sourcePort !== connectorId),
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rewrites `from` as the first segment of paths (`from`, `from.output…`) and of `{…}` references in expressions. */
function renameIn(value: unknown, key: string | undefined, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameIn(item, undefined, from, to));
  if (isRecord(value)) {
    // A stored AST keeps the old text; the editor writes the text form back, so the AST is dropped with the rename.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = renameIn(v, k, from, to);
    if (value.type === 'function' && typeof out.stringValue === 'string' && out.stringValue !== value.stringValue) out.value = out.stringValue;
    return out;
  }
  if (typeof value !== 'string') return value;
  if (key === 'path' || key === 'listPath' || key === 'variable') {
    return value === from || value.startsWith(`${from}.`) || value.startsWith(`${from}[`) ? to + value.slice(from.length) : value;
  }
  if (key === 'stringValue' || key === 'value') return value.replace(new RegExp(`\\{\\s*${escape(from)}(?=[.\\[\\s}])`, 'g'), `{${to}`);
  return value;
}

export const workflowFormat: FlowFormat = {
  ruleType: 'workflow',
  label: 'Decision flow',
  startType: 'START',
  nodeTypes: WORKFLOW_NODE_TYPES,
  reservedNames: ['input', 'output'],

  fromDocument(doc) {
    const data = isRecord(doc.workflowData) ? doc.workflowData : {};
    const rawNodes: unknown[] = Array.isArray(data.nodes) ? data.nodes : [];
    const nodes: GraphNode[] = rawNodes.filter(isRecord).map((raw, i) => ({
      id: typeof raw.id === 'string' ? raw.id : `node-${i}`,
      type: String(raw.type),
      ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
      position: pointOf(raw.position?.x, raw.position?.y),
      data: raw.data,
      ports: (Array.isArray(raw.connectors) ? raw.connectors : []).filter(isRecord).map((c: Record<string, any>) => ({
        id: String(c.id),
        direction: c.type === 'in' ? 'in' : 'out',
        subType: typeof c.subType === 'string' ? c.subType : 'none',
        extra: without(c, ['id', 'type', 'subType']),
      })),
      extra: without(raw, NODE_FIELDS),
    }));
    const byPort = new Map(nodes.flatMap((n) => n.ports.map((p) => [p.id, { node: n, port: p }] as const)));
    const edges: GraphEdge[] = [];
    const unplaced: unknown[] = [];
    for (const raw of Array.isArray(data.connections) ? data.connections : []) {
      const source = isRecord(raw) ? byPort.get(raw.source) : undefined;
      const target = isRecord(raw) ? byPort.get(raw.target) : undefined;
      if (!source || !target) {
        unplaced.push(raw);
        continue;
      }
      edges.push({
        id: typeof raw.id === 'string' ? raw.id : newId('uuid'),
        source: source.node.id, sourcePort: source.port.id, target: target.node.id, targetPort: target.port.id,
        extra: without(raw, ['id', 'source', 'target']),
      });
    }
    return { nodes, edges, ...(unplaced.length > 0 ? { unplaced } : {}) };
  },

  toDocument(doc, graph) {
    const nodes = graph.nodes.map((n) => ({
      ...n.extra,
      id: n.id,
      type: n.type,
      ...(n.name !== undefined ? { name: n.name } : {}),
      ...(n.position ? { position: { x: n.position.x, y: n.position.y } } : {}),
      ...(n.data !== undefined ? { data: n.data } : {}),
      connectors: n.ports.map((p) => ({ ...p.extra, id: p.id, type: p.direction, subType: p.subType })),
    }));
    const connections = [
      ...graph.edges.map((e) => ({ type: 0, ...e.extra, id: e.id, source: e.sourcePort, target: e.targetPort })),
      ...(graph.unplaced ?? []),
    ];
    return { ...doc, workflowData: { ...(isRecord(doc.workflowData) ? doc.workflowData : {}), nodes, connections } };
  },

  createNode(graph, type, position) {
    const ports = newPorts(type);
    const base = NAME_BASES[type];
    const data = newNodeData(type, ports);
    return {
      id: newId('node'),
      type,
      ...(base ? { name: uniqueName(graph, base) } : {}),
      position,
      ...(data !== undefined ? { data } : { data: undefined }),
      ports,
      extra: { version: 1 },
    };
  },

  renameReferences(data, from, to) {
    return renameIn(data, undefined, from, to);
  },

  portLabel(node, p) {
    if (p.direction === 'in') return 'in';
    switch (p.subType) {
      case 'outgoing-loop': return 'each item';
      case 'out-end': return 'after';
      case 'out-inner': {
        const match = (node.data?.cases ?? []).find((c: any) => c?.connectorId === p.id);
        return typeof match?.name === 'string' && match.name !== '' ? match.name : 'case';
      }
      default: return 'out';
    }
  },

  nodeOfProblem(doc, path) {
    const nodes = doc.workflowData?.nodes;
    const node = /^workflowData\.nodes\[(\d+)\]/.exec(path);
    if (node) {
      const raw = Array.isArray(nodes) ? nodes[Number(node[1])] : undefined;
      return typeof raw?.id === 'string' ? raw.id : undefined;
    }
    const connection = /^workflowData\.connections\[(\d+)\]/.exec(path);
    if (connection && Array.isArray(nodes)) {
      const raw = doc.workflowData?.connections?.[Number(connection[1])];
      const owner = nodes.find((n: any) => Array.isArray(n?.connectors) && n.connectors.some((c: any) => c?.id === raw?.source));
      return typeof owner?.id === 'string' ? owner.id : undefined;
    }
    return undefined;
  },
};

/** A new decision flow: its START node alone (the one node the server requires). */
export function blankWorkflow(name: string): RuleDocument {
  const empty: FlowGraph = { nodes: [], edges: [] };
  const start = workflowFormat.createNode(empty, 'START', { x: 0, y: 120 });
  return workflowFormat.toDocument({
    type: 'workflow',
    name,
    status: 'pending',
    inputSchema: {},
    outputSchema: {},
    workflowData: { nodes: [], connections: [] },
  }, { nodes: [start], edges: [] });
}
