// The flow output an Assign node builds when it is the first to write into `output` (the usual last node of a
// decision flow: `output.segment = {segmentRule.output.segment}`, ...). Writing each value at its path adds
// properties whose keys are known only at run time, one generic V8 store each; here the objects are copied from
// templates with the final keys already in place (a spread of a fast object copies its shape), and only their
// values are set (docs/decisions/perf-engine-sync-flows.md; measured in docs/perf-notes/perf-engine-sync-flows.md,
// fifth round).
import type { PathSegment } from '../path.ts';

/** One object of the output: its keys in first-write order and, per key, a value index or a nested object. */
export interface OutputShape {
  readonly template: Readonly<Record<string, null>>;
  readonly keys: readonly string[];
  readonly children: readonly (number | OutputShape)[];
}

interface Building {
  keys: string[];
  children: (number | Building)[];
}

/**
 * The shape that writing value i at `targets[i]` below `output` (their first segment, `output`, left out; from
 * segment `start` on) in order into an empty object gives, whatever the values are; undefined when that depends on
 * the values (a target lies below another, so it would write into the value there) or a key needs care (an index,
 * `__proto__`).
 */
export function outputShape(targets: readonly (readonly PathSegment[])[], start = 1): OutputShape | undefined {
  const root: Building = { keys: [], children: [] };
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i]!;
    if (target.length < start + 1) return undefined;
    let at = root;
    for (let k = start; k < target.length; k++) {
      const key = target[k];
      if (typeof key !== 'string' || key === '__proto__') return undefined;
      const last = k === target.length - 1;
      const found = at.keys.indexOf(key);
      if (found < 0) {
        at.keys.push(key);
        const child: number | Building = last ? i : { keys: [], children: [] };
        at.children.push(child);
        if (!last) at = child as Building;
        continue;
      }
      const existing = at.children[found]!;
      // The same path written again keeps its place and takes the later value; a path through or below a value
      // would depend on that value.
      if (last && typeof existing === 'number') at.children[found] = i;
      else if (!last && typeof existing !== 'number') at = existing;
      else return undefined;
    }
  }
  return finish(root);
}

function finish(building: Building): OutputShape {
  const template: Record<string, null> = {};
  for (const key of building.keys) template[key] = null;
  return { template, keys: building.keys, children: building.children.map((child) => (typeof child === 'number' ? child : finish(child))) };
}

/** The output object of `shape` holding `values` (already the caller's own copies). */
export function buildOutput(shape: OutputShape, values: readonly unknown[]): Record<string, unknown> {
  const built: Record<string, unknown> = { ...shape.template };
  const { keys, children } = shape;
  for (let i = 0; i < keys.length; i++) {
    const child = children[i]!;
    built[keys[i]!] = typeof child === 'number' ? values[child] : buildOutput(child, values);
  }
  return built;
}
