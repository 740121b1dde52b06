// The variables of one decision-flow solve (spec/rule-format.md §8.2): `input`, `output`, one entry per node name
// (`rule.output`, `foreach.currentItem`, `declare.total`, an Append node's array, an HTTP node's response) and the
// free variables that Assign and Append nodes create. Expressions, mappings, list paths and Switch variables all
// read the same object, with or without braces.
import type { Scope } from '../expression/index.ts';
import { getAt, parsePath, setAt } from '../path.ts';
import type { PathSegment } from '../path.ts';

export class FlowScope implements Scope {
  readonly variables: Record<string, unknown>;

  constructor(input: unknown) {
    this.variables = Object.create(null) as Record<string, unknown>;
    this.variables.input = input;
    this.variables.output = {};
  }

  resolve(segments: readonly PathSegment[]): unknown {
    return getAt(this.variables, segments);
  }

  read(segments: readonly PathSegment[]): unknown {
    return getAt(this.variables, segments);
  }

  write(segments: readonly PathSegment[], value: unknown): void {
    setAt(this.variables, segments, value);
  }

  /** The object a node exposes under its name, created on first use. */
  nodeObject(name: string): Record<string, unknown> {
    const existing = this.variables[name];
    if (existing !== null && typeof existing === 'object' && !Array.isArray(existing)) return existing as Record<string, unknown>;
    const created: Record<string, unknown> = {};
    this.variables[name] = created;
    return created;
  }
}

/** A flow path as written in node data: `input.order.items` or `{input.order.items}`. */
export function flowPath(text: string): PathSegment[] {
  const trimmed = text.trim();
  const bare = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1) : trimmed;
  return parsePath(bare.trim());
}
