// One engine-neutral description of a decision table. Every benchmark table is written once in this form and
// rendered for each engine (to-verdict.ts, to-jdm.ts, to-jre.ts), so the rules the engines race on cannot drift.

export type Scalar = string | number | boolean;

/** Expressions for function cells: rendered as DecisionRules function text for Verdict and as ZEN expressions. */
export type Expr =
  | { kind: 'ref'; path: string }
  | { kind: 'lit'; value: Scalar }
  | { kind: 'call'; fn: ExprFn; args: Expr[] };

export const EXPR_FUNCTIONS = [
  'add', 'sub', 'mul', 'div', 'round2', 'floor', 'abs', 'min', 'max',
  'gt', 'ge', 'lt', 'le', 'eq', 'and', 'or', 'not', 'if',
  'upper', 'concat', 'len', 'endsWith', 'startsWith',
] as const;
export type ExprFn = (typeof EXPR_FUNCTIONS)[number];

export type Condition =
  | { op: 'any' }
  | { op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'; value: Scalar }
  | { op: 'in' | 'notIn'; values: Scalar[] }
  /** Inclusive on both ends. */
  | { op: 'between'; lo: number; hi: number }
  /** Text tests on the column's own value (ZEN `endsWith($, 'x')`). */
  | { op: 'endsWith' | 'startsWith'; value: string }
  /** A boolean expression over the input (a function condition cell). */
  | { op: 'expr'; expr: Expr };

export interface TableColumn {
  /** Dotted path into the input (conditions) or the output (results). */
  field: string;
  name?: string;
}

export interface TableRow {
  /** One condition per input column, same order. */
  when: Condition[];
  /** One value per output column, same order: a literal or an expression. */
  then: Expr[];
}

export interface TableSpec {
  name: string;
  /** `first`: ZEN first hit / Verdict FIRST_MATCH; `collect`: ZEN collect / Verdict STANDARD. */
  hitPolicy: 'first' | 'collect';
  inputs: TableColumn[];
  outputs: TableColumn[];
  rows: TableRow[];
}

export const ref = (path: string): Expr => ({ kind: 'ref', path });
export const lit = (value: Scalar): Expr => ({ kind: 'lit', value });
export const call = (fn: ExprFn, ...args: Expr[]): Expr => ({ kind: 'call', fn, args });
export const any = (): Condition => ({ op: 'any' });

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

/** Writes `value` at a dotted path, creating objects on the way (`a.b` -> {a:{b:value}}). */
export function setDotted(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const next = node[keys[i]];
    if (next === null || typeof next !== 'object') node[keys[i]] = {};
    node = node[keys[i]] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}

export function getDotted(source: unknown, path: string): unknown {
  let node = source;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
