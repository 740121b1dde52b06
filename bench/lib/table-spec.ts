// One engine-neutral description of a decision table. Every benchmark table is written once in this form and
// rendered for each engine (to-verdict.ts, to-jdm.ts, to-jre.ts), so the rules the engines race on cannot drift.

// The types live in src/formats/jdm/table-spec.ts: `verdict convert` converts through the same description.
export type { Condition, Expr, ExprFn, Scalar, TableColumn, TableRow, TableSpec } from '../../src/formats/jdm/table-spec.ts';
export { EXPR_FUNCTIONS, any, call, lit, ref, setDotted } from '../../src/formats/jdm/table-spec.ts';
import type { TableSpec } from '../../src/formats/jdm/table-spec.ts';

/** Checks the shape so that a malformed generated table fails loudly before any engine sees it. */
export function assertTableSpec(spec: TableSpec): void {
  spec.rows.forEach((row, index) => {
    if (row.when.length !== spec.inputs.length) {
      throw new Error(`${spec.name}: row ${index + 1} has ${row.when.length} conditions for ${spec.inputs.length} input columns`);
    }
    if (row.then.length !== spec.outputs.length) {
      throw new Error(`${spec.name}: row ${index + 1} has ${row.then.length} results for ${spec.outputs.length} output columns`);
    }
  });
}

/** True when every cell can be stated without function cells (json-rules-engine has no expressions). */
export function usesExpressions(spec: TableSpec): boolean {
  return spec.rows.some(
    (row) => row.when.some((c) => c.op === 'expr') || row.then.some((e) => e.kind === 'call'),
  );
}

/** Deterministic pseudo-random numbers (mulberry32), so generated tables and inputs are the same every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

export function intBetween(random: () => number, lo: number, hi: number): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}

export function getDotted(source: unknown, path: string): unknown {
  let node = source;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
