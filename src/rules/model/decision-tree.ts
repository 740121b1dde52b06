// The typed model of a decision tree (rule-format §5.1), read by src/rules/decision-tree.ts in the pass that
// checks it; the engine compiles trees from this only (src/engine/tree/compile.ts). Every node keeps its JSON
// path (`nodes[0].nodes[2]`) for messages, and its id as text (its path when it has none).
import type { JsonObject } from '../check.ts';
import type { OutputScalarValue, ScalarCondition } from './cells.ts';

/** A block of the tree: `if` (its conditions and what runs when they hold), `else`, `then` (its results). */
export type TreeBlock =
  | { readonly kind: 'if'; readonly id: string; readonly path: string; readonly conditions: readonly TreeCondition[]; readonly body: readonly TreeBlock[] }
  | { readonly kind: 'else'; readonly id: string; readonly path: string; readonly body: readonly TreeBlock[] }
  | { readonly kind: 'then'; readonly id: string; readonly path: string; readonly results: readonly TreeResult[] };

/** A condition of an `if`: one test, or `logic_or` of `logic_group`s of tests. */
export type TreeCondition =
  | {
      readonly kind: 'condition';
      readonly id: string;
      readonly path: string;
      /** The tested path, trimmed; empty for a function condition, which reads its own variables. */
      readonly modelVariablePath: string;
      readonly scalarCondition: ScalarCondition;
    }
  | { readonly kind: 'or' | 'group'; readonly id: string; readonly path: string; readonly items: readonly TreeCondition[] };

/** A result of a `then` block: the output path it writes and its value. */
export interface TreeResult {
  readonly kind: 'result';
  readonly id: string;
  readonly path: string;
  /** The output path, trimmed. */
  readonly modelVariablePath: string;
  readonly outputScalarValue: OutputScalarValue;
}

export interface DecisionTreeModel {
  readonly type: 'decision-tree';
  readonly document: JsonObject;
  /** The top level: `if`, `else` and `then` blocks, in document order. */
  readonly blocks: readonly TreeBlock[];
}
