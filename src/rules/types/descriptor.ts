// The static facts of one rule type: everything the service, the CLI, MCP and the Studio ask about a type
// without compiling it. The engine adds the compiler per type (src/engine/rule-types.ts); the Studio its editor
// (studio/src/kinds/registry.ts). Pure data and the body check: the Studio imports it.
import type { JsonObject, Problems } from '../check.ts';
import type { Strategy } from '../strategies.ts';

/** Checks the type's own body of a document whose envelope is checked apart (validate.ts). */
export type BodyCheck = (doc: JsonObject, out: Problems) => void;

/**
 * How a rule of this type names the rules it needs (the engine lists them on the compiled rule as `dependencies`):
 * `nodes`, by its flow's nodes; `calls`, by SOLVE / LOOKUP_* calls in its expressions; `none`, never.
 */
export type ReferenceKind = 'nodes' | 'calls' | 'none';

export interface RuleTypeDescriptor<T extends string = string> {
  /** The document's `type`. */
  readonly type: T;
  /** What a person calls it: "Decision table". */
  readonly label: string;
  /** Checks the body (every problem at once, each with its path). */
  readonly check: BodyCheck;
  /** The strategies it applies (rule-format §3.1); any other asked for falls back to STANDARD. */
  readonly strategies: readonly Strategy[];
  /** Whether a solve can run it (integration flows are stored, never solved: they are background jobs). */
  readonly solvable: boolean;
  /** Whether it is a flow: its nodes call other rules (drawn as `flow` edges in the dependency graph). */
  readonly flow: boolean;
  readonly references: ReferenceKind;
}

/** Keeps the literal `type` and `solvable` of a descriptor, so the registry can derive typed lists from them. */
export function ruleTypeDescriptor<const T extends string, const S extends boolean>(
  descriptor: RuleTypeDescriptor<T> & { readonly solvable: S },
): RuleTypeDescriptor<T> & { readonly solvable: S } {
  return descriptor;
}
