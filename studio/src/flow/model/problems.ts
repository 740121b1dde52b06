// Server problems (their JSON `path`s into the rule document) placed on the node they concern.
import type { RuleDocument } from '../../api/types.ts';
import type { FlowFormat } from './format.ts';

export interface Problem {
  path: string;
  message: string;
}

/** The problems of each node, by node id; problems that concern no node are left to the rule page's list. */
export function problemsByNode(format: FlowFormat, doc: RuleDocument, problems: readonly Problem[]): Map<string, Problem[]> {
  const byNode = new Map<string, Problem[]>();
  for (const problem of problems) {
    const id = format.nodeOfProblem(doc, problem.path);
    if (id !== undefined) byNode.set(id, [...(byNode.get(id) ?? []), problem]);
  }
  return byNode;
}

/** A problem's path from inside its node, for the inspector: `data.mapping[0].target.path`. */
export function pathInNode(path: string): string {
  return path.replace(/^(?:workflowData|decisionGraph)\.nodes\[\d+\]\.?/, '').replace(/^dataTree(\.children\[\d+\])*\.?/, '') || '(the node)';
}
