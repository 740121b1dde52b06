// expressionNode (zen nodes/expression): each `key = value` in order; a later expression reads the earlier
// answers as `$.key`. The answer is an object with every key written at its dotted path. A failing expression
// fails the node, naming it.
import { RuleError } from '../../errors.ts';
import type { JdmExpressionNode } from '../../../rules/decision-graph.ts';
import type { ExpressionCompiler, ZenProgram } from '../expressions.ts';
import { nodeLabel } from '../node.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from '../node.ts';
import { mergesInPlace, readTransform, transformed } from '../transform.ts';
import { dotInsert, dotPath, insertFresh, jsonOf, prefixFree } from '../values.ts';
import type { DotPath } from '../values.ts';

interface Assignment {
  key: string;
  /** `key` split once for the writes. */
  at: DotPath;
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
    assignments.push({ key: expression.key, at: dotPath(expression.key), text: expression.value, program: compiler.compile(expression.value, 'standard', `${contentPath}.expressions[${i}].value`) });
  });
  const readsNodes = content.expressions.some((e) => e.value.includes('$nodes'));
  // No expression mentions `$`: the earlier answers need no `$` object for them to read.
  const readsDollar = assignments.some((a) => a.text.includes('$'));
  const fresh = prefixFree(assignments.map((a) => a.key));
  const base = { id: node.id, name: node.name, type: node.type, readsNodes } as const;

  const handle = (input: unknown, run: NodeRun): NodeOutcome => {
    const result: Record<string, unknown> = {};
    // `result` is out of the expressions' reach (they read `$`, its twin): its objects are written in place.
    const owned: object[] | undefined = fresh ? undefined : [];
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
      if (readsDollar) {
        if (dollar === undefined) {
          dollar = {};
          locals = locals ? { ...locals, $: dollar } : { $: dollar };
        }
        dotInsert(dollar, assignment.at, value);
      }
      if (owned) dotInsert(result, assignment.at, value, owned);
      else insertFresh(result, assignment.at, value);
    }
    return trace ? { output: result, traceData: trace } : { output: result };
  };
  const transform = readTransform(content, contentPath, compiler);
  return { ...base, async: false, mergesInPlace: mergesInPlace(transform, content), evaluate: transformed(base, transform, handle) };
}
