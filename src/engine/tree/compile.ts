// Decision trees (§5): compiles the `nodes` of a `decision-tree` document into blocks once; tree/evaluate.ts
// walks them per solve.
import { ValidationError, type Problem } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';
import { ruleIdentity } from '../rule-identity.ts';
import type { CompileOptions, CompiledRule, RuleRef } from '../types.ts';
import { compilePathGetter, getBelow, parsePath, type PathSegment } from '../path.ts';
import { compileCondition, type CellEnvironment } from '../cells/condition.ts';
import { compileResultValue } from '../cells/result.ts';
import { assignSlots, OutputLayout } from '../cells/output-layout.ts';
import { pathsOverlap, ruleVariablesOf, staticResolver } from '../cells/scope.ts';
import { DecisionTree, type BlockNode, type ConditionNode, type ResultNode } from './evaluate.ts';
import type { DecisionTreeModel, TreeBlock, TreeCondition, TreeResult } from '../../rules/model/decision-tree.ts';

export const compileDecisionTree: RuleCompiler<'decision-tree'> = (model, options) => compileDecisionTreeWith(model, options);

export interface TreeCompileOptions {
  /** Replaces the expression compiler for function cells (tests use a double). */
  compileExpression?: CellEnvironment['compileExpression'];
}

/** compileDecisionTree with engine-internal knobs. The model is src/rules' (readRule). */
export function compileDecisionTreeWith(model: DecisionTreeModel, options: Required<CompileOptions>, treeOptions: TreeCompileOptions = {}): CompiledRule {
  const { document } = model;
  const problems: Problem[] = [];
  const variables = ruleVariablesOf(document.userVariables);

  // Every result path gets a slot; references to them can only be resolved per solve (which THEN fired?).
  const resultPaths: string[] = [];
  collectResultPaths(model.blocks, resultPaths);
  const slots = assignSlots(resultPaths);
  const layout = new OutputLayout(slots.paths, document.outputSchema, slots.priority);
  const slotByPath = new Map(resultPaths.map((path, i) => [path, slots.slotOf[i]!]));
  const outputSegments = slots.paths.map((path) => parsePath(path));
  const env: CellEnvironment = {
    timeZone: options.timeZone,
    resolveStatic: staticResolver(variables, (ref) => outputSegments.some((segments) => pathsOverlap(segments, ref.segments))),
    expressionOptions: { associativity: options.arithmeticAssociativity },
    compileExpression: treeOptions.compileExpression,
    // Function cells that do not compile become invalid cells (docs/decisions/tables-invalid-cells.md).
    warnings: [],
  };
  const refs: RuleRef[] = [];
  const compiler: NodeCompiler = { problems, env, variables, slotByPath, refs, async: false };
  const blocks = compileBlocks(model.blocks, compiler);
  if (problems.length > 0) throw new ValidationError(problems);

  return new DecisionTree({
    ...ruleIdentity(document),
    blocks,
    layout,
    variables,
    async: compiler.async,
    dependencies: dedupeRefs(refs),
    warnings: env.warnings ?? [],
  });
}

interface NodeCompiler {
  readonly problems: Problem[];
  readonly env: CellEnvironment;
  readonly variables: ReadonlyMap<string, unknown>;
  readonly slotByPath: ReadonlyMap<string, number>;
  readonly refs: RuleRef[];
  async: boolean;
}

/** The result paths in document order (results sit only in `then` blocks). */
function collectResultPaths(blocks: readonly TreeBlock[], out: string[]): void {
  for (const block of blocks) {
    if (block.kind === 'then') {
      for (const result of block.results) if (result.modelVariablePath !== '') out.push(result.modelVariablePath);
    } else collectResultPaths(block.body, out);
  }
}

/** A list of blocks: `if`, `else` and `then` (§5.1). */
function compileBlocks(blocks: readonly TreeBlock[], c: NodeCompiler): BlockNode[] {
  return blocks.map((block): BlockNode => {
    switch (block.kind) {
      case 'if': {
        const conditions: ConditionNode[] = [];
        for (const condition of block.conditions) {
          const compiled = compileConditionNode(condition, c);
          if (compiled) conditions.push(compiled);
        }
        return { kind: 'if', id: block.id, conditions, body: compileBlocks(block.body, c) };
      }
      case 'else':
        return { kind: 'else', id: block.id, body: compileBlocks(block.body, c) };
      case 'then':
        return { kind: 'then', id: block.id, results: compileResults(block.results, c) };
    }
  });
}

function compileConditionNode(node: TreeCondition, c: NodeCompiler): ConditionNode | undefined {
  if (node.kind !== 'condition') {
    const items: ConditionNode[] = [];
    for (const item of node.items) {
      const compiled = compileConditionNode(item, c);
      if (compiled) items.push(compiled);
    }
    return { kind: node.kind, id: node.id, items };
  }
  const path = node.modelVariablePath;
  if (path === '') {
    c.problems.push({ path: `${node.path}.modelVariablePath`, message: 'a condition node needs the path it tests' });
    return undefined;
  }
  const condition = compileCondition(node.scalarCondition, `${node.path}.scalarCondition`, c.env, c.problems);
  if (condition.async) c.async = true;
  c.refs.push(...condition.ruleRefs);
  return { kind: 'condition', id: node.id, path, read: leftReader(path, c.variables), condition };
}

/** The tested value (§5.2): a rule variable of that name, else the input path. */
function leftReader(path: string, variables: ReadonlyMap<string, unknown>): (input: unknown) => unknown {
  const segments: readonly PathSegment[] = parsePath(path);
  const head = segments[0];
  if (typeof head === 'string' && variables.has(head)) {
    const value = getBelow(variables.get(head), segments, 1);
    if (value !== undefined) return () => value;
  }
  return compilePathGetter(path);
}

function compileResults(nodes: readonly TreeResult[], c: NodeCompiler): ResultNode[] {
  const results: ResultNode[] = [];
  for (const node of nodes) {
    const path = node.modelVariablePath;
    if (path === '') {
      c.problems.push({ path: `${node.path}.modelVariablePath`, message: 'a result node needs the output path it writes' });
      continue;
    }
    const value = compileResultValue(node.outputScalarValue, `${node.path}.outputScalarValue`, c.env, c.problems);
    if (value.async) c.async = true;
    c.refs.push(...value.ruleRefs);
    results.push({ id: node.id, path, slot: c.slotByPath.get(path)!, value });
  }
  return results;
}

function dedupeRefs(refs: readonly RuleRef[]): RuleRef[] {
  const seen = new Map<string, RuleRef>();
  for (const ref of refs) seen.set(`${ref.idOrAlias}\u0000${ref.version ?? ''}`, ref);
  return [...seen.values()];
}
