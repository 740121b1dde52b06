// The typed model of a decision flow (`workflow`) or an integration flow (rule-format §8.2), read by
// src/rules/workflow.ts in the pass that checks it: nodes with the data of their type, their connectors, and the
// connections between connectors. The engine compiles decision flows from this (src/engine/flow/workflow.ts).
import type { JsonObject } from '../check.ts';
import type { OutputScalarValue, ScalarCondition } from './cells.ts';

/** A flow expression as stored: `{"type": 1, "outputScalarValue": {…}}`. */
export interface FlowExpression {
  readonly outputScalarValue: OutputScalarValue;
}

export interface FlowPathField {
  readonly path: string;
}

/** What each node type holds in `data` (the validator's NODE_DATA); fields the validator does not require are optional. */
export interface WorkflowNodeData {
  START: Record<string, never>;
  END: Record<string, never>;
  VARIABLES: { readonly variables: readonly { readonly name: string; readonly expression: FlowExpression }[] };
  /** Assign: each mapping writes an expression's value to a path. */
  DATA_MANIPULATION: { readonly mapping: readonly { readonly source: { readonly expression: FlowExpression }; readonly target: FlowPathField }[] };
  FOREACH: { readonly listPath: string };
  BUSINESS_RULE: {
    readonly rule: { readonly ruleAlias?: string; readonly baseId?: string; readonly version?: number | string | null };
    readonly strategy?: string;
    readonly evaluationType?: unknown;
    /** Inputs of the called rule: a target path and where its value comes from (`source.path`; `{}` or disabled: none). */
    readonly mapping?: readonly { readonly target: FlowPathField; readonly source?: { readonly path?: unknown; readonly disabled?: unknown } }[];
  };
  /** Switch. */
  IF_STATEMENT: {
    readonly cases: readonly SwitchCaseData[];
    readonly evaluationStrategy?: 'ALL_WINNING' | 'FIRST_WINNING';
  };
  ARRAY_APPEND: { readonly values: readonly FlowPathField[]; readonly target: FlowPathField };
  HTTP_CLIENT: {
    readonly url: string;
    readonly method: string;
    readonly body?: unknown;
    readonly bodyFormat?: unknown;
    readonly headers?: unknown;
    readonly [field: string]: unknown;
  };
}

export interface SwitchCaseData {
  readonly type: 'CASE' | 'DEFAULT';
  readonly name?: unknown;
  readonly connectorId: string;
  /** Present on CASE. */
  readonly conditions?: readonly { readonly variable: string; readonly decisionNode: { readonly scalarCondition: ScalarCondition } }[];
}

export type WorkflowNodeType = keyof WorkflowNodeData;

export interface WorkflowConnector {
  readonly id: string;
  /** `in` or `out`. */
  readonly type: string;
  /** A Switch case's connector names its case; `none` otherwise. */
  readonly subType: string;
}

interface NodeOf<T extends WorkflowNodeType> {
  readonly type: T;
  readonly id: string;
  /** Expressions address a node by its name; undefined when it has none. */
  readonly name: string | undefined;
  /** JSON path of the node in the document (`workflowData.nodes[2]`). */
  readonly path: string;
  /** Node-type version (1 or 2). */
  readonly version: number;
  readonly connectors: readonly WorkflowConnector[];
  readonly data: WorkflowNodeData[T];
}

/** A node, told apart by its `type`. */
export type WorkflowNode = { [T in WorkflowNodeType]: NodeOf<T> }[WorkflowNodeType];
export type WorkflowNodeOf<T extends WorkflowNodeType> = NodeOf<T>;

export interface WorkflowConnection {
  /** An out-connector id. */
  readonly source: string;
  /** An in-connector id. */
  readonly target: string;
  /** JSON path of the connection in the document. */
  readonly path: string;
}

export interface WorkflowModel<T extends 'workflow' | 'integration-flow' = 'workflow' | 'integration-flow'> {
  readonly type: T;
  readonly document: JsonObject;
  readonly nodes: readonly WorkflowNode[];
  readonly connections: readonly WorkflowConnection[];
}
