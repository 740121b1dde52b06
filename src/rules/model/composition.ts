// The typed model of a rule flow (`composition`, rule-format §8.1), read by src/rules/composition.ts in the pass
// that checks it: the dataTree's nodes from `start` through rule nodes to the end node, with their mappings.
import type { JsonObject } from '../check.ts';

/** One input field of a node: written at `key`, read from node `source`'s output (at `sourceVariable`). */
export interface CompositionMapping {
  readonly key: string;
  /** A node's globalVariable, or `start` for the flow input. */
  readonly source: string;
  readonly sourceVariable?: string;
}

export interface CompositionNode {
  /** The node's name (`globalVariable`), by which mappings read its output. */
  readonly name: string;
  /** JSON path of the node in the document (`dataTree.children[0]`). */
  readonly path: string;
  /** The rule the node solves; undefined on the start node and the end node. */
  readonly baseId: string | undefined;
  /** As stored: a version, -1, "latest" or undefined (the latest published version). */
  readonly version: unknown;
  readonly mapping: readonly CompositionMapping[];
  /** A node reached from several parents appears under each of them. */
  readonly children: readonly CompositionNode[];
}

export interface CompositionModel {
  readonly type: 'composition';
  readonly document: JsonObject;
  /** The start node. */
  readonly root: CompositionNode;
}
