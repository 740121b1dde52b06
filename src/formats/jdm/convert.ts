// Exact conversion between a DecisionRules decision table and a JDM graph `input -> decision table -> output`
// (docs/jdm.md "Converting"). A DecisionRules table has no hit policy of its own (the strategy is the caller's), so
// going to JDM names one: `first` (what FIRST_MATCH answers) or `collect` (what STANDARD answers). Coming back,
// the table's hit policy is returned for the caller to solve with. Anything without an exact counterpart throws
// CannotConvertError listing every place and reason.
import { fromVerdictTable, toVerdictTable } from '../decisionrules/table.ts';
import type { TableSpec } from './table-spec.ts';
import { CannotConvertError } from './table-spec.ts';
import { fromJdmTable, singleTableNode, toJdmDecision } from './zen-table.ts';
import type { JdmDecision } from './zen-table.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Envelope fields that mean the same in both rule types; ids, versions and statuses stay with the original. */
const SHARED_FIELDS = ['name', 'ruleAlias', 'description', 'tags', 'inputSchema', 'outputSchema'] as const;

function envelope(document: Json): Json {
  const out: Json = {};
  for (const field of SHARED_FIELDS) if (document[field] !== undefined) out[field] = document[field];
  return out;
}

/** A DecisionRules decision table as a `decision-graph` document with the given hit policy. */
export function tableToGraph(document: Json, hitPolicy: TableSpec['hitPolicy']): Json {
  const spec = fromVerdictTable(document, hitPolicy);
  // The rendering throws on a literal a cell cannot hold; that too is a refusal, not a crash.
  return { type: 'decision-graph', ...envelope(document), outputSchema: document.outputSchema ?? {}, decisionGraph: toJdmDecision(spec) };
}

export interface ConvertedTable {
  document: Json;
  /** The JDM table's hit policy: solve the table FIRST_MATCH for `first`, STANDARD for `collect`. */
  hitPolicy: TableSpec['hitPolicy'];
}

/** A `decision-graph` document that is exactly input -> table -> output, as a DecisionRules decision table. */
export function graphToTable(document: Json): ConvertedTable {
  if (document.type !== 'decision-graph') throw new CannotConvertError([{ path: 'type', reason: `a ${String(document.type)} is not a decision graph` }]);
  const graph = isObject(document.decisionGraph) ? document.decisionGraph : {};
  const jdm: JdmDecision = { nodes: Array.isArray(graph.nodes) ? (graph.nodes as JdmDecision['nodes']) : [], edges: Array.isArray(graph.edges) ? (graph.edges as JdmDecision['edges']) : [] };
  const { node, path } = singleTableNode(jdm, 'decisionGraph');
  const name = typeof document.name === 'string' ? document.name : node.name;
  const spec = fromJdmTable(node, name, path);
  let table: Json;
  try {
    table = toVerdictTable(spec);
  } catch (err) {
    if (err instanceof CannotConvertError) throw new CannotConvertError(err.unsupported.map((u) => ({ ...u, path: u.path || `${path}.content.rules` })));
    throw err;
  }
  const { status: _status, version: _version, ...rest } = table;
  return { document: { ...rest, ...envelope(document), type: 'decision-table' }, hitPolicy: spec.hitPolicy };
}

export interface GraphTable {
  /** The node's name (its id when unnamed). */
  name: string;
  /** Where the node is: `decisionGraph.nodes[2]`. */
  path: string;
  /** The node as a DecisionRules decision table, when it converts exactly. */
  table?: Json;
  hitPolicy?: TableSpec['hitPolicy'];
  /** Why it does not convert. */
  unsupported?: CannotConvertError['unsupported'];
}

/** Every decision table node of a graph as a DecisionRules table where exact (the analysis of `verdict lint`). */
export function graphTables(document: Json): GraphTable[] {
  const graph = isObject(document.decisionGraph) ? document.decisionGraph : {};
  const nodes = Array.isArray(graph.nodes) ? (graph.nodes as JdmDecision['nodes']) : [];
  return nodes.flatMap((node, i): GraphTable[] => {
    if (!isObject(node) || node.type !== 'decisionTableNode') return [];
    const path = `decisionGraph.nodes[${i}]`;
    const name = typeof node.name === 'string' && node.name !== '' ? node.name : String(node.id);
    try {
      const spec = fromJdmTable(node, name, path);
      return [{ name, path, table: toVerdictTable(spec), hitPolicy: spec.hitPolicy }];
    } catch (err) {
      if (err instanceof CannotConvertError) return [{ name, path, unsupported: err.unsupported }];
      throw err;
    }
  });
}
