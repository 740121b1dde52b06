// What a flow format adds to the flow designer beyond the canvas: its own inspector form for a node, and a node
// view that takes the canvas's place (a decision graph's table node opens in the table grid). Decision flows and
// rule flows have none (their forms are NodeInspector's own); decision graphs plug in from studio/src/graph.
import type { ComponentType } from 'react';
import type { RuleItem } from '../api/client.ts';
import type { FlowGraph, GraphNode } from './model/graph.ts';
import type { FlowFormat } from './model/format.ts';
import type { Problem } from './model/problems.ts';
import type { NodeResult } from './model/trace.ts';

export interface NodeFieldsProps {
  format: FlowFormat;
  graph: FlowGraph;
  node: GraphNode;
  rules: RuleItem[];
  /** The rule being edited (a node may not call it). */
  selfId: string | undefined;
  readOnly: boolean;
  setData(data: unknown): void;
  onGraph(next: FlowGraph): void;
  /** Opens the node's view (NodeView) in place of the canvas. */
  openView(): void;
}

export interface NodeViewProps {
  graph: FlowGraph;
  node: GraphNode;
  readOnly: boolean;
  /** The server's problems in this node. */
  problems: Problem[];
  /** What the last bench run did in this node. */
  run: NodeResult | undefined;
  /** An edit of the graph; edits with the same key in quick succession are one undo step. */
  onGraph(next: FlowGraph, coalesceKey?: string): void;
  onClose(): void;
}

export interface FlowExtension {
  /** The inspector's form for a node (replaces NodeInspector's own). */
  Fields?: ComponentType<NodeFieldsProps>;
  /** What opens a node's view ("Edit table"), undefined when the node has none. */
  viewLabel?(node: GraphNode): string | undefined;
  NodeView?: ComponentType<NodeViewProps>;
}
