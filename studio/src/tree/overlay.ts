// What the designer lays over the tree: the path the last bench run took (from the engine's TreeTraceEntry list,
// src/engine/tree/evaluate.ts) and the problems of the last save (JSON paths such as
// `nodes[0].nodes[1].scalarCondition.value`, as src/rules writes them), each keyed by the node they concern.
import type { RuleDocument } from '../api/types.ts';
import type { Problem } from '../api/client.ts';
import { childrenOf, nodeKey, treeNodes } from './model.ts';
import type { TreeNode } from './model.ts';

/**
 * taken: an IF whose conditions held, an ELSE that ran, a THEN and its results that were written, a condition
 * that held. declined: evaluated and false. not-reached: the walk never got there (a branch not taken, or a
 * condition after one that failed).
 */
export type NodeOutcome = 'taken' | 'declined' | 'not-reached';

export interface TraceOutcome {
  outcome: Exclude<NodeOutcome, 'not-reached'>;
  inputValue?: unknown;
  value?: unknown;
  error?: string;
}

interface TraceEntry {
  nodeId: string;
  evaluationResult?: unknown;
  inputValue?: unknown;
  value?: unknown;
  evaluationError?: unknown;
}

function isEntry(value: unknown): value is TraceEntry {
  return value !== null && typeof value === 'object' && typeof (value as { nodeId?: unknown }).nodeId === 'string';
}

/** The entry list in a trace: the list itself, a response holding it (`trace`, `debugData`), or a bulk run's first. */
function entriesOf(trace: unknown, depth = 0): TraceEntry[] | undefined {
  if (depth > 4 || trace === null || trace === undefined) return undefined;
  if (Array.isArray(trace)) {
    if (trace.length === 0 || trace.some(isEntry)) return trace.filter(isEntry);
    return entriesOf(trace[0], depth + 1);
  }
  if (typeof trace === 'object') {
    for (const key of ['trace', 'debugData', 'debug']) {
      const found = entriesOf((trace as Record<string, unknown>)[key], depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** Node key -> what the run did there; undefined when `trace` holds no tree trace. */
export function readTreeTrace(trace: unknown): Map<string, TraceOutcome> | undefined {
  const entries = entriesOf(trace);
  if (!entries) return undefined;
  const view = new Map<string, TraceOutcome>();
  for (const entry of entries) {
    view.set(entry.nodeId, {
      outcome: entry.evaluationResult === true ? 'taken' : 'declined',
      ...(entry.inputValue !== undefined ? { inputValue: entry.inputValue } : {}),
      ...(entry.value !== undefined ? { value: entry.value } : {}),
      ...(typeof entry.evaluationError === 'string' ? { error: entry.evaluationError } : {}),
    });
  }
  return view;
}

export function outcomeOf(view: ReadonlyMap<string, TraceOutcome>, key: string): NodeOutcome {
  return view.get(key)?.outcome ?? 'not-reached';
}

export const OUTCOME_TEXT: Readonly<Record<string, Record<NodeOutcome, string>>> = {
  condition: { taken: 'held', declined: 'did not hold', 'not-reached': 'not evaluated' },
  if: { taken: 'taken', declined: 'not taken', 'not-reached': 'not reached' },
  else: { taken: 'taken', declined: 'not taken', 'not-reached': 'not reached' },
  other: { taken: 'ran', declined: 'did not run', 'not-reached': 'not reached' },
};

export function outcomeText(type: string, outcome: NodeOutcome): string {
  return (OUTCOME_TEXT[type] ?? (type === 'logic_or' || type === 'logic_group' ? OUTCOME_TEXT.condition : OUTCOME_TEXT.other))![outcome];
}

export interface TreeProblems {
  /** Node key -> messages, each naming the field when the path goes below the node (`modelVariablePath: …`). */
  byNode: Map<string, string[]>;
  /** Problems of the rule as a whole (name, models) or at a path no node answers to. */
  other: Problem[];
}

const NODE_STEP = /^\.?nodes\[(\d+)\]/;

/** Places each problem on the deepest node its path names (a prefix before the first `nodes[` is ignored). */
export function locateTreeProblems(rule: RuleDocument, problems: readonly Problem[]): TreeProblems {
  const result: TreeProblems = { byNode: new Map(), other: [] };
  for (const problem of problems) {
    const path = typeof problem.path === 'string' ? problem.path : '';
    const start = path.search(/(^|\.)nodes\[\d+\]/);
    if (start < 0) {
      result.other.push(problem);
      continue;
    }
    let rest = path.slice(start);
    let list: TreeNode[] = treeNodes(rule);
    let node: TreeNode | undefined;
    const steps: number[] = [];
    for (let step = NODE_STEP.exec(rest); step; step = NODE_STEP.exec(rest)) {
      const next = list[Number(step[1])];
      if (!next) break;
      node = next;
      steps.push(Number(step[1]));
      list = childrenOf(next);
      rest = rest.slice(step[0].length);
    }
    if (!node) {
      result.other.push(problem);
      continue;
    }
    const key = nodeKey(node, steps);
    const field = rest.replace(/^\./, '');
    const message = field ? `${field}: ${problem.message}` : problem.message;
    result.byNode.set(key, [...(result.byNode.get(key) ?? []), message]);
  }
  return result;
}

