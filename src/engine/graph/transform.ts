// zen's transform attributes of tables, expression nodes and sub-decisions (nodes/transform_attributes.rs):
// `inputField` picks the node's input by an expression, `executionMode: loop` runs the node once per element of
// that input, `outputPath` nests the answer under a dotted path and `passThrough` merges it over the node's input.
import { RuleError } from '../errors.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import type { JdmTransformAttributes } from '../../rules/decision-graph.ts';
import type { ExpressionCompiler, ZenProgram } from './expressions.ts';
import { nodeLabel, nodeLocals } from './node.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from './node.ts';
import { dotInsert, isObject, jsonOf, mergeInto, mergeTop } from './values.ts';

export interface Transform {
  readonly inputField: ZenProgram | undefined;
  readonly inputFieldText: string;
  readonly outputPath: string | undefined;
  readonly loop: boolean;
  readonly passThrough: boolean;
}

const blank = (value: string | null | undefined): string | undefined => (value == null || value.trim() === '' ? undefined : value);

export function readTransform(content: JdmTransformAttributes, path: string, compiler: ExpressionCompiler): Transform {
  const inputFieldText = blank(content.inputField);
  return {
    inputField: inputFieldText === undefined ? undefined : compiler.compile(inputFieldText, 'standard', `${path}.inputField`),
    inputFieldText: inputFieldText ?? '',
    outputPath: blank(content.outputPath),
    loop: content.executionMode === 'loop',
    passThrough: content.passThrough === true,
  };
}

/**
 * Whether a node may merge its passThrough answer into an owned input (CompiledNode.mergesInPlace): a single run
 * (not a loop) whose expressions cannot answer the input object itself (`$root`), which would make it hold itself.
 */
export function mergesInPlace(transform: Transform, content: unknown): boolean {
  return transform.passThrough && !transform.loop && !JSON.stringify(content).includes('$root');
}

/** True when the transform changes nothing: the node's handler is its evaluate. */
export function isPlain(transform: Transform): boolean {
  return !transform.inputField && !transform.outputPath && !transform.loop && !transform.passThrough;
}

type Handler = (input: unknown, run: NodeRun) => MaybePromise<NodeOutcome>;

/** The node's evaluate: `handle` wrapped in the transform (or `handle` itself when there is none). */
export function transformed(node: Pick<CompiledNode, 'id' | 'name' | 'type' | 'readsNodes'>, transform: Transform, handle: Handler): Handler {
  if (isPlain(transform)) return handle;
  return (nodeInput, run) => {
    let input = nodeInput;
    if (transform.inputField) {
      try {
        input = jsonOf(transform.inputField.run(nodeInput, nodeLocals(node, run), run.clock));
      } catch (error) {
        throw new RuleError(`Failed to evaluate expression "${transform.inputFieldText}": ${(error as Error).message}`, nodeLabel(node));
      }
    }
    if (!transform.loop) {
      const inPlace = run.inputOwned;
      const outcome = handle(input, run);
      return outcome instanceof Promise
        ? outcome.then((o) => finish(transform, nodeInput, o.output, o.traceData, inPlace))
        : finish(transform, nodeInput, outcome.output, outcome.traceData, inPlace);
    }
    if (!Array.isArray(input)) throw new RuleError(`Expected an array for executionMode "loop" (got ${input === null ? 'null' : typeof input})`, nodeLabel(node));
    return loop(transform, handle, nodeInput, input, run, [], run.trace ? [] : undefined, 0);
  };
}

function loop(transform: Transform, handle: Handler, nodeInput: unknown, items: unknown[], run: NodeRun, outputs: unknown[], traces: unknown[] | undefined, from: number): MaybePromise<NodeOutcome> {
  for (let i = from; i < items.length; i++) {
    const outcome = handle(items[i], run);
    if (outcome instanceof Promise) return outcome.then((o) => loop(transform, handle, nodeInput, items, run, pushItem(transform, items[i], o, outputs, traces), traces, i + 1));
    pushItem(transform, items[i], outcome, outputs, traces);
  }
  return finish(transform, nodeInput, outputs, traces, false);
}

function pushItem(transform: Transform, item: unknown, outcome: NodeOutcome, outputs: unknown[], traces: unknown[] | undefined): unknown[] {
  if (traces && outcome.traceData !== undefined) traces.push(outcome.traceData);
  outputs.push(transform.passThrough ? mergeTop(item, outcome.output) : outcome.output);
  return outputs;
}

/**
 * The node's outcome from its handler's answer: nested under outputPath, merged over the node's input with
 * passThrough (into the input itself when it is owned, `inPlace`; the merge's copy is then owned by the outcome).
 */
function finish(transform: Transform, nodeInput: unknown, answer: unknown, traceData: unknown, inPlace: boolean): NodeOutcome {
  let output = answer;
  if (transform.outputPath !== undefined) {
    const nested: Record<string, unknown> = {};
    dotInsert(nested, transform.outputPath, output);
    output = nested;
  }
  if (!transform.passThrough) return { output, traceData };
  if (inPlace && isObject(nodeInput) && !Array.isArray(output)) {
    if (isObject(output)) mergeInto(nodeInput, output);
    return { output: nodeInput, traceData, owned: true };
  }
  const merged = mergeTop(nodeInput, output);
  // A copy mergeTop made (neither the input nor the answer as they were) is this outcome's alone.
  return { output: merged, traceData, owned: merged !== nodeInput && merged !== output && isObject(merged) };
}
