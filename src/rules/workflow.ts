// Decision-flow (`workflow`, `integration-flow`) bodies (spec/rule-format.md §8.2): nodes of known types with
// the data each type needs, connectors, and connections between connectors. Node types Verdict cannot run are
// rejected here with a clear message (§11 F9) instead of failing at solve time. The same pass reads the flow into
// its typed model (model/workflow.ts), which is what the engine compiles.
import {
  FirstSeen,
  arrayOf,
  at,
  checkFields,
  describe,
  expectArray,
  expectObject,
  isObject,
  listOf,
  objectWith,
  oneOf,
  quote,
  text,
} from './check.ts';
import type { Check, FieldRule, JsonObject, Problems } from './check.ts';
import { VERSION_RANGE, isVersion } from './bounds.ts';
import { checkOutputScalarValue, checkScalarCondition } from './scalar-values.ts';
import type { WorkflowConnection, WorkflowConnector, WorkflowModel, WorkflowNode, WorkflowNodeType } from './model/workflow.ts';

export type { WorkflowNodeType };

export const WORKFLOW_NODE_TYPES = [
  'START',
  'END',
  'VARIABLES',
  'DATA_MANIPULATION',
  'FOREACH',
  'BUSINESS_RULE',
  'IF_STATEMENT',
  'ARRAY_APPEND',
  'HTTP_CLIENT',
] as const satisfies readonly WorkflowNodeType[];

export const SWITCH_STRATEGIES = ['ALL_WINNING', 'FIRST_WINNING'] as const;

const nonEmptyText = text({ nonEmpty: true });

/** A flow expression: `{"type": 1, "outputScalarValue": {…}}`. */
const expression: Check = objectWith([{ key: 'outputScalarValue', required: true, check: checkOutputScalarValue }]);

const path: Check = objectWith([{ key: 'path', required: true, check: nonEmptyText }]);

const ruleReference: Check = (value, fieldPath, out) => {
  if (!expectObject(value, fieldPath, out)) return;
  const hasAlias = typeof value.ruleAlias === 'string' && value.ruleAlias !== '';
  const hasBaseId = typeof value.baseId === 'string' && value.baseId !== '';
  if (!hasAlias && !hasBaseId) out.add(fieldPath, 'needs the rule to solve (ruleAlias or baseId)');
  const version = value.version;
  const latest = version === undefined || version === null || version === -1 || version === 'latest';
  if (!latest && !isVersion(version)) {
    out.add(at(fieldPath, 'version'), `must be a version number (${VERSION_RANGE}), -1, "latest" or null (got ${typeof version === 'number' ? version : describe(version)})`);
  }
};

const switchCondition: Check = objectWith([
  { key: 'variable', required: true, hint: '(the path whose value is tested)', check: nonEmptyText },
  { key: 'decisionNode', required: true, check: objectWith([{ key: 'scalarCondition', required: true, check: checkScalarCondition }]) },
]);

const switchCase: Check = (value, casePath, out) => {
  if (!expectObject(value, casePath, out)) return;
  checkFields(value, casePath, [
    { key: 'type', required: true, hint: '(CASE or DEFAULT)', check: oneOf(['CASE', 'DEFAULT'], 'case type') },
    { key: 'connectorId', required: true, hint: '(the connector this case fires)', check: nonEmptyText },
  ], out);
  if (value.type === 'CASE') checkFields(value, casePath, [{ key: 'conditions', required: true, check: arrayOf(switchCondition) }], out);
};

/** The `data` each node type needs; null for types without data. */
const NODE_DATA: Record<WorkflowNodeType, readonly FieldRule[] | null> = {
  START: null,
  END: null,
  VARIABLES: [
    {
      key: 'variables',
      required: true,
      check: arrayOf(objectWith([
        { key: 'name', required: true, check: nonEmptyText },
        { key: 'expression', required: true, check: expression },
      ])),
    },
  ],
  DATA_MANIPULATION: [
    {
      key: 'mapping',
      required: true,
      check: arrayOf(objectWith([
        { key: 'source', required: true, check: objectWith([{ key: 'expression', required: true, check: expression }]) },
        { key: 'target', required: true, check: path },
      ])),
    },
  ],
  FOREACH: [{ key: 'listPath', required: true, hint: '(the path of the list to loop over)', check: nonEmptyText }],
  BUSINESS_RULE: [
    { key: 'rule', required: true, check: ruleReference },
    { key: 'strategy', check: text() },
    { key: 'mapping', check: arrayOf(objectWith([{ key: 'target', required: true, check: path }])) },
  ],
  IF_STATEMENT: [
    { key: 'cases', required: true, check: arrayOf(switchCase) },
    { key: 'evaluationStrategy', check: oneOf(SWITCH_STRATEGIES, 'evaluation strategy') },
  ],
  ARRAY_APPEND: [
    { key: 'values', required: true, check: arrayOf(path) },
    { key: 'target', required: true, check: path },
  ],
  HTTP_CLIENT: [
    { key: 'url', required: true, check: nonEmptyText },
    { key: 'method', required: true, check: nonEmptyText },
  ],
};

const CONNECTOR_FIELDS: readonly FieldRule[] = [
  { key: 'id', required: true, check: nonEmptyText },
  { key: 'type', required: true, hint: '(in or out)', check: oneOf(['in', 'out'], 'connector type') },
];

const CONNECTION_FIELDS: readonly FieldRule[] = [
  { key: 'source', required: true, hint: '(an out-connector id)', check: nonEmptyText },
  { key: 'target', required: true, hint: '(an in-connector id)', check: nonEmptyText },
];

/** What a flow's reading collects besides problems: the model's nodes and connections. */
interface ReadFlow {
  readonly nodes: WorkflowNode[];
  readonly connections: WorkflowConnection[];
}

/** A reader of flow bodies of `type` (decision flows and integration flows share the body). */
export function workflowReader<const T extends 'workflow' | 'integration-flow'>(type: T): (doc: JsonObject, out: Problems) => WorkflowModel<T> {
  return (doc, out) => {
    const read: ReadFlow = { nodes: [], connections: [] };
    checkWorkflowBody(doc, read, out);
    return { type, document: doc, nodes: read.nodes, connections: read.connections };
  };
}

function checkWorkflowBody(doc: JsonObject, read: ReadFlow, out: Problems): void {
  const data = doc.workflowData;
  if (data === undefined || data === null) {
    out.add('workflowData', 'is required for a decision flow ({"nodes": [...], "connections": [...]})');
    return;
  }
  if (!expectObject(data, 'workflowData', out)) return;
  const connectors = new Map<string, string>();
  checkFields(data, 'workflowData', [
    { key: 'nodes', required: true, check: (nodes, nodesPath, o) => checkNodes(nodes, nodesPath, connectors, read, o) },
    { key: 'connections', required: true, hint: '(it may be empty)', check: (list, listPath, o) => checkConnections(list, listPath, connectors, read, o) },
  ], out);
}

function checkNodes(nodes: unknown, nodesPath: string, connectors: Map<string, string>, read: ReadFlow, out: Problems): void {
  if (!expectArray(nodes, nodesPath, out)) return;
  const ids = new FirstSeen();
  const names = new FirstSeen();
  let starts = 0;
  nodes.forEach((node, i) => {
    const nodePath = at(nodesPath, i);
    if (!expectObject(node, nodePath, out)) return;
    checkFields(node, nodePath, [{ key: 'id', required: true, check: nonEmptyText }], out);
    if (typeof node.id === 'string' && node.id !== '') {
      const earlier = ids.check(node.id, nodePath);
      if (earlier) out.add(at(nodePath, 'id'), `duplicate node id ${quote(node.id)} (also ${earlier})`);
    }
    if (node.name !== undefined && node.name !== null) {
      const namePath = at(nodePath, 'name');
      const before = out.count;
      text()(node.name, namePath, out);
      if (out.count === before && node.name !== '') {
        const earlier = names.check(node.name as string, nodePath);
        if (earlier) out.add(namePath, `duplicate node name ${quote(node.name)} (also ${earlier}); expressions address nodes by name`);
      }
    }
    if (node.type === 'START') starts++;
    checkNodeType(node, nodePath, out);
    checkConnectors(node, nodePath, connectors, out);
    const model = nodeModel(node, nodePath);
    if (model !== undefined) read.nodes.push(model);
  });
  if (starts !== 1) out.add(nodesPath, `a decision flow needs exactly one START node (found ${starts})`);
}

/** The node as the model holds it (whole when the checks above found nothing wrong with it). */
function nodeModel(node: JsonObject, path: string): WorkflowNode | undefined {
  if (typeof node.id !== 'string' || typeof node.type !== 'string' || !Object.hasOwn(NODE_DATA, node.type)) return undefined;
  const connectors: WorkflowConnector[] = [];
  if (Array.isArray(node.connectors)) {
    for (const connector of node.connectors) {
      if (!isObject(connector) || typeof connector.id !== 'string') continue;
      connectors.push({ id: connector.id, type: String(connector.type), subType: typeof connector.subType === 'string' ? connector.subType : 'none' });
    }
  }
  return {
    type: node.type as WorkflowNodeType,
    id: node.id,
    name: typeof node.name === 'string' && node.name !== '' ? node.name : undefined,
    path,
    version: typeof node.version === 'number' ? node.version : 1,
    connectors,
    data: isObject(node.data) ? node.data : {},
    // The data's shape is what checkNodeType checked (NODE_DATA); the model is handed out only when it passed.
  } as unknown as WorkflowNode;
}

function checkNodeType(node: JsonObject, nodePath: string, out: Problems): void {
  const type = node.type;
  const typePath = at(nodePath, 'type');
  if (type === undefined || type === null) {
    out.add(typePath, 'is required');
    return;
  }
  if (typeof type !== 'string' || !Object.hasOwn(NODE_DATA, type)) {
    const got = typeof type === 'string' ? quote(type) : describe(type);
    out.add(typePath, `unknown node type ${got}; Verdict runs ${listOf(WORKFLOW_NODE_TYPES)}`);
    return;
  }
  const rules = NODE_DATA[type as WorkflowNodeType];
  if (!rules) return;
  const dataPath = at(nodePath, 'data');
  if (node.data === undefined || node.data === null) {
    out.add(dataPath, `is required for a ${type} node`);
    return;
  }
  if (expectObject(node.data, dataPath, out)) checkFields(node.data, dataPath, rules, out);
}

function checkConnectors(node: JsonObject, nodePath: string, connectors: Map<string, string>, out: Problems): void {
  if (node.connectors === undefined || node.connectors === null) return;
  const listPath = at(nodePath, 'connectors');
  if (!expectArray(node.connectors, listPath, out)) return;
  node.connectors.forEach((connector, i) => {
    const connectorPath = at(listPath, i);
    if (!expectObject(connector, connectorPath, out)) return;
    checkFields(connector, connectorPath, CONNECTOR_FIELDS, out);
    if (typeof connector.id !== 'string' || connector.id === '') return;
    const earlier = connectors.get(connector.id);
    if (earlier) out.add(at(connectorPath, 'id'), `duplicate connector id ${quote(connector.id)} (also ${earlier})`);
    else connectors.set(connector.id, connectorPath);
  });
}

function checkConnections(list: unknown, listPath: string, connectors: Map<string, string>, read: ReadFlow, out: Problems): void {
  if (!expectArray(list, listPath, out)) return;
  list.forEach((connection, i) => {
    const connectionPath = at(listPath, i);
    if (!expectObject(connection, connectionPath, out)) return;
    const before = out.count;
    checkFields(connection, connectionPath, CONNECTION_FIELDS, out);
    if (out.count !== before || !isObject(connection)) return;
    for (const end of ['source', 'target'] as const) {
      const id = connection[end] as string;
      if (!connectors.has(id)) out.add(at(connectionPath, end), `unknown connector ${quote(id)} (no node has a connector with that id)`);
    }
    read.connections.push({ source: connection.source as string, target: connection.target as string, path: connectionPath });
  });
}
