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

const CONDITION_TYPES = new Set(['condition', 'logic_or', 'logic_group']);

export const compileDecisionTree: RuleCompiler<'decision-tree'> = (model, options) => compileDecisionTreeWith(model.document, options);

export interface TreeCompileOptions {
  /** Replaces the expression compiler for function cells (tests use a double). */
  compileExpression?: CellEnvironment['compileExpression'];
}

/** compileDecisionTree with engine-internal knobs. */
export function compileDecisionTreeWith(document: Record<string, unknown>, options: Required<CompileOptions>, treeOptions: TreeCompileOptions = {}): CompiledRule {
  const problems: Problem[] = [];
  const variables = ruleVariablesOf(document.userVariables);
  const rawNodes = document.nodes ?? [];
  if (!Array.isArray(rawNodes)) throw new ValidationError([{ path: 'nodes', message: 'a decision tree needs nodes as an array' }]);

  // Every result path gets a slot; references to them can only be resolved per solve (which THEN fired?).
  const resultPaths: string[] = [];
  collectResultPaths(rawNodes, resultPaths);
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
  const blocks = compileBlocks(rawNodes, 'nodes', compiler);
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

function collectResultPaths(nodes: unknown, out: string[]): void {
  if (!Array.isArray(nodes)) return;
  for (const node of nodes) {
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    if (record.type === 'result' && typeof record.modelVariablePath === 'string' && record.modelVariablePath.trim() !== '') {
      out.push(record.modelVariablePath.trim());
    }
    collectResultPaths(record.nodes, out);
  }
}

function nodeRecord(node: unknown, where: string, problems: Problem[]): Record<string, unknown> | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    problems.push({ path: where, message: 'a tree node must be an object with id and type' });
    return undefined;
  }
  return node as Record<string, unknown>;
}

function nodeId(record: Record<string, unknown>, where: string): string {
  return typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : where;
}

function children(record: Record<string, unknown>, where: string, problems: Problem[]): unknown[] {
  if (record.nodes === undefined || record.nodes === null) return [];
  if (!Array.isArray(record.nodes)) {
    problems.push({ path: `${where}.nodes`, message: 'must be an array of nodes' });
    return [];
  }
  return record.nodes;
}

/** A list of blocks: `if`, `else` and `then` (§5.1). */
function compileBlocks(nodes: readonly unknown[], where: string, c: NodeCompiler, positions?: readonly number[]): BlockNode[] {
  const blocks: BlockNode[] = [];
  nodes.forEach((node, i) => {
    const at = `${where}[${positions?.[i] ?? i}]`;
    const record = nodeRecord(node, at, c.problems);
    if (!record) return;
    const id = nodeId(record, at);
    const kids = children(record, at, c.problems);
    switch (record.type) {
      case 'if': {
        const conditions: ConditionNode[] = [];
        const body: unknown[] = [];
        const bodyIndex: number[] = [];
        kids.forEach((kid, k) => {
          const type = kid !== null && typeof kid === 'object' ? (kid as Record<string, unknown>).type : undefined;
          if (typeof type === 'string' && CONDITION_TYPES.has(type)) {
            const compiled = compileConditionNode(kid, `${at}.nodes[${k}]`, c);
            if (compiled) conditions.push(compiled);
          } else {
            body.push(kid);
            bodyIndex.push(k);
          }
        });
        blocks.push({ kind: 'if', id, conditions, body: compileBlocks(body, `${at}.nodes`, c, bodyIndex) });
        break;
      }
      case 'else':
        blocks.push({ kind: 'else', id, body: compileBlocks(kids, `${at}.nodes`, c) });
        break;
      case 'then':
        blocks.push({ kind: 'then', id, results: compileResults(kids, `${at}.nodes`, c) });
        break;
      default:
        c.problems.push({
          path: `${at}.type`,
          message: CONDITION_TYPES.has(String(record.type)) || record.type === 'result'
            ? `a ${String(record.type)} node must sit inside ${record.type === 'result' ? 'a then block' : 'an if block'}`
            : `unknown tree node type ${JSON.stringify(record.type)} (expected if, else or then)`,
        });
    }
  });
  return blocks;
}

function compileConditionNode(node: unknown, where: string, c: NodeCompiler): ConditionNode | undefined {
  const record = nodeRecord(node, where, c.problems);
  if (!record) return undefined;
  const id = nodeId(record, where);
  if (record.type === 'logic_or' || record.type === 'logic_group') {
    const items: ConditionNode[] = [];
    children(record, where, c.problems).forEach((kid, k) => {
      const compiled = compileConditionNode(kid, `${where}.nodes[${k}]`, c);
      if (compiled) items.push(compiled);
    });
    return { kind: record.type === 'logic_or' ? 'or' : 'group', id, items };
  }
  const path = typeof record.modelVariablePath === 'string' ? record.modelVariablePath.trim() : '';
  if (path === '') {
    c.problems.push({ path: `${where}.modelVariablePath`, message: 'a condition node needs the path it tests' });
    return undefined;
  }
  const condition = compileCondition(record.scalarCondition, `${where}.scalarCondition`, c.env, c.problems);
  if (condition.async) c.async = true;
  c.refs.push(...condition.ruleRefs);
  return { kind: 'condition', id, path, read: leftReader(path, c.variables), condition };
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

function compileResults(nodes: readonly unknown[], where: string, c: NodeCompiler): ResultNode[] {
  const results: ResultNode[] = [];
  nodes.forEach((node, i) => {
    const at = `${where}[${i}]`;
    const record = nodeRecord(node, at, c.problems);
    if (!record) return;
    if (record.type !== 'result') {
      c.problems.push({ path: `${at}.type`, message: `a then block holds result nodes, not ${JSON.stringify(record.type)}` });
      return;
    }
    const path = typeof record.modelVariablePath === 'string' ? record.modelVariablePath.trim() : '';
    if (path === '') {
      c.problems.push({ path: `${at}.modelVariablePath`, message: 'a result node needs the output path it writes' });
      return;
    }
    const value = compileResultValue(record.outputScalarValue, `${at}.outputScalarValue`, c.env, c.problems);
    if (value.async) c.async = true;
    c.refs.push(...value.ruleRefs);
    results.push({ id: nodeId(record, at), path, slot: c.slotByPath.get(path)!, value });
  });
  return results;
}

function dedupeRefs(refs: readonly RuleRef[]): RuleRef[] {
  const seen = new Map<string, RuleRef>();
  for (const ref of refs) seen.set(`${ref.idOrAlias}\u0000${ref.version ?? ''}`, ref);
  return [...seen.values()];
}
