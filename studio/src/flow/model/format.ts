// What the designer needs from a flow format (decision flow or rule flow): its node types, the conversion between
// the rule document and the graph, new nodes, port labels and where a server problem's path points.
import type { RuleDocument } from '../../api/types.ts';
import type { FlowGraph, GraphNode, Point, Port } from './graph.ts';

export interface NodeTypeInfo {
  type: string;
  /** The palette name: "Business rule". */
  label: string;
  /** One line on what the node does, shown in the Add node menu. */
  description: string;
  /** At most one node of this type per flow (START, a rule flow's start and end). */
  single?: boolean;
  /** Kept when a document has one, never offered by Add node (a decision graph's custom node). */
  hidden?: boolean;
}

export interface FlowFormat {
  /** The rule document's type. */
  ruleType: 'workflow' | 'composition' | 'decision-graph';
  /** What a person calls it: "Decision flow". */
  label: string;
  /** The node type runs start from (START, start, inputNode): the first view and the unconnected check use it. */
  startType: string;
  nodeTypes: readonly NodeTypeInfo[];
  /** Names no node may take (the flow's own variables). */
  reservedNames: readonly string[];
  /** Why a name is not well formed, when the format's rule differs from identifiers (nameProblem's default). */
  nameSyntax?(name: string): string | undefined;
  fromDocument(doc: RuleDocument): FlowGraph;
  /** The document with its flow body replaced by `graph`; every other field is kept. */
  toDocument(doc: RuleDocument, graph: FlowGraph): RuleDocument;
  /** A new node of `type` (with its ports and default data), named so that no other node has its name. */
  createNode(graph: FlowGraph, type: string, position: Point): GraphNode;
  /** What a port is called on the canvas and in `Connect to`: "in", "out", "each item", a Switch case's name… */
  portLabel(node: GraphNode, port: Port): string;
  /** A node's data with its references to node `from` (by name) changed to `to`. */
  renameReferences(data: any, from: string, to: string): any;
  /** The id of the node a problem's JSON path (as src/rules writes it) points into, or undefined. */
  nodeOfProblem(doc: RuleDocument, path: string): string | undefined;
}

export function typeLabel(format: FlowFormat, type: string): string {
  return format.nodeTypes.find((t) => t.type === type)?.label ?? type;
}

/** The object without the listed keys (the fields a format keeps in `extra`). */
export function without(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!keys.includes(key)) rest[key] = value;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

export function isRecord(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function pointOf(x: unknown, y: unknown): Point | undefined {
  return typeof x === 'number' && Number.isFinite(x) && typeof y === 'number' && Number.isFinite(y) ? { x, y } : undefined;
}
