// customNode: GoRules runs these through an adapter the host application supplies; Verdict has none, so solving
// a graph that reaches one fails naming the node and its kind (the graph still loads and its other paths solve).
import { RuleError } from '../../errors.ts';
import type { JdmCustomNode } from '../../../rules/decision-graph.ts';
import { nodeLabel } from '../node.ts';
import type { CompiledNode } from '../node.ts';

export function compileCustomNode(node: JdmCustomNode): CompiledNode {
  const base = { id: node.id, name: node.name, type: node.type, readsNodes: false, async: false } as const;
  return {
    ...base,
    evaluate() {
      throw new RuleError(`custom nodes (kind ${JSON.stringify(node.content.kind)}) are not supported by Verdict: replace it with a function, expression or table node`, nodeLabel(base));
    },
  };
}
