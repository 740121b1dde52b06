// switchNode (zen decision_graph/walker.rs): the statements' conditions are tested against the node's input, the
// first true one (`first`) or every true one (`collect`) chooses the branches (edges whose sourceHandle is the
// statement's id) the walk follows; the others are cut from this solve's graph (./walk.ts). An empty condition is
// true; one that fails to evaluate is false.
import type { JdmSwitchNode } from '../../../rules/decision-graph.ts';
import type { ExpressionCompiler, ZenProgram } from '../expressions.ts';
import { runOr } from '../expressions.ts';
import { nodeLocals } from '../node.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from '../node.ts';

interface Statement {
  id: string;
  /** undefined: always true (empty condition); null: never (blank text, which zen fails to parse). */
  condition: ZenProgram | undefined | null;
}

export interface CompiledSwitch extends CompiledNode {
  /** The ids of the statements whose branches are taken, in statement order. */
  select(input: unknown, run: NodeRun): string[];
}

export function compileSwitchNode(node: JdmSwitchNode, path: string, compiler: ExpressionCompiler): CompiledSwitch {
  const content = node.content;
  const statements: Statement[] = content.statements.map((statement, i) => ({
    id: statement.id,
    condition:
      statement.condition === ''
        ? undefined
        : statement.condition.trim() === ''
          ? null
          : compiler.compile(statement.condition, 'standard', `${path}.content.statements[${i}].condition`, 'warning'),
  }));
  const collect = content.hitPolicy === 'collect';
  const readsNodes = content.statements.some((s) => s.condition.includes('$nodes'));
  const base = { id: node.id, name: node.name, type: node.type, readsNodes, async: false } as const;
  return {
    ...base,
    // The walk answers a switch's input as its output itself; this is never called for a switch.
    evaluate: (input): NodeOutcome => ({ output: input }),
    select(input, run) {
      const locals = nodeLocals(base, run);
      const chosen: string[] = [];
      for (const statement of statements) {
        const passed = statement.condition === undefined ? true : statement.condition === null ? false : runOr(statement.condition, input, locals, run.clock, false) === true;
        if (!passed) continue;
        chosen.push(statement.id);
        if (!collect) break;
      }
      return chosen;
    },
  };
}
