// functionNode: JavaScript run in the sandboxed script workers (not yet wired: solving one is a clear error).
import { RuleError } from '../../errors.ts';
import type { JdmFunctionNode } from '../../../rules/decision-graph.ts';
import { nodeLabel } from '../node.ts';
import type { CompiledNode } from '../node.ts';

export function compileFunctionNode(node: JdmFunctionNode, _path: string): CompiledNode {
  const base = { id: node.id, name: node.name, type: node.type, readsNodes: false, async: true } as const;
  return {
    ...base,
    evaluate() {
      throw new RuleError('function nodes are not supported yet', nodeLabel(base));
    },
  };
}
