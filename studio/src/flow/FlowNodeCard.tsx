// One node on the canvas: its type and name, a one-line summary of what it does, its ports (the in-port on the
// left, each out-port on the right with its label: "after", "each item", a Switch case), the problems the server
// found in it and, after a bench run, whether it ran.
import { memo } from 'react';
import { Handle, Position } from '@xyflow/react';
import type { Node, NodeProps } from '@xyflow/react';
import type { RunStatus } from './model/trace.ts';

export interface FlowNodeCardData extends Record<string, unknown> {
  title: string;
  name: string | undefined;
  /** How the ports are named for assistive technology and tests: "<node> <port> port". */
  portOwner: string;
  summary: string;
  /** Colour group of the node type. */
  tone: string;
  inPort: string | undefined;
  outPorts: { id: string; label: string }[];
  problems: number;
  run: RunStatus | undefined;
  readOnly: boolean;
}

export type FlowNodeCardNode = Node<FlowNodeCardData, 'flow'>;

const RUN_TEXT: Record<RunStatus, string> = { ran: 'ran', canceled: 'canceled', 'not-run': 'did not run' };

export const FlowNodeCard = memo(function FlowNodeCard({ data, selected }: NodeProps<FlowNodeCardNode>) {
  const single = data.outPorts.length === 1 && data.outPorts[0]!.label === 'out';
  return (
    <div className={`flow-node tone-${data.tone}${selected ? ' is-selected' : ''}${data.problems ? ' has-problems' : ''}${data.run ? ` run-${data.run}` : ''}`}>
      {data.inPort && <Handle type="target" position={Position.Left} id={data.inPort} isConnectable={!data.readOnly} aria-label={`${data.portOwner} in port`} />}
      <div className="flow-node-head">
        <span className="flow-node-type">{data.title}</span>
        {data.run && <span className={`flow-node-run run-${data.run}`}>{RUN_TEXT[data.run]}</span>}
      </div>
      {data.name !== undefined && <div className="flow-node-name">{data.name}</div>}
      {data.summary && <div className="flow-node-summary" title={data.summary}>{data.summary}</div>}
      {data.problems > 0 && <div className="flow-node-problems">{data.problems} problem{data.problems === 1 ? '' : 's'}</div>}
      {single ? (
        <Handle type="source" position={Position.Right} id={data.outPorts[0]!.id} isConnectable={!data.readOnly} aria-label={`${data.portOwner} out port`} />
      ) : (
        data.outPorts.length > 0 && (
          <div className="flow-node-outs">
            {data.outPorts.map((port) => (
              <div key={port.id} className="flow-node-out">
                <span>{port.label}</span>
                <Handle type="source" position={Position.Right} id={port.id} isConnectable={!data.readOnly} aria-label={`${data.portOwner} ${port.label} port`} />
              </div>
            ))}
          </div>
        )
      )}
    </div>
  );
});
