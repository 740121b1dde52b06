// The runtime environment of a compiled FEEL expression: nested frames of names over the caller's scope.
import type { FeelScope } from './scope.ts';
import { FeelContext, type FeelValue } from './values.ts';

export class Env {
  readonly parent: Env | null;
  readonly frame: ReadonlyMap<string, FeelValue> | null;
  readonly scope: FeelScope;
  /** When set, warnings are not recorded (probing evaluations such as a filter's index test). */
  readonly quiet: boolean;

  constructor(scope: FeelScope, parent: Env | null, frame: ReadonlyMap<string, FeelValue> | null, quiet = false) {
    this.scope = scope;
    this.parent = parent;
    this.frame = frame;
    this.quiet = quiet;
  }

  static root(scope: FeelScope): Env {
    return new Env(scope, null, null);
  }

  child(frame: ReadonlyMap<string, FeelValue>): Env {
    return new Env(this.scope, this, frame, this.quiet);
  }

  silenced(): Env {
    return new Env(this.scope, this.parent, this.frame, true);
  }

  /** The value of a name, or undefined when nothing in scope has it. */
  lookup(name: string): FeelValue | undefined {
    if (this.frame?.has(name)) return this.frame.get(name) ?? null;
    if (this.parent) return this.parent.lookup(name);
    const variables = this.scope.variables;
    if (!variables) return undefined;
    if (variables instanceof Map) return variables.has(name) ? (variables.get(name) ?? null) : undefined;
    const record = variables as Readonly<Record<string, FeelValue>>;
    return Object.hasOwn(record, name) ? (record[name] ?? null) : undefined;
  }

  warn(message: string): null {
    if (!this.quiet) this.scope.warnings?.push(message);
    return null;
  }
}

/** A context's entries as a frame (filters and paths see an item's entries by name). */
export function frameOf(value: FeelValue): ReadonlyMap<string, FeelValue> | null {
  return value instanceof FeelContext ? value.entries : null;
}
