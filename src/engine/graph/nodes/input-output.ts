// inputNode and outputNode (zen nodes/input, nodes/output): they pass their input on, after checking it against
// the node's JSON schema when it has one. The walk gives the input node the solve's input and stops at the first
// output node it reaches.
import { RuleError } from '../../errors.ts';
import type { Problem } from '../../errors.ts';
import type { JdmInputNode, JdmOutputNode } from '../../../rules/decision-graph.ts';
import { nodeLabel } from '../node.ts';
import type { CompiledNode, NodeOutcome } from '../node.ts';
import { compileSchema } from '../schema.ts';

export function compileInputOutputNode(node: JdmInputNode | JdmOutputNode, path: string, problems: Problem[]): CompiledNode {
  const check = compileSchema(node.content?.schema, `${path}.content.schema`, problems);
  const base = { id: node.id, name: node.name, type: node.type, readsNodes: false, async: false } as const;
  const what = node.type === 'inputNode' ? 'the input' : 'the output';
  return {
    ...base,
    passes: check === undefined,
    evaluate: check
      ? (input): NodeOutcome => {
          const wrong = check(input);
          if (wrong !== undefined) throw new RuleError(`${what} does not match the node's JSON schema: ${wrong}`, nodeLabel(base));
          return { output: input };
        }
      : (input): NodeOutcome => ({ output: input }),
  };
}
