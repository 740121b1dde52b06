// Variable resolution for table rows and tree evaluations (§4.4, §11 V1): calc variable -> output written
// earlier -> rule variable -> input path. (Lambda parameters are layered on top by the expression language.)
import type { Scope } from '../expression/index.ts';
import { getAt, getBelow, type PathSegment } from '../path.ts';
import type { OutputLayout, SlotValues } from './output-layout.ts';
import type { Reference, StaticResolver } from './references.ts';
import { DYNAMIC } from './references.ts';

/** `userVariables` as a map; entries without a name (the trailing `{}` of most exports) are ignored (§1.4). */
export function ruleVariablesOf(userVariables: unknown): Map<string, unknown> {
  const variables = new Map<string, unknown>();
  if (!Array.isArray(userVariables)) return variables;
  for (const entry of userVariables) {
    if (entry === null || typeof entry !== 'object') continue;
    const { name, value } = entry as Record<string, unknown>;
    if (typeof name === 'string' && name !== '') variables.set(name, value === undefined ? null : value);
  }
  return variables;
}

const NO_CALCS: ReadonlyMap<string, number> = new Map();
const NO_VALUES: unknown[] = [];

/**
 * The scope of one solve of a table or tree. The owner resets `calcValues` and `outputValues` per row;
 * `undefined` in them means "not computed yet in this row", so later columns' variables stay invisible.
 */
export class RuleScope implements Scope {
  readonly input: unknown;
  private readonly variables: ReadonlyMap<string, unknown>;
  /** Most rules have no rule variables: resolve then skips the lookup. */
  private readonly hasVariables: boolean;
  private readonly calcIndex: ReadonlyMap<string, number>;
  private readonly layout: OutputLayout | undefined;
  calcValues: unknown[];
  outputValues: SlotValues;

  constructor(input: unknown, variables: ReadonlyMap<string, unknown>, layout?: OutputLayout, calcIndex?: ReadonlyMap<string, number>) {
    this.input = input;
    this.variables = variables;
    this.hasVariables = variables.size > 0;
    this.layout = layout;
    this.calcIndex = calcIndex ?? NO_CALCS;
    this.calcValues = NO_VALUES;
    this.outputValues = NO_VALUES;
  }

  resolve(segments: readonly PathSegment[], _path: string): unknown {
    const head = segments[0];
    if (typeof head === 'string') {
      // No calc value and no output written (the scope of a table's conditions, or of a tree): no lookups.
      if (this.calcValues.length > 0) {
        const calc = this.calcIndex.get(head);
        if (calc !== undefined) {
          const value = this.calcValues[calc];
          if (value !== undefined) return segments.length === 1 ? value : getBelow(value, segments, 1);
        }
      }
      if (this.layout !== undefined && this.outputValues.length > 0) {
        const written = this.layout.read(this.outputValues, segments);
        if (written !== undefined) return written;
      }
      if (this.hasVariables && this.variables.has(head)) {
        const value = getBelow(this.variables.get(head), segments, 1);
        if (value !== undefined) return value;
      }
    }
    return getAt(this.input, segments);
  }
}

/**
 * The compile-time half of the same order: a reference that no calc variable or output written earlier can
 * shadow, and that a rule variable answers, is a constant. Everything else is DYNAMIC (read per solve).
 * `shadowed(ref)` says whether a calc variable or an earlier output could answer the reference.
 */
export function staticResolver(variables: ReadonlyMap<string, unknown>, shadowed: (ref: Reference) => boolean): StaticResolver {
  return (ref) => {
    const head = ref.segments[0];
    if (typeof head !== 'string' || shadowed(ref)) return DYNAMIC;
    if (!variables.has(head)) return DYNAMIC;
    const value = getBelow(variables.get(head), ref.segments, 1);
    return value === undefined ? DYNAMIC : value;
  };
}

/** True when two paths overlap (one is a prefix of the other, or they are equal). */
export function pathsOverlap(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}
