// The static facts of one rule type: everything the service, the CLI, MCP and the Studio ask about a type
// without compiling it. The engine adds the compiler per type (src/engine/rule-types.ts); the Studio its editor
// (studio/src/kinds/registry.ts). Pure data and the body check: the Studio imports it.
import type { JsonObject, Problems } from '../check.ts';
import type { Strategy } from '../strategies.ts';
import type { DocumentModel } from '../model/document.ts';

/** Checks the type's own body of a document whose envelope is checked apart (validate.ts). */
export type BodyCheck = (doc: JsonObject, out: Problems) => void;

/**
 * Checks the type's own body and reads it into the type's model in the same pass. The model is whole only when the
 * reading added no problem to `out` (readRule then hands it out); the engine compiles from it.
 */
export type BodyReader<M extends DocumentModel> = (doc: JsonObject, out: Problems) => M;

/**
 * How a rule of this type names the rules it needs (the engine lists them on the compiled rule as `dependencies`):
 * `nodes`, by its flow's nodes; `calls`, by SOLVE / LOOKUP_* calls in its expressions; `none`, never.
 */
export type ReferenceKind = 'nodes' | 'calls' | 'none';

export interface RuleTypeDescriptor<T extends string = string, M extends DocumentModel<T> = DocumentModel<T>> {
  /** The document's `type`. */
  readonly type: T;
  /** What a person calls it: "Decision table". */
  readonly label: string;
  /** Checks the body (every problem at once, each with its path) and reads its model. */
  readonly read: BodyReader<M>;
  /** The strategies it applies (rule-format §3.1); any other asked for falls back to STANDARD. */
  readonly strategies: readonly Strategy[];
  /** Whether a solve can run it (integration flows are stored, never solved: they are background jobs). */
  readonly solvable: boolean;
  /** Whether it is a flow: its nodes call other rules (drawn as `flow` edges in the dependency graph). */
  readonly flow: boolean;
  readonly references: ReferenceKind;
}

/** Keeps the literal `type` and `solvable` of a descriptor, so the registry can derive typed lists from them. */
export function ruleTypeDescriptor<const T extends string, M extends DocumentModel<T>, const S extends boolean>(
  descriptor: RuleTypeDescriptor<T, M> & { readonly solvable: S },
): RuleTypeDescriptor<T, M> & { readonly solvable: S } {
  return descriptor;
}
