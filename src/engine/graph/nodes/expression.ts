// expressionNode (zen nodes/expression): each `key = value` in order; a later expression reads the earlier
// answers as `$.key`. The answer is an object with every key written at its dotted path. A failing expression
// fails the node, naming it.
import { RuleError } from '../../errors.ts';
import type { JdmExpressionNode } from '../../../rules/decision-graph.ts';
import type { ExpressionCompiler, ZenProgram } from '../expressions.ts';
import { nodeLabel } from '../node.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from '../node.ts';
import { readTransform, transformed } from '../transform.ts';
import { dotInsert, jsonOf } from '../values.ts';

interface Assignment {
  key: string;
  text: string;
  program: ZenProgram;
}

export function compileExpressionNode(node: JdmExpressionNode, path: string, compiler: ExpressionCompiler): CompiledNode {
  const content = node.content;
  const contentPath = `${path}.content`;
  const assignments: Assignment[] = [];
  content.expressions.forEach((expression, i) => {
    // zen skips an expression whose key or value is empty.
    if (expression.key === '' || expression.value === '') return;
    assignments.push({ key: expression.key, text: expression.value, program: compiler.compile(expression.value, 'standard', `${contentPath}.expressions[${i}].value`) });
  });
  const readsNodes = content.expressions.some((e) => e.value.includes('$nodes'));
  const base = { id: node.id, name: node.name, type: node.type, readsNodes } as const;

  const handle = (input: unknown, run: NodeRun): NodeOutcome => {
    const result: Record<string, unknown> = {};
    // zen's isolate locals: `$nodes` when read, `$` once the first answer is in (zen makes it then).
    let locals: Record<string, unknown> | undefined = readsNodes ? { $nodes: run.nodes() } : undefined;
    let dollar: Record<string, unknown> | undefined;
    const trace: Record<string, unknown> | undefined = run.trace ? {} : undefined;
    for (const assignment of assignments) {
      let value: unknown;
      try {
        value = jsonOf(assignment.program.run(input, locals, run.clock));
      } catch (error) {
        throw new RuleError(`Failed to evaluate expression "${assignment.text}": ${(error as Error).message}`, nodeLabel(base));
      }
      if (trace) trace[assignment.key] = { result: value };
      if (dollar === undefined) {
        dollar = {};
        locals = locals ? { ...locals, $: dollar } : { $: dollar };
      }
      dotInsert(dollar, assignment.key, value);
      dotInsert(result, assignment.key, value);
    }
    return trace ? { output: result, traceData: trace } : { output: result };
  };
  return { ...base, async: false, evaluate: transformed(base, readTransform(content, contentPath, compiler), handle) };
}
