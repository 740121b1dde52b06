// Writing a rule document as a GoRules JDM file. A `decision-graph` is written back as it was read (its graph's
// fields untouched, the contentType first); a decision table converts when exact (convert.ts); any other type is
// refused with the reason. Tests given (a rule's suites in the JDM form) become the file's `tests`.
import { JDM_CONTENT_TYPE } from './read.ts';
import type { JdmTest } from './read.ts';
import { CannotConvertError } from './table-spec.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export function writeJdm(document: Json, tests: readonly JdmTest[] = []): Json {
  if (document.type !== 'decision-graph') {
    throw new CannotConvertError([{ path: 'type', reason: `a ${String(document.type)} is not a decision graph; convert a decision table with verdict convert --to jdm` }]);
  }
  const graph = isObject(document.decisionGraph) ? document.decisionGraph : {};
  return {
    contentType: JDM_CONTENT_TYPE,
    ...graph,
    nodes: Array.isArray(graph.nodes) ? graph.nodes : [],
    edges: Array.isArray(graph.edges) ? graph.edges : [],
    ...(tests.length > 0 ? { tests: tests.map((t) => ({ input: t.input, output: t.output })) } : {}),
  };
}
