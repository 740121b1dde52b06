// Direct rows that write their results straight into the row's output object (docs/decisions/
// perf-engine-expression-rows.md; measured in docs/perf-notes/perf-engine-expression-rows.md, fourth round). A
// matching direct row otherwise fills an array of slot values, which the layout then copies into objects made from
// its templates (flow/output-layout.ts buildOutput); when nothing can read those values back and the row writes
// every leaf, the objects are made first and each result is stored at its key as it is computed: the same objects,
// keys in the same (template) order, without the array.
import type { OutputShape } from '../flow/output-layout.ts';
import type { TableRow } from './steps.ts';

/** The objects of one output of a nested plain layout, and where each slot's value is stored in them. */
export class RowObjects {
  /** The templates of the objects, in preorder (the root first). */
  private readonly templates: Readonly<Record<string, null>>[] = [];
  /** For each object but the root: the index of the object holding it, and its key there. */
  private readonly parents: number[] = [];
  private readonly parentKeys: string[] = [];
  /** By slot: the index of the object holding the slot's leaf, and its key there. */
  readonly objectOf: number[] = [];
  readonly keyOf: string[] = [];

  constructor(shape: OutputShape) {
    this.add(shape, -1, '');
  }

  private add(shape: OutputShape, parent: number, key: string): void {
    const index = this.templates.length;
    this.templates.push(shape.template);
    this.parents.push(parent);
    this.parentKeys.push(key);
    for (let i = 0; i < shape.keys.length; i++) {
      const child = shape.children[i]!;
      if (typeof child === 'number') {
        this.objectOf[child] = index;
        this.keyOf[child] = shape.keys[i]!;
      } else this.add(child, index, shape.keys[i]!);
    }
  }

  /** Fresh objects of one output, every key in place (nested objects already linked): the root is the first. */
  blank(): Record<string, unknown>[] {
    const templates = this.templates;
    const objects = new Array<Record<string, unknown>>(templates.length);
    objects[0] = { ...templates[0] };
    for (let i = 1; i < templates.length; i++) {
      const object = { ...templates[i] };
      objects[i] = object;
      objects[this.parents[i]!]![this.parentKeys[i]!] = object;
    }
    return objects;
  }
}

/**
 * Which rows may write straight into their objects (by row index), or undefined when none may: the layout is a
 * nested plain one (`shape`, whose leaves are `leafSlots`); the row is direct (its conditions come first, it never
 * waits) with one function value per leaf (never unwritten: at worst null), so the templated build would be used
 * for it; and none of its results can read an output written before it: each is a repeatable expression (a
 * non-repeatable one may read names at run time) whose references all start with a key other than the outputs'
 * top-level keys (only those can reach a written output, OutputLayout.read).
 */
export function rowsWritingObjects(rows: readonly TableRow[], shape: OutputShape | undefined, leafSlots: readonly number[]): boolean[] | undefined {
  if (shape === undefined) return undefined;
  const outputKeys = new Set(shape.keys);
  const flags = rows.map((row) => {
    if (!row.direct || row.outputs.length !== leafSlots.length) return false;
    const written = new Set<number>();
    for (const step of row.outputs) {
      const footprint = step.expression?.footprint;
      if (footprint === undefined || !footprint.repeatable) return false;
      if (footprint.references.some((segments) => outputKeys.has(String(segments[0])))) return false;
      written.add(step.slot);
    }
    return leafSlots.every((slot) => written.has(slot));
  });
  return flags.some(Boolean) ? flags : undefined;
}
