// The variables of one decision-flow solve (spec/rule-format.md §8.2): `input`, `output`, one entry per node name
// (`rule.output`, `foreach.currentItem`, `declare.total`, an Append node's array, an HTTP node's response) and the
// free variables that Assign and Append nodes create. Expressions, mappings, list paths and Switch variables all
// read the same object, with or without braces.
import type { Scope } from '../expression/index.ts';
import { getBelow, parsePath, setBelow } from '../path.ts';
import type { PathSegment } from '../path.ts';

export class FlowScope implements Scope {
  /**
   * By top-level name. A Map rather than a null-prototype object: such objects are slow dictionaries in V8, and
   * every mapping, expression and node of a solve starts with a lookup here. No name can reach a prototype.
   */
  readonly #variables = new Map<string, unknown>();

  constructor(input: unknown) {
    this.#variables.set('input', input);
    this.#variables.set('output', {});
  }

  resolve(segments: readonly PathSegment[]): unknown {
    return this.read(segments);
  }

  read(segments: readonly PathSegment[]): unknown {
    if (segments.length === 0) return Object.fromEntries(this.#variables);
    const head = segments[0]!;
    if (typeof head !== 'string') return undefined;
    const value = this.#variables.get(head);
    return segments.length === 1 || value === undefined ? value : getBelow(value, segments, 1);
  }

  write(segments: readonly PathSegment[], value: unknown): void {
    if (segments.length === 0) return;
    const head = String(segments[0]);
    if (segments.length === 1) {
      this.#variables.set(head, value);
      return;
    }
    let root = this.#variables.get(head);
    if (root === null || typeof root !== 'object' || Array.isArray(root)) {
      root = {};
      this.#variables.set(head, root);
    }
    setBelow(root as Record<string, unknown>, segments, 1, value);
  }

  /** The value of a top-level name (`input`, `output`, a node's name). */
  get(name: string): unknown {
    return this.#variables.get(name);
  }

  /** Sets a top-level name (the value a node exposes under its name). */
  set(name: string, value: unknown): void {
    this.#variables.set(name, value);
  }

  /** The object a node exposes under its name, created on first use. */
  nodeObject(name: string): Record<string, unknown> {
    const existing = this.#variables.get(name);
    if (existing !== null && typeof existing === 'object' && !Array.isArray(existing)) return existing as Record<string, unknown>;
    const created: Record<string, unknown> = {};
    this.#variables.set(name, created);
    return created;
  }
}

/** A flow path as written in node data: `input.order.items` or `{input.order.items}`. */
export function flowPath(text: string): PathSegment[] {
  const trimmed = text.trim();
  const bare = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1) : trimmed;
  return parsePath(bare.trim());
}
