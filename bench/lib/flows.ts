// A chain of tables, described once and rendered as a Verdict Decision Flow (workflow), a Verdict Rule Flow
// (composition) and a ZEN graph. Each table reads its input fields from the latest earlier table that outputs
// that field, else from the flow input; the flow output gathers every table's outputs under the same names.
import type { TableSpec } from './table-spec.ts';
import { setDotted } from './table-spec.ts';
import { edge, toJdmTableNode } from './to-jdm.ts';
import type { JdmDecision, JdmNode } from './to-jdm.ts';
import { toVerdictTable } from './to-verdict.ts';

export interface FlowStep {
  /** Node name in the flow, rule alias and id of the table. */
  name: string;
  table: TableSpec;
}

export interface FlowSpec {
  name: string;
  steps: FlowStep[];
}

interface Wire {
  /** Path in the called table's input. */
  target: string;
  /** Step that produced it, or undefined for the flow input. */
  from: string | undefined;
  path: string;
}

function wiring(flow: FlowSpec, stepIndex: number): Wire[] {
  return flow.steps[stepIndex].table.inputs.map((column) => {
    for (let i = stepIndex - 1; i >= 0; i--) {
      if (flow.steps[i].table.outputs.some((o) => o.field === column.field)) {
        return { target: column.field, from: flow.steps[i].name, path: column.field };
      }
    }
    return { target: column.field, from: undefined, path: column.field };
  });
}

function outputs(flow: FlowSpec): { field: string; from: string }[] {
  return flow.steps.flatMap((s) => s.table.outputs.map((o) => ({ field: o.field, from: s.name })));
}

function flowSchemas(flow: FlowSpec): { inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> } {
  const inputSchema: Record<string, unknown> = {};
  flow.steps.forEach((_, i) => wiring(flow, i).filter((w) => !w.from).forEach((w) => setDotted(inputSchema, w.path, {})));
  const outputSchema: Record<string, unknown> = {};
  outputs(flow).forEach((o) => setDotted(outputSchema, o.field, {}));
  return { inputSchema, outputSchema };
}

/** The tables as rule documents (rule id = alias = step name), for the resolver of the flow. */
export function flowRuleDocuments(flow: FlowSpec): Record<string, unknown>[] {
  return flow.steps.map((s) => toVerdictTable(s.table, { ruleId: s.name, ruleAlias: s.name }));
}

const connector = (id: string, type: 'in' | 'out', subType: string) => ({ id, type, subType, maxConnections: -1, maxCount: 1, minCount: 1 });
const expression = (text: string) => ({ type: 1, outputScalarValue: { type: 'function', value: text, stringValue: text } });

/** Decision Flow: START -> BUSINESS_RULE per table (FIRST_MATCH, node v1: output is one object) -> Assign -> END. */
export function toVerdictWorkflow(flow: FlowSpec, ruleAlias: string): Record<string, unknown> {
  const nodes: Record<string, unknown>[] = [{ id: 'start', type: 'START', version: 1, position: { x: 0, y: 0 }, connectors: [connector('start-out', 'out', 'none')] }];
  const connections: Record<string, unknown>[] = [];
  let previousOut = 'start-out';
  flow.steps.forEach((step, i) => {
    const id = `rule${i}`;
    nodes.push({
      id, type: 'BUSINESS_RULE', version: 1, name: step.name, position: { x: 200 * (i + 1), y: 0 },
      connectors: [connector(`${id}-in`, 'in', 'none'), connector(`${id}-loop`, 'out', 'outgoing-loop'), connector(`${id}-end`, 'out', 'out-end')],
      data: {
        rule: { ruleAlias: step.name, version: 1, type: 'decision-table', baseId: step.name },
        strategy: step.table.hitPolicy === 'first' ? 'FIRST_MATCH' : 'STANDARD',
        evaluationType: 'STATIC',
        mapping: wiring(flow, i).map((w) => ({
          target: { path: w.target },
          source: { path: w.from ? `${w.from}.output.${w.path}` : `input.${w.path}`, disabled: false },
        })),
      },
    });
    connections.push({ id: `c${i}`, source: previousOut, target: `${id}-in`, type: 0 });
    previousOut = `${id}-end`;
  });
  nodes.push({
    id: 'assign', type: 'DATA_MANIPULATION', version: 1, name: 'assign', position: { x: 200 * (flow.steps.length + 1), y: 0 },
    connectors: [connector('assign-in', 'in', 'none'), connector('assign-out', 'out', 'none')],
    data: {
      mapping: outputs(flow).map((o) => ({ source: { expression: expression(`{${o.from}.output.${o.field}}`) }, target: { path: `output.${o.field}` } })),
      guiSettings: { showAll: false },
    },
  });
  nodes.push({ id: 'end', type: 'END', version: 1, position: { x: 200 * (flow.steps.length + 2), y: 0 }, connectors: [connector('end-in', 'in', 'none')] });
  connections.push({ id: 'c-assign', source: previousOut, target: 'assign-in', type: 0 });
  connections.push({ id: 'c-end', source: 'assign-out', target: 'end-in', type: 0 });
  return {
    type: 'workflow', name: flow.name, status: 'published', version: 1, ruleId: ruleAlias, baseId: ruleAlias, ruleAlias,
    ...flowSchemas(flow), userVariables: [], workflowData: { nodes, connections },
  };
}

/** Rule Flow (legacy composition): start -> Rule per table -> end, tables always solved FIRST_MATCH. */
export function toVerdictComposition(flow: FlowSpec, ruleAlias: string): Record<string, unknown> {
  const end = {
    globalVariable: 'end',
    mapping: outputs(flow).map((o) => ({ key: o.field, source: o.from, sourceVariable: o.field })),
    children: [null],
  };
  let child: Record<string, unknown> = end;
  for (let i = flow.steps.length - 1; i >= 0; i--) {
    const step = flow.steps[i];
    child = {
      baseId: step.name,
      globalVariable: step.name,
      mapping: wiring(flow, i).map((w) => ({ key: w.target, source: w.from ?? 'start', sourceVariable: w.path })),
      children: [child],
    };
  }
  return {
    type: 'composition', name: flow.name, status: 'published', version: 1, ruleId: ruleAlias, baseId: ruleAlias, ruleAlias,
    ...flowSchemas(flow), userVariables: [],
    dataTree: { globalVariable: 'start', mapping: [], children: [child] },
  };
}

/**
 * ZEN graph: input -> table per step (passThrough, so later tables see the input and earlier outputs) ->
 * expression node that keeps only the flow outputs -> output.
 */
export function toJdmFlow(flow: FlowSpec): JdmDecision {
  for (const step of flow.steps) {
    if (step.table.hitPolicy !== 'first') throw new Error(`${step.name}: flows chain first-hit tables (one output object each)`);
  }
  const nodes: JdmNode[] = [{ id: 'request', type: 'inputNode', name: 'Request' }];
  const edges = [];
  let previous = 'request';
  for (const step of flow.steps) {
    nodes.push(toJdmTableNode(step.table, step.name, { passThrough: true }));
    edges.push(edge(previous, step.name));
    previous = step.name;
  }
  nodes.push({
    id: 'shape', type: 'expressionNode', name: 'shape',
    content: { expressions: outputs(flow).map((o, i) => ({ id: `x${i}`, key: o.field, value: o.field })) },
  });
  nodes.push({ id: 'response', type: 'outputNode', name: 'Response' });
  edges.push(edge(previous, 'shape'), edge('shape', 'response'));
  return { nodes, edges };
}
