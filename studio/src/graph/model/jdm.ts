// Decision graphs (`decision-graph`: a GoRules JDM graph in `decisionGraph`, /work/brief/shape.md) as a flow graph
// for the flow canvas: a node per JDM node (its `content` as the node's data, its `position` as is), an in-port on
// every node but the input, an out-port on every node but the output, and one out-port per statement of a switch
// (the JDM edge names the statement in `sourceHandle`). Every JDM field the canvas does not edit is carried in
// `extra` and written back unchanged, so a graph from GoRules round-trips.
import type { RuleDocument } from '../../api/types.ts';
import { newId } from '../../flow/model/graph.ts';
import type { FlowGraph, GraphEdge, GraphNode, Point, Port } from '../../flow/model/graph.ts';
import { isRecord, pointOf, without } from '../../flow/model/format.ts';
import type { FlowFormat, NodeTypeInfo } from '../../flow/model/format.ts';

export const GRAPH_NODE_TYPES: readonly NodeTypeInfo[] = [
  { type: 'inputNode', label: 'Request', description: 'The graph input: the request data.', single: true },
  { type: 'decisionTableNode', label: 'Decision table', description: 'Rows of ZEN tests on its inputs; the first (or every) matching row answers.' },
  { type: 'expressionNode', label: 'Expression', description: 'Computes keys from ZEN expressions.' },
  { type: 'switchNode', label: 'Switch', description: 'Sends the run along the statements whose condition holds.' },
  { type: 'decisionNode', label: 'Decision', description: 'Solves another rule of this space by alias or id.' },
  { type: 'functionNode', label: 'Function', description: 'JavaScript run in the sandbox; answers an object.' },
  { type: 'outputNode', label: 'Response', description: 'The graph output: what reaches it is the answer.' },
  // Not offered: a custom node runs only where its host defines it; the canvas keeps one that was imported.
  { type: 'customNode', label: 'Custom', description: 'A node for a custom host; Verdict cannot run it.', hidden: true },
];

const NODE_FIELDS = ['id', 'type', 'name', 'position', 'content'];

/** The port id of a switch statement: unique in the graph even when two switches reuse statement ids. */
function statementPort(nodeId: string, statementId: string): string {
  return `${nodeId}:case:${statementId}`;
}

function statementsOf(content: unknown): Record<string, any>[] {
  return isRecord(content) && Array.isArray(content.statements) ? content.statements.filter(isRecord) : [];
}

/** The else of a switch: marked `isDefault` (GoRules' editor) or with an empty condition (which always holds). */
export function isElseStatement(statement: Record<string, any> | undefined): boolean {
  return statement !== undefined && (statement.isDefault === true || String(statement.condition ?? '').trim() === '');
}

function portsFor(id: string, type: string, content: unknown): Port[] {
  const ports: Port[] = [];
  if (type !== 'inputNode') ports.push({ id: `${id}:in`, direction: 'in', subType: 'none' });
  if (type === 'switchNode') {
    for (const s of statementsOf(content)) ports.push({ id: statementPort(id, String(s.id)), direction: 'out', subType: 'statement', extra: { handle: String(s.id) } });
  } else if (type !== 'outputNode') {
    ports.push({ id: `${id}:out`, direction: 'out', subType: 'none' });
  }
  return ports;
}

/** The base of new node names, as GoRules' editor names them: `decisionTable1`, `expression2`. */
const NAME_BASES: Record<string, string> = {
  inputNode: 'request', outputNode: 'response', decisionTableNode: 'decisionTable', expressionNode: 'expression',
  switchNode: 'switch', decisionNode: 'decision', functionNode: 'function',
};

function freeName(graph: FlowGraph, base: string, numbered: boolean): string {
  const taken = new Set(graph.nodes.map((n) => n.name));
  if (!numbered && !taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

/** The function node's starting source (GoRules' v2 form): answers its input unchanged. */
export const FUNCTION_TEMPLATE = 'export const handler = async (input) => {\n  return input;\n};\n';

function newContent(type: string): unknown {
  switch (type) {
    case 'decisionTableNode': {
      const input = { id: newId('uuid'), name: 'Input', field: '' };
      const output = { id: newId('uuid'), name: 'Output', field: 'output' };
      return {
        hitPolicy: 'first', inputs: [input], outputs: [output],
        rules: [{ _id: newId('uuid'), [input.id]: '', [output.id]: '' }],
      };
    }
    case 'expressionNode': return { expressions: [{ id: newId('uuid'), key: 'result', value: '' }] };
    case 'switchNode': return { hitPolicy: 'first', statements: [{ id: newId('uuid'), condition: '' }] };
    case 'decisionNode': return { key: '' };
    case 'functionNode': return { source: FUNCTION_TEMPLATE };
    default: return undefined;
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `$nodes.<from>` and `$nodes["<from>"]` in ZEN text rewritten to the new name. */
function renameInText(text: string, from: string, to: string): string {
  const dotted = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(to) ? `$nodes.${to}` : `$nodes[${JSON.stringify(to)}]`;
  return text
    .replace(new RegExp(`\\$nodes\\.${escape(from)}(?![A-Za-z0-9_$])`, 'g'), dotted)
    .replace(new RegExp(`\\$nodes\\[(["'])${escape(from)}\\1\\]`, 'g'), dotted);
}

function renameIn(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.includes('$nodes') ? renameInText(value, from, to) : value;
  if (Array.isArray(value)) return value.map((v) => renameIn(v, from, to));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameIn(v, from, to)]));
  return value;
}

export const decisionGraphFormat: FlowFormat = {
  ruleType: 'decision-graph',
  label: 'Decision graph',
  startType: 'inputNode',
  nodeTypes: GRAPH_NODE_TYPES,
  reservedNames: [],
  // JDM names are labels (GoRules allows any text); only `$nodes` reads them, which takes any name in brackets.
  nameSyntax: (name) => (name.trim() === '' ? 'A node needs a name.' : undefined),

  fromDocument(doc) {
    const body = isRecord(doc.decisionGraph) ? doc.decisionGraph : {};
    const rawNodes: unknown[] = Array.isArray(body.nodes) ? body.nodes : [];
    const nodes: GraphNode[] = rawNodes.filter(isRecord).map((raw, i) => {
      const id = typeof raw.id === 'string' ? raw.id : `node-${i}`;
      const type = String(raw.type);
      return {
        id, type,
        ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
        position: pointOf(raw.position?.x, raw.position?.y),
        data: raw.content,
        ports: portsFor(id, type, raw.content),
        extra: without(raw, NODE_FIELDS),
      };
    });
    const ids = new Set(nodes.map((n) => n.id));
    const edges: GraphEdge[] = [];
    const unplaced: unknown[] = [];
    for (const raw of Array.isArray(body.edges) ? body.edges : []) {
      const source = isRecord(raw) && ids.has(raw.sourceId) ? nodes.find((n) => n.id === raw.sourceId)! : undefined;
      const target = isRecord(raw) && ids.has(raw.targetId) ? nodes.find((n) => n.id === raw.targetId)! : undefined;
      const sourcePort = source?.type === 'switchNode'
        ? source.ports.find((p) => p.extra?.handle === raw.sourceHandle)
        : source?.ports.find((p) => p.direction === 'out');
      const targetPort = target?.ports.find((p) => p.direction === 'in');
      if (!source || !target || !sourcePort || !targetPort) {
        unplaced.push(raw);
        continue;
      }
      edges.push({
        id: typeof raw.id === 'string' ? raw.id : newId('uuid'),
        source: source.id, sourcePort: sourcePort.id, target: target.id, targetPort: targetPort.id,
        extra: without(raw, source.type === 'switchNode' ? ['id', 'sourceId', 'targetId', 'sourceHandle'] : ['id', 'sourceId', 'targetId']),
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
      ...(n.data !== undefined ? { content: n.data } : {}),
    }));
    const edges = [
      ...graph.edges.map((e) => {
        const port = graph.nodes.find((n) => n.id === e.source)?.ports.find((p) => p.id === e.sourcePort);
        const handle = port?.extra?.handle;
        return { type: 'edge', ...e.extra, id: e.id, sourceId: e.source, targetId: e.target, ...(typeof handle === 'string' ? { sourceHandle: handle } : {}) };
      }),
      ...(graph.unplaced ?? []),
    ];
    return { ...doc, decisionGraph: { ...(isRecord(doc.decisionGraph) ? doc.decisionGraph : {}), nodes, edges } };
  },

  createNode(graph, type, position: Point) {
    const id = newId('uuid');
    const content = newContent(type);
    const base = NAME_BASES[type] ?? type;
    return {
      id, type,
      name: freeName(graph, base, type !== 'inputNode' && type !== 'outputNode'),
      position,
      data: content,
      ports: portsFor(id, type, content),
    };
  },

  renameReferences(data, from, to) {
    return renameIn(data, from, to);
  },

  portLabel(node, port) {
    if (port.direction === 'in') return 'in';
    if (port.subType !== 'statement') return 'out';
    const statements = statementsOf(node.data);
    const at = statements.findIndex((s) => String(s.id) === port.extra?.handle);
    return isElseStatement(statements[at]) ? `case ${at + 1} (else)` : `case ${at + 1}`;
  },

  nodeOfProblem(doc, path) {
    const nodes = doc.decisionGraph?.nodes;
    const node = /^decisionGraph\.nodes\[(\d+)\]/.exec(path);
    if (node) {
      const raw = Array.isArray(nodes) ? nodes[Number(node[1])] : undefined;
      return typeof raw?.id === 'string' ? raw.id : undefined;
    }
    const edge = /^decisionGraph\.edges\[(\d+)\]/.exec(path);
    if (edge) {
      const raw = doc.decisionGraph?.edges?.[Number(edge[1])];
      return typeof raw?.sourceId === 'string' && Array.isArray(nodes) && nodes.some((n: any) => n?.id === raw.sourceId) ? raw.sourceId : undefined;
    }
    return undefined;
  },
};

/** A switch with one more statement (and its out-port), before a trailing else (empty condition) when there is one. */
export function addStatement(graph: FlowGraph, nodeId: string): FlowGraph {
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      if (n.id !== nodeId || n.type !== 'switchNode') return n;
      const statements = statementsOf(n.data);
      const statement = { id: newId('uuid'), condition: '' };
      const at = isElseStatement(statements[statements.length - 1]) ? statements.length - 1 : statements.length;
      const next = [...statements.slice(0, at), statement, ...statements.slice(at)];
      const data = { ...(isRecord(n.data) ? n.data : {}), statements: next };
      return { ...n, data, ports: portsFor(n.id, n.type, data) };
    }),
  };
}

/** A switch without the statement `statementId`, its out-port and the connections from it. */
export function removeStatement(graph: FlowGraph, nodeId: string, statementId: string): FlowGraph {
  const port = statementPort(nodeId, statementId);
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      if (n.id !== nodeId || n.type !== 'switchNode') return n;
      const data = { ...(isRecord(n.data) ? n.data : {}), statements: statementsOf(n.data).filter((s) => String(s.id) !== statementId) };
      return { ...n, data, ports: portsFor(n.id, n.type, data) };
    }),
    edges: graph.edges.filter((e) => e.sourcePort !== port),
  };
}

/** A new decision graph: request connected to response, which the server accepts as it is. */
export function blankDecisionGraph(name: string): RuleDocument {
  const empty: FlowGraph = { nodes: [], edges: [] };
  const input = decisionGraphFormat.createNode(empty, 'inputNode', { x: 0, y: 120 });
  const output = decisionGraphFormat.createNode({ nodes: [input], edges: [] }, 'outputNode', { x: 480, y: 120 });
  const graph: FlowGraph = {
    nodes: [input, output],
    edges: [{ id: newId('uuid'), source: input.id, sourcePort: `${input.id}:out`, target: output.id, targetPort: `${output.id}:in` }],
  };
  return decisionGraphFormat.toDocument(
    { type: 'decision-graph', name, status: 'pending', inputSchema: {}, outputSchema: {}, decisionGraph: { nodes: [], edges: [] } },
    graph,
  );
}

/**
 * Input paths a graph's tables test (their inputs' fields that are plain paths: `customer.tier`), for the bench's
 * form: a graph's input model is often empty, while its tables say what they read.
 */
export function tableInputPaths(doc: RuleDocument): string[] {
  const nodes: unknown[] = Array.isArray(doc.decisionGraph?.nodes) ? doc.decisionGraph.nodes : [];
  const paths = nodes.filter(isRecord).filter((n) => n.type === 'decisionTableNode').flatMap((n) =>
    (isRecord(n.content) && Array.isArray(n.content.inputs) ? n.content.inputs : []).map((i: any) => (typeof i?.field === 'string' ? i.field.trim() : '')));
  return [...new Set(paths.filter((p) => /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(p) && p !== '$'))];
}
