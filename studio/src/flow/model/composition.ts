// Rule flows (`composition`, spec/rule-format.md §8.1) as a graph. The document holds the flow twice: `dataTree`
// (what the engine solves: start, rule nodes and end, a node under each of its parents) and
// `visualEditorData.drawflow` (the layout: every node once, with its position and connections). The graph is read
// from the tree, positions, ids and the connections outside the tree from the drawflow; writing builds both back.
// A node not connected to the start cannot be in the tree, so it (with its rule, mapping and connections) is kept
// in the drawflow only, nothing is lost, and the designer reports it.
import type { RuleDocument } from '../../api/types.ts';
import { nodeById, uniqueName } from './graph.ts';
import type { FlowGraph, GraphEdge, GraphNode, Port } from './graph.ts';
import { isRecord, pointOf, without } from './format.ts';
import type { FlowFormat, NodeTypeInfo } from './format.ts';

export const COMPOSITION_NODE_TYPES: readonly NodeTypeInfo[] = [
  { type: 'start', label: 'Start', description: 'The flow input; mappings read it as source "start".', single: true },
  { type: 'rule', label: 'Rule', description: 'Solves a rule (tables FIRST_MATCH) with inputs mapped from earlier nodes.' },
  { type: 'end', label: 'End', description: 'Builds the flow output from earlier nodes.', single: true },
];

const TREE_FIELDS = ['globalVariable', 'children'];
const DRAWFLOW_FIELDS = ['id', 'data', 'inputs', 'outputs', 'pos_x', 'pos_y'];

function portsFor(id: string, type: string): Port[] {
  const ports: Port[] = [];
  if (type !== 'start') ports.push({ id: `${id}:in`, direction: 'in', subType: 'none' });
  if (type !== 'end') ports.push({ id: `${id}:out`, direction: 'out', subType: 'none' });
  return ports;
}

function drawflowNodes(doc: RuleDocument): Record<string, any>[] {
  const data = doc.visualEditorData?.drawflow?.Home?.data;
  return isRecord(data) ? Object.values(data).filter(isRecord) : [];
}

/** A node's data as the tree holds it (`baseId`, `version`, `mapping`…), without its name and children. */
function treeData(raw: Record<string, any>): Record<string, unknown> {
  return without(raw, TREE_FIELDS) ?? {};
}

export const compositionFormat: FlowFormat = {
  ruleType: 'composition',
  label: 'Rule flow',
  startType: 'start',
  nodeTypes: COMPOSITION_NODE_TYPES,
  reservedNames: ['start', 'end'],

  fromDocument(doc) {
    const drawn = drawflowNodes(doc);
    const used = new Set<string>();
    const drawnFor = (type: string, name: string | undefined): Record<string, any> | undefined => {
      const found = drawn.find((d) => !used.has(String(d.id)) && (type === 'rule' ? d.data?.type === 'node' && d.data?.globalVariable === name : d.data?.type === type));
      if (found) used.add(String(found.id));
      return found;
    };
    let nextId = Math.max(0, ...drawn.map((d) => Number(d.id)).filter(Number.isFinite)) + 1;
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    const byName = new Map<string, GraphNode>();

    const make = (type: string, name: string, data: Record<string, unknown>, extra: Record<string, unknown>): GraphNode => {
      const d = drawnFor(type, name);
      const id = d ? String(d.id) : String(nextId++);
      const node: GraphNode = {
        id, type, name, position: d ? pointOf(d.pos_x, d.pos_y) : undefined, data, ports: portsFor(id, type),
        extra: { ...extra, ...(d ? { drawflow: without(d, DRAWFLOW_FIELDS), drawflowData: without(d.data ?? {}, ['type', 'baseId', 'globalVariable']) } : {}) },
      };
      nodes.push(node);
      byName.set(name, node);
      return node;
    };

    const walk = (raw: Record<string, any>, parent: GraphNode | undefined, depth: number) => {
      const name = typeof raw.globalVariable === 'string' ? raw.globalVariable : parent ? `node_${nodes.length}` : 'start';
      const children: unknown[] = Array.isArray(raw.children) ? raw.children : [];
      const real = children.filter(isRecord);
      let node = byName.get(name);
      if (!node) {
        const drawnType = drawn.find((d) => d.data?.globalVariable === name)?.data?.type;
        const type = !parent ? 'start' : drawnType === 'node' || raw.baseId || real.length > 0 ? 'rule' : 'end';
        // A leaf keeps the exact `children` it had (`[null]` in DecisionRules' exports).
        node = make(type, name, treeData(raw), real.length === 0 && 'children' in raw ? { leafChildren: raw.children } : {});
      }
      if (parent && !edges.some((e) => e.source === parent.id && e.target === node.id)) {
        edges.push({ id: `${parent.id}->${node.id}`, source: parent.id, sourcePort: `${parent.id}:out`, target: node.id, targetPort: `${node.id}:in` });
      }
      if (depth < 100) for (const child of real) walk(child, node, depth + 1);
    };
    walk(isRecord(doc.dataTree) ? doc.dataTree : { globalVariable: 'start', mapping: [], children: [] }, undefined, 0);

    // Nodes only the layout knows (not connected to the start when last saved), and the layout's connections:
    // an edge between nodes outside the tree (a rule node already connected to the end) lives only there.
    for (const d of drawn) {
      const kind = d.data?.type === 'node' ? 'rule' : d.data?.type;
      if (used.has(String(d.id)) || (kind !== 'rule' && kind !== 'end') || (kind === 'end' && nodes.some((n) => n.type === 'end'))) continue;
      const { type: _type, globalVariable, ...data } = d.data as Record<string, unknown>;
      const free = typeof globalVariable === 'string' && !byName.has(globalVariable);
      const name = free ? globalVariable : kind === 'end' ? 'end' : uniqueName({ nodes, edges }, 'Rule', true);
      used.add(String(d.id));
      const id = String(d.id);
      const node: GraphNode = { id, type: kind, name, position: pointOf(d.pos_x, d.pos_y), data: { mapping: [], ...data }, ports: portsFor(id, kind), extra: { drawflow: without(d, DRAWFLOW_FIELDS) } };
      nodes.push(node);
      byName.set(name, node);
    }
    const ids = new Set(nodes.map((n) => n.id));
    for (const d of drawn) {
      const source = String(d.id);
      const out = d.outputs?.output_1?.connections;
      for (const c of Array.isArray(out) ? out : []) {
        const target = String(c?.node);
        if (!ids.has(source) || !ids.has(target) || source === target || edges.some((e) => e.source === source && e.target === target)) continue;
        edges.push({ id: `${source}->${target}`, source, sourcePort: `${source}:out`, target, targetPort: `${target}:in` });
      }
    }
    // The layout lists every node once, in the order the designer last wrote them: keep that order.
    const rank = (n: GraphNode) => {
      const at = drawn.findIndex((d) => String(d.id) === n.id);
      return at < 0 ? drawn.length : at;
    };
    nodes.sort((a, b) => rank(a) - rank(b));
    return { nodes, edges };
  },

  toDocument(doc, graph) {
    const start = graph.nodes.find((n) => n.type === 'start');
    const connected = new Set<string>();
    const build = (node: GraphNode, path: ReadonlySet<string>): Record<string, unknown> => {
      connected.add(node.id);
      const out = graph.edges.filter((e) => e.source === node.id && !path.has(e.target));
      const children = out.map((e) => nodeById(graph, e.target)).filter((n) => n !== undefined).map((n) => build(n, new Set([...path, n.id])));
      return { ...node.data, globalVariable: node.name ?? node.id, children: children.length > 0 ? children : (node.extra?.leafChildren ?? []) };
    };
    const dataTree = start ? build(start, new Set([start.id])) : doc.dataTree;

    const drawflow: Record<string, unknown> = {};
    for (const node of graph.nodes) {
      const type = node.type === 'rule' ? 'node' : node.type;
      const data: Record<string, unknown> = { ...(node.extra?.drawflowData as object), type };
      if (node.type === 'rule') {
        data.baseId = node.data?.baseId;
        data.globalVariable = node.name;
      }
      // Not in the tree: the layout is the only place that keeps its rule, version, name and mapping.
      if (node.type !== 'start' && !connected.has(node.id)) Object.assign(data, node.data, { globalVariable: node.name });
      const inputs = node.type === 'start' ? {} : { input_1: { connections: graph.edges.filter((e) => e.target === node.id).map((e) => ({ node: e.source, input: 'output_1' })) } };
      const outputs = node.type === 'end' ? {} : { output_1: { connections: graph.edges.filter((e) => e.source === node.id).map((e) => ({ node: e.target, output: 'input_1' })) } };
      drawflow[node.id] = {
        ...(node.extra?.drawflow as object),
        id: /^\d+$/.test(node.id) ? Number(node.id) : node.id,
        data,
        inputs,
        outputs,
        ...(node.position ? { pos_x: node.position.x, pos_y: node.position.y } : {}),
      };
    }
    const visual = isRecord(doc.visualEditorData) ? doc.visualEditorData : {};
    const flow = isRecord(visual.drawflow) ? visual.drawflow : {};
    const home = isRecord(flow.Home) ? flow.Home : {};
    return { ...doc, dataTree, visualEditorData: { ...visual, drawflow: { ...flow, Home: { ...home, data: drawflow } } } };
  },

  createNode(graph, type, position) {
    const id = String(Math.max(0, ...graph.nodes.map((n) => Number(n.id)).filter(Number.isFinite)) + 1);
    const name = type === 'rule' ? uniqueName(graph, 'Rule', true) : type;
    return { id, type, name, position, data: { mapping: [] }, ports: portsFor(id, type) };
  },

  renameReferences(data, from, to) {
    if (!Array.isArray(data?.mapping) || !data.mapping.some((m: any) => m?.source === from)) return data;
    return { ...data, mapping: data.mapping.map((m: any) => (m?.source === from ? { ...m, source: to } : m)) };
  },

  portLabel(_node, port) {
    return port.direction;
  },

  nodeOfProblem(doc, path) {
    const match = /^dataTree((?:\.children\[\d+\])*)/.exec(path);
    // `dataTree` alone is about the whole flow (no end node, a cycle), not its start node.
    if (!match || path === 'dataTree') return undefined;
    let at: any = doc.dataTree;
    for (const step of match[1]!.matchAll(/\[(\d+)\]/g)) at = at?.children?.[Number(step[1])];
    if (typeof at?.globalVariable !== 'string') return undefined;
    const graph = compositionFormat.fromDocument(doc);
    return graph.nodes.find((n) => n.name === at.globalVariable)?.id;
  },
};

/** A new rule flow: start connected to end, which the server accepts as it is. */
export function blankComposition(name: string): RuleDocument {
  const empty: FlowGraph = { nodes: [], edges: [] };
  const start = compositionFormat.createNode(empty, 'start', { x: 0, y: 120 });
  const end = compositionFormat.createNode({ nodes: [start], edges: [] }, 'end', { x: 480, y: 120 });
  const graph: FlowGraph = {
    nodes: [start, end],
    edges: [{ id: `${start.id}->${end.id}`, source: start.id, sourcePort: `${start.id}:out`, target: end.id, targetPort: `${end.id}:in` }],
  };
  return compositionFormat.toDocument({ type: 'composition', name, status: 'pending', inputSchema: {}, outputSchema: {} }, graph);
}
