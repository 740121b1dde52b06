// Two versions of a flow compared node by node (matched by node id) and connection by connection (matched by
// source node, port and target node): what was added, removed, changed (which fields) or only moved.
import type { RuleDocument } from '../../api/types.ts';
import type { FlowGraph, GraphNode } from './graph.ts';
import { label as nodeLabel } from './graph.ts';
import type { FlowFormat } from './format.ts';
import { typeLabel } from './format.ts';

export type ChangeKind = 'added' | 'removed' | 'changed' | 'moved';

export interface FlowDifference {
  kind: ChangeKind;
  what: 'node' | 'connection' | 'model';
  /** "Business rule rule", "rule (after) → assign", "Input model". */
  subject: string;
  /** What changed inside a changed node: "name: rule → pricing", "data.mapping". */
  details: string[];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The paths (two levels deep) where two values differ, e.g. `data.mapping`, `data.rule`. */
function changedPaths(a: unknown, b: unknown, path: string, depth: number): string[] {
  if (same(a, b)) return [];
  const objects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
  if (!objects || depth === 0) return [path];
  const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])];
  return keys.flatMap((k) => changedPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k, depth - 1));
}

function connectionKeys(format: FlowFormat, graph: FlowGraph): Map<string, string> {
  const keys = new Map<string, string>();
  for (const e of graph.edges) {
    const source = graph.nodes.find((n) => n.id === e.source);
    const target = graph.nodes.find((n) => n.id === e.target);
    if (!source || !target) continue;
    const port = source.ports.find((p) => p.id === e.sourcePort);
    const portName = port ? format.portLabel(source, port) : 'out';
    keys.set(`${source.id}|${portName}|${target.id}`, `${nodeLabel(source)}${portName === 'out' ? '' : ` (${portName})`} → ${nodeLabel(target)}`);
  }
  return keys;
}

export function diffFlows(format: FlowFormat, left: RuleDocument, right: RuleDocument): FlowDifference[] {
  const a = format.fromDocument(left);
  const b = format.fromDocument(right);
  const subject = (n: GraphNode) => `${typeLabel(format, n.type)}${n.name !== undefined && n.name !== n.type ? ` ${n.name}` : ''}`;
  const out: FlowDifference[] = [];
  for (const [key, title] of [['inputSchema', 'Input model'], ['outputSchema', 'Output model']] as const) {
    if (!same(left[key] ?? {}, right[key] ?? {})) out.push({ kind: 'changed', what: 'model', subject: title, details: changedPaths(left[key] ?? {}, right[key] ?? {}, '', 3) });
  }
  for (const n of b.nodes) {
    const before = a.nodes.find((m) => m.id === n.id);
    if (!before) {
      out.push({ kind: 'added', what: 'node', subject: subject(n), details: [] });
      continue;
    }
    const details = [
      ...(before.type !== n.type ? [`type: ${before.type} → ${n.type}`] : []),
      ...(before.name !== n.name ? [`name: ${before.name ?? '(none)'} → ${n.name ?? '(none)'}`] : []),
      ...changedPaths(before.data, n.data, 'data', 2),
    ];
    if (details.length > 0) out.push({ kind: 'changed', what: 'node', subject: subject(n), details });
    else if (!same(before.position, n.position)) out.push({ kind: 'moved', what: 'node', subject: subject(n), details: [] });
  }
  for (const n of a.nodes) if (!b.nodes.some((m) => m.id === n.id)) out.push({ kind: 'removed', what: 'node', subject: subject(n), details: [] });
  const ka = connectionKeys(format, a);
  const kb = connectionKeys(format, b);
  for (const [key, title] of kb) if (!ka.has(key)) out.push({ kind: 'added', what: 'connection', subject: title, details: [] });
  for (const [key, title] of ka) if (!kb.has(key)) out.push({ kind: 'removed', what: 'connection', subject: title, details: [] });
  return out;
}
