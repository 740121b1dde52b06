// Compiles a `decision-graph` rule (a GoRules JDM graph, src/rules/decision-graph.ts) into closures: one handler
// per node kind (./nodes), the graph's shape in arrays, and a walk per solve (./walk.ts). Every expression is
// compiled here, once; a syntax error anywhere is a ValidationError naming its JSON path.
import type { RuleCompiler } from '../registry.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, SolveResult } from '../types.ts';
import { ValidationError } from '../errors.ts';
import { decisionKeyToRef } from '../../rules/decision-graph.ts';
import type { DecisionGraphContent } from '../../rules/decision-graph.ts';
import type { JdmNode } from '../../rules/decision-graph.ts';
import { ExpressionCompiler } from './expressions.ts';
import type { GraphClock } from './expressions.ts';
import type { CompiledNode, NodeOutcome } from './node.ts';
import { compileCustomNode } from './nodes/custom.ts';
import { SUB_GRAPH, compileDecisionNode, ruleLabel } from './nodes/decision.ts';
import type { SubGraph } from './nodes/decision.ts';
import { compileDecisionTableNode } from './nodes/decision-table.ts';
import { compileExpressionNode } from './nodes/expression.ts';
import { compileFunctionNode } from './nodes/function.ts';
import { compileInputOutputNode } from './nodes/input-output.ts';
import { compileSwitchNode } from './nodes/switch.ts';
import { GraphWalk, staticWalk } from './walk.ts';
import type { GraphShape } from './walk.ts';

function compileNode(node: JdmNode, path: string, compiler: ExpressionCompiler): CompiledNode {
  switch (node.type) {
    case 'inputNode':
    case 'outputNode':
      return compileInputOutputNode(node, path, compiler.problems);
    case 'decisionTableNode':
      return compileDecisionTableNode(node, path, compiler);
    case 'expressionNode':
      return compileExpressionNode(node, path, compiler);
    case 'switchNode':
      return compileSwitchNode(node, path, compiler);
    case 'decisionNode':
      return compileDecisionNode(node, path, compiler);
    case 'functionNode':
      return compileFunctionNode(node, path, compiler.problems);
    case 'customNode':
      return compileCustomNode(node);
  }
}

/** Neighbour lists newest edge first, as petgraph keeps them (zen's walk and merge order follow it). */
function neighbours(count: number, edges: readonly number[][]): Int32Array[] {
  return Array.from({ length: count }, (_, i) => Int32Array.from([...edges[i]].reverse()));
}

function shapeOf(content: DecisionGraphContent, nodes: CompiledNode[]): GraphShape {
  const index = new Map(content.nodes.map((n, i) => [n.id, i]));
  const incoming: number[][] = nodes.map(() => []);
  const outgoing: number[][] = nodes.map(() => []);
  const edgeSource = new Int32Array(content.edges.length);
  const edgeTarget = new Int32Array(content.edges.length);
  const edgeHandle = content.edges.map((edge, e) => {
    edgeSource[e] = index.get(edge.sourceId)!;
    edgeTarget[e] = index.get(edge.targetId)!;
    outgoing[edgeSource[e]].push(e);
    incoming[edgeTarget[e]].push(e);
    return typeof edge.sourceHandle === 'string' ? edge.sourceHandle : undefined;
  });
  const roles = nodes.map((n) => (n.type === 'inputNode' ? 'input' : n.type === 'outputNode' ? 'output' : n.type === 'switchNode' ? 'switch' : 'other') as GraphShape['roles'][number]);
  const shape = {
    nodes,
    roles,
    edgeSource,
    edgeTarget,
    edgeHandle,
    incoming: neighbours(nodes.length, incoming),
    outgoing: neighbours(nodes.length, outgoing),
    inputNodes: roles.flatMap((r, i) => (r === 'input' ? [i] : [])),
    hasSwitch: roles.includes('switch'),
  };
  if (shape.hasSwitch) return { ...shape, order: undefined, ending: undefined, ownedSource: undefined };
  return { ...shape, ...staticWalk(shape), ownedSource: ownedSources(nodes, shape.incoming, shape.outgoing, edgeSource) };
}

/** GraphShape.ownedSource, or undefined when no node has one. */
function ownedSources(nodes: readonly CompiledNode[], incoming: readonly Int32Array[], outgoing: readonly Int32Array[], edgeSource: Int32Array): Int32Array | undefined {
  // A node reading `$nodes` sees every output: none may change once made.
  if (nodes.some((n) => n.readsNodes)) return undefined;
  const sources = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, nid) => {
    if (!node.mergesInPlace || incoming[nid].length !== 1) return;
    const source = edgeSource[incoming[nid][0]];
    if (outgoing[source].length === 1) sources[nid] = source;
  });
  return sources.some((s) => s >= 0) ? sources : undefined;
}

/** The solve's clock for ZEN: `now` read from the context only when an expression asks. */
class SolveClock implements GraphClock {
  readonly #ctx: EvaluationContext;
  readonly random: () => number;

  constructor(ctx: EvaluationContext) {
    this.#ctx = ctx;
    this.random = ctx.random ?? Math.random;
  }

  get now(): number {
    return this.#ctx.now;
  }
}

export const compileDecisionGraph: RuleCompiler<'decision-graph'> = ({ document, graph: content }) => {
  const compiler = new ExpressionCompiler();
  const nodes = content.nodes.map((node, i) => compileNode(node, `decisionGraph.nodes[${i}]`, compiler));
  if (compiler.problems.length > 0) throw new ValidationError(compiler.problems);
  const shape = shapeOf(content, nodes);
  const dependencies: RuleRef[] = [];
  for (const node of content.nodes) {
    if (node.type !== 'decisionNode') continue;
    const idOrAlias = decisionKeyToRef(node.content.key);
    if (!dependencies.some((d) => d.idOrAlias === idOrAlias)) dependencies.push({ idOrAlias });
  }
  const async = nodes.some((n) => n.async);

  const rule = {
    type: 'decision-graph',
    ruleId: typeof document.ruleId === 'string' ? document.ruleId : undefined,
    ruleAlias: typeof document.ruleAlias === 'string' ? document.ruleAlias : undefined,
    version: typeof document.version === 'number' ? document.version : undefined,
    name: String(document.name),
    async,
    dependencies,
    ...(compiler.warnings.length > 0 ? { warnings: compiler.warnings } : {}),
  } as const;
  const label = ruleLabel(rule);
  const topChain = [label];

  const walk = (input: unknown, ctx: EvaluationContext, parentNodes: Record<string, unknown> | undefined, chain: readonly string[]) =>
    new GraphWalk(shape, input, ctx, new SolveClock(ctx), chain.length === 0 ? topChain : [...chain, label], parentNodes);

  const solved = (walker: GraphWalk, answer: unknown): SolveResult =>
    walker.traces ? { result: [answer as Json], trace: walker.traces } : { result: [answer as Json] };

  const subGraph: SubGraph = {
    evaluateGraph(input, ctx, parentNodes, chain): NodeOutcome | Promise<NodeOutcome> {
      const walker = walk(input, ctx, parentNodes, chain);
      const answer = walker.run();
      if (answer instanceof Promise) return answer.then((a) => (walker.traces ? { output: a, traceData: walker.traces } : { output: a }));
      return walker.traces ? { output: answer, traceData: walker.traces } : { output: answer };
    },
  };

  const compiled: CompiledRule & { [SUB_GRAPH]: SubGraph } = {
    ...rule,
    [SUB_GRAPH]: subGraph,
    evaluate(input, ctx) {
      const walker = walk(input, ctx, undefined, []);
      const answer = walker.run();
      return answer instanceof Promise ? answer.then((a) => solved(walker, a)) : solved(walker, answer);
    },
  };
  return compiled;
};
