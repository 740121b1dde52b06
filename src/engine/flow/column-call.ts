// Flow nodes calling a table that reads only its input columns (CompiledRule.columnInput): the values the node's
// mappings would write at those paths go to the table directly, without building the input object, whose dynamic
// keys (one V8 property addition each) cost more than the table's own matching
// (docs/decisions/perf-engine-sync-flows.md).
import type { PathSegment } from '../path.ts';
import type { CompiledRule } from '../types.ts';

/**
 * Which mapping feeds each input column of the rule a flow node calls. The rule is known only at run time (the
 * resolver's answer), so the answer for the last rule is remembered: a node calls the same compiled rule solve
 * after solve, and a different one (a new version, an alias moved) is simply planned again.
 */
export class ColumnPlan {
  readonly #targets: readonly (readonly PathSegment[])[];
  #rule: CompiledRule | undefined;
  #sources: readonly number[] | undefined;

  /** `targets`: the mapping targets, in the order the node writes them into the input object. */
  constructor(targets: readonly (readonly PathSegment[])[]) {
    this.#targets = targets;
  }

  /**
   * For each path of `rule.columnInput`, the index of the mapping that writes exactly that path (-1: none does, the
   * value is missing); undefined when the rule needs its input object.
   */
  sourcesFor(rule: CompiledRule): readonly number[] | undefined {
    if (rule !== this.#rule) {
      this.#sources = rule.columnInput === undefined ? undefined : columnSources(rule.columnInput.paths, this.#targets);
      this.#rule = rule;
    }
    return this.#sources;
  }
}

/**
 * The mapping writing each column path, when the input object the mappings build would hold exactly that mapping's
 * value there: undefined when a target lies above or below a column path (the value there would be built from
 * several mappings, or be an object), when two targets write one column path (a missing later value keeps the
 * earlier), or when a target has an index segment.
 */
export function columnSources(paths: readonly (readonly string[])[], targets: readonly (readonly PathSegment[])[]): number[] | undefined {
  if (targets.some((target) => target.length === 0 || target.some((segment) => typeof segment !== 'string'))) return undefined;
  const sources: number[] = [];
  for (const path of paths) {
    let source = -1;
    for (let m = 0; m < targets.length; m++) {
      const target = targets[m]!;
      const shared = Math.min(target.length, path.length);
      let same = true;
      for (let k = 0; k < shared && same; k++) same = target[k] === path[k];
      if (!same) continue;
      if (target.length !== path.length || source !== -1) return undefined;
      source = m;
    }
    sources.push(source);
  }
  return sources;
}
