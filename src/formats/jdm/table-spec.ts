// One engine-neutral description of a decision table: the common ground of a DecisionRules table and a JDM
// decision table node. `verdict convert` goes DecisionRules -> TableSpec -> JDM and back, so a cell either has a
// meaning both formats state exactly or the conversion refuses it; the bench renders its tables from it too.

export type Scalar = string | number | boolean;

/** Expressions for function cells: rendered as DecisionRules function text and as ZEN expressions. */
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

/** What a format cannot express, with where it is (`decisionTable.rows[2].cells[1]`) and why. */
export interface Unsupported {
  path: string;
  reason: string;
}

/** A conversion that is not exact: every cell or setting that stops it, none dropped silently. */
export class CannotConvertError extends Error {
  readonly unsupported: Unsupported[];
  constructor(unsupported: Unsupported[]) {
    super(`cannot convert exactly: ${unsupported.map((u) => `${u.path || '(rule)'}: ${u.reason}`).join('; ')}`);
    this.name = 'CannotConvertError';
    this.unsupported = unsupported;
  }
}

export const ref = (path: string): Expr => ({ kind: 'ref', path });
export const lit = (value: Scalar): Expr => ({ kind: 'lit', value });
export const call = (fn: ExprFn, ...args: Expr[]): Expr => ({ kind: 'call', fn, args });
export const any = (): Condition => ({ op: 'any' });

/** Writes `value` at a dotted path, creating objects on the way (`a.b` -> {a:{b:value}}). */
export function setDotted(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const next = node[keys[i]!];
    if (next === null || typeof next !== 'object') node[keys[i]!] = {};
    node = node[keys[i]!] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}
