// The decision graph designer: the flow canvas (flow/FlowDesigner.tsx) with the graph's extension, its inspector
// forms (GraphNodeFields) and the table node's grid (TableNodeEditor), opened by `Edit table` or a double-click.
import type { DesignerProps } from '../kinds/types.ts';
import type { FlowExtension } from '../flow/extension.ts';
import { FlowDesigner } from '../flow/FlowDesigner.tsx';
import { GraphNodeFields } from './GraphNodeFields.tsx';
import { TableNodeEditor } from './TableNodeEditor.tsx';
import './graph.css';

const GRAPH_EXTENSION: FlowExtension = {
  Fields: GraphNodeFields,
  viewLabel: (node) => (node.type === 'decisionTableNode' ? 'Edit table' : undefined),
  NodeView: TableNodeEditor,
};

export function GraphDesigner(props: DesignerProps) {
  return <FlowDesigner {...props} extension={GRAPH_EXTENSION} />;
}
