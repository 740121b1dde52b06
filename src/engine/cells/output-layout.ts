// Builds output objects from the values a row (or a tree) wrote, nesting dotted paths and ordering keys as the
// rule's outputSchema does (§1.3, §11 T2): schema keys first in schema order, then paths the schema lacks in the
// order their columns appear. Unwritten leaves are omitted. Built once per rule; each solve only fills slots.
import { buildOutput, type OutputShape } from '../flow/output-layout.ts';
import { getBelow, parsePath, type PathSegment } from '../path.ts';

interface LayoutNode {
  readonly key: string;
  readonly protoKey: boolean;
  slot: number;
  readonly children: LayoutNode[];
}

/** `values[slot] === undefined` means "not written"; every written value is defined (null at worst). */
export type SlotValues = readonly unknown[];

export class OutputLayout {
  /** Output paths by slot. */
  readonly paths: readonly string[];
  readonly slotCount: number;
  private readonly roots: LayoutNode[];
  private readonly slotPriority: readonly number[];
  /** Top-level keys by slot when every path is one segment: the hot path builds a flat object. */
  private readonly flatKeys: readonly string[] | undefined;
  private readonly flatOrder: readonly number[] | undefined;
  /** Nested paths, but every written path a leaf and no `__proto__` key: build without precedence checks. */
  private readonly plain: boolean;
  /**
   * Nested plain layouts: the output object as templates to copy (flow/output-layout.ts buildOutput), used when
   * every leaf was written and nothing is cloned: the same keys in the same order as buildPlain, each object one
   * copy with its properties in place instead of keys added one by one (~60 against ~86 ns for `{quote: {4 keys}}`).
   */
  private readonly template: OutputShape | undefined;
  private readonly leafSlots: readonly number[];
  private readonly slotSegments: readonly (readonly PathSegment[])[];

  /**
   * `paths` are the distinct output paths, one per slot. `schema` orders the keys. `priority[slot]` settles a
   * path written together with a deeper path (`a` and `a.b`): the higher priority wins, as the later of two
   * setPath calls would.
   */
  constructor(paths: readonly string[], schema: unknown, priority?: readonly number[]) {
    this.paths = paths;
    this.slotCount = paths.length;
    this.slotPriority = priority ?? paths.map((_, i) => i);
    this.slotSegments = paths.map((path) => parsePath(path).map(String));
    this.roots = [];
    for (let slot = 0; slot < paths.length; slot++) {
      let level = this.roots;
      let node: LayoutNode | undefined;
      const segments = this.slotSegments[slot]!;
      for (const segment of segments) {
        const key = String(segment);
        node = level.find((candidate) => candidate.key === key);
        if (!node) {
          node = { key, protoKey: key === '__proto__', slot: -1, children: [] };
          level.push(node);
        }
        level = node.children;
      }
      if (node) node.slot = slot;
    }
    orderBySchema(this.roots, schema);
    const flat = this.roots.every((node) => node.children.length === 0 && !node.protoKey);
    this.flatOrder = flat ? this.roots.map((node) => node.slot) : undefined;
    this.flatKeys = flat ? this.roots.map((node) => node.key) : undefined;
    this.plain = isPlain(this.roots);
    this.template = this.plain && !flat ? shapeOf(this.roots) : undefined;
    this.leafSlots = this.template === undefined ? [] : leafSlotsOf(this.roots);
  }

  /** A nested plain layout's objects as templates (undefined for other layouts), and the slots of its leaves. */
  get shape(): OutputShape | undefined {
    return this.template;
  }

  get leaves(): readonly number[] {
    return this.leafSlots;
  }

  /** The output object of one row. Object values are cloned when `cloneObjects` (compiled constants). */
  build(values: SlotValues, cloneObjects = false): Record<string, unknown> {
    const flatOrder = this.flatOrder;
    if (flatOrder !== undefined) {
      const keys = this.flatKeys!;
      const out: Record<string, unknown> = {};
      for (let i = 0; i < flatOrder.length; i++) {
        const value = values[flatOrder[i]!];
        if (value !== undefined) out[keys[i]!] = cloneObjects ? cloneJson(value) : value;
      }
      return out;
    }
    if (this.template !== undefined && !cloneObjects && allWritten(this.leafSlots, values)) return buildOutput(this.template, values);
    if (this.plain) return buildPlain(this.roots, values, cloneObjects) ?? {};
    return this.buildLevel(this.roots, values, cloneObjects) ?? {};
  }

  /** The ARRAY strategy's merge (§3.2): each written leaf becomes the list of the rows' values, in row order. */
  buildArrays(rows: readonly SlotValues[], cloneObjects: readonly boolean[] | undefined): Record<string, unknown> {
    const lists = new Array<unknown[] | undefined>(this.slotCount);
    for (let slot = 0; slot < this.slotCount; slot++) {
      for (let r = 0; r < rows.length; r++) {
        const value = rows[r]![slot];
        if (value === undefined) continue;
        (lists[slot] ??= []).push(cloneObjects?.[r] ? cloneJson(value) : value);
      }
    }
    return this.buildLevel(this.roots, lists, false) ?? {};
  }

  /**
   * What `{path}` reads from the outputs written so far (§4.4 "output written earlier in the row"): a written
   * leaf, a value inside a written leaf, or the object of the written leaves below the path. undefined otherwise.
   */
  read(values: SlotValues, segments: readonly PathSegment[]): unknown {
    let level = this.roots;
    for (let i = 0; i < segments.length; i++) {
      const key = String(segments[i]);
      const node = level.find((candidate) => candidate.key === key);
      if (!node) return undefined;
      if (i === segments.length - 1) return this.nodeValue(node, values, false);
      const written = node.slot >= 0 ? values[node.slot] : undefined;
      if (written !== undefined) {
        const inner = getBelow(written, segments, i + 1);
        if (inner !== undefined) return inner;
      }
      level = node.children;
    }
    return undefined;
  }

  private buildLevel(nodes: readonly LayoutNode[], values: SlotValues, cloneObjects: boolean): Record<string, unknown> | undefined {
    let out: Record<string, unknown> | undefined;
    for (const node of nodes) {
      const value = this.nodeValue(node, values, cloneObjects);
      if (value === undefined) continue;
      out ??= {};
      if (node.protoKey) Object.defineProperty(out, node.key, { value, writable: true, enumerable: true, configurable: true });
      else out[node.key] = value;
    }
    return out;
  }

  private nodeValue(node: LayoutNode, values: SlotValues, cloneObjects: boolean): unknown {
    const own = node.slot >= 0 ? values[node.slot] : undefined;
    if (node.children.length === 0) return own !== undefined && cloneObjects ? cloneJson(own) : own;
    const nested = this.buildLevel(node.children, values, cloneObjects);
    if (own === undefined) return nested;
    if (nested === undefined || this.slotPriority[node.slot]! > this.highestWrittenPriority(node.children, values)) {
      return cloneObjects ? cloneJson(own) : own;
    }
    return nested;
  }

  private highestWrittenPriority(nodes: readonly LayoutNode[], values: SlotValues): number {
    let highest = -Infinity;
    for (const node of nodes) {
      if (node.slot >= 0 && values[node.slot] !== undefined) highest = Math.max(highest, this.slotPriority[node.slot]!);
      highest = Math.max(highest, this.highestWrittenPriority(node.children, values));
    }
    return highest;
  }
}

function isPlain(nodes: readonly LayoutNode[]): boolean {
  return nodes.every((node) => !node.protoKey && (node.children.length === 0 || (node.slot < 0 && isPlain(node.children))));
}

/** buildLevel for plain layouts (see OutputLayout.plain): inner nodes only group leaves. */
function buildPlain(nodes: readonly LayoutNode[], values: SlotValues, cloneObjects: boolean): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    let value: unknown;
    if (node.children.length === 0) {
      value = values[node.slot];
      if (value === undefined) continue;
      if (cloneObjects) value = cloneJson(value);
    } else {
      value = buildPlain(node.children, values, cloneObjects);
      if (value === undefined) continue;
    }
    (out ??= {})[node.key] = value;
  }
  return out;
}

/** The shape of a plain nested layout's object (see buildOutput): each leaf's value is its slot's. */
function shapeOf(nodes: readonly LayoutNode[]): OutputShape {
  const template: Record<string, null> = {};
  for (const node of nodes) template[node.key] = null;
  return {
    template,
    keys: nodes.map((node) => node.key),
    children: nodes.map((node) => (node.children.length === 0 ? node.slot : shapeOf(node.children))),
  };
}

function leafSlotsOf(nodes: readonly LayoutNode[]): number[] {
  return nodes.flatMap((node) => (node.children.length === 0 ? [node.slot] : leafSlotsOf(node.children)));
}

function allWritten(slots: readonly number[], values: SlotValues): boolean {
  for (let i = 0; i < slots.length; i++) if (values[slots[i]!] === undefined) return false;
  return true;
}

/** Schema keys first, in schema order (recursively); the rest keep their first-write order. */
function orderBySchema(nodes: LayoutNode[], schema: unknown): void {
  const schemaObject = schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : undefined;
  if (schemaObject) {
    const rank = new Map(Object.keys(schemaObject).map((key, index) => [key, index]));
    const original = new Map(nodes.map((node, index) => [node, index]));
    nodes.sort((a, b) => {
      const ra = rank.get(a.key) ?? Number.POSITIVE_INFINITY;
      const rb = rank.get(b.key) ?? Number.POSITIVE_INFINITY;
      if (ra !== rb) return ra < rb ? -1 : 1;
      return original.get(a)! - original.get(b)!;
    });
  }
  for (const node of nodes) {
    orderBySchema(node.children, schemaObject && Object.hasOwn(schemaObject, node.key) ? schemaObject[node.key] : undefined);
  }
}

/** A deep copy of a JSON value; scalars are returned as they are. */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = cloneJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: child, writable: true, enumerable: true, configurable: true });
    else out[key] = child;
  }
  return out as T;
}

/**
 * A deep copy of a JSON value, frozen at every level: a constant handed to several solves, which none of them can
 * change (an attempt throws in strict code instead of changing the next solve's answer).
 */
export function frozenJson<T>(value: T): T {
  const copy = cloneJson(value);
  freezeDeep(copy);
  return copy;
}

function freezeDeep(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) freezeDeep((value as Record<string, unknown>)[key]);
  Object.freeze(value);
}

/** The distinct paths of a list in first-appearance order, and each input's slot. */
export function assignSlots(paths: readonly string[]): { paths: string[]; slotOf: number[]; priority: number[] } {
  const distinct: string[] = [];
  const index = new Map<string, number>();
  const slotOf: number[] = [];
  const priority: number[] = [];
  paths.forEach((path, position) => {
    const key = parsePath(path).map(String).join('\u0000');
    let slot = index.get(key);
    if (slot === undefined) {
      slot = distinct.length;
      index.set(key, slot);
      distinct.push(path);
    }
    slotOf.push(slot);
    priority[slot] = position;
  });
  return { paths: distinct, slotOf, priority };
}
