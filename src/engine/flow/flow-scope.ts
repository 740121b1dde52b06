// The variables of one decision-flow solve (spec/rule-format.md §8.2): `input`, `output`, one entry per node name
// (`rule.output`, `foreach.currentItem`, `declare.total`, an Append node's array, an HTTP node's response) and the
// free variables that Assign and Append nodes create. Expressions, mappings, list paths and Switch variables all
// read the same object, with or without braces.
//
// Every top-level name a flow can write is known when it is compiled (node names, Assign and Append targets), so
// each name gets a slot in an array fixed at compile time (FlowLayout), and paths written in node data are resolved
// to their slot once (FlowPath): a solve keeps its variables in an array instead of a Map it builds and grows per
// solve (docs/decisions/perf-engine-sync-flows.md; measured in docs/perf-notes/perf-engine-sync-flows.md, fifth
// round). References of expressions, known only by their segments, look their slot up by name in the layout's map,
// which is built once.
import type { Scope } from '../expression/index.ts';
import { getBelow, parsePath, setBelow } from '../path.ts';
import type { PathSegment } from '../path.ts';

export const INPUT_SLOT = 0;
export const OUTPUT_SLOT = 1;

/** A path written in node data, resolved at compile time: the slot of its top-level name and its segments. */
export interface FlowPath {
  /** -1 when the path has no top-level name (empty, or an index first): reads give the whole scope or nothing. */
  readonly slot: number;
  readonly segments: readonly PathSegment[];
  /**
   * The path reads below `output` of a rule node's object (`{rule.output.x}`), which always holds `output` as its
   * own property once the node ran (FlowLayout's ruleObjects): that level is read without the own-key check.
   */
  readonly ruleOutput: boolean;
  /**
   * Where a chain solve keeps this path's value once read (FlowScope's stable reads), shared by every path of the
   * same text; -1 when the value may change during a solve. Only paths below `input` (never written, and nothing
   * writes inside it: every node copies what it takes) and below a rule node's `output` (written once, by that node
   * alone, in a chain where each node runs once) get one.
   */
  readonly stable: number;
}

/** The slots of one flow's top-level names, assigned while its nodes compile. */
export class FlowLayout {
  readonly #slots = new Map<string, number>([['input', INPUT_SLOT], ['output', OUTPUT_SLOT]]);
  readonly #names: string[] = ['input', 'output'];
  readonly #ruleObjects: ReadonlySet<string>;
  /** FlowPath.stable by the path's segments (as JSON text). */
  readonly #stable = new Map<string, number>();
  #ordered = false;

  /**
   * `ruleObjects`: names whose value only a BUSINESS_RULE node writes (it alone has that name, so Assign and Append
   * may not target it): undefined until it ran, then its object with `output` (exposeOutput, loneRuleState).
   */
  constructor(ruleObjects: ReadonlySet<string> = new Set()) {
    this.#ruleObjects = ruleObjects;
  }

  /** The slot of a top-level name, given on first use. */
  slotOf(name: string): number {
    let slot = this.#slots.get(name);
    if (slot === undefined) {
      slot = this.#names.length;
      this.#slots.set(name, slot);
      this.#names.push(name);
    }
    return slot;
  }

  /** The slot of a name at run time: undefined for a name no node writes or reads by a fixed path. */
  lookup(name: string): number | undefined {
    return this.#slots.get(name);
  }

  /** A path of node data (`input.order.items` or `{input.order.items}`), resolved to its slot. */
  path(text: string): FlowPath {
    return this.resolved(flowPath(text));
  }

  resolved(segments: readonly PathSegment[]): FlowPath {
    const head = segments[0];
    if (segments.length === 0) this.#ordered = true;
    const ruleOutput = typeof head === 'string' && this.#ruleObjects.has(head) && segments[1] === 'output';
    const stable = segments.length > 1 && (head === 'input' || ruleOutput) ? this.#stableOf(segments) : -1;
    return { slot: typeof head === 'string' ? this.slotOf(head) : -1, segments, ruleOutput, stable };
  }

  #stableOf(segments: readonly PathSegment[]): number {
    const key = JSON.stringify(segments);
    let stable = this.#stable.get(key);
    if (stable === undefined) {
      stable = this.#stable.size;
      this.#stable.set(key, stable);
    }
    return stable;
  }

  /** How many distinct stable paths (FlowPath.stable) the flow reads. */
  get stableReads(): number {
    return this.#stable.size;
  }

  /**
   * Solves must remember the order in which names were first written: a read of the whole scope (an empty path
   * in node data, or one an HTTP node fills in at run time) lists the names in that order, as a Map would.
   */
  readsWhole(): void {
    this.#ordered = true;
  }

  get size(): number {
    return this.#names.length;
  }

  get ordered(): boolean {
    return this.#ordered;
  }

  name(slot: number): string {
    return this.#names[slot]!;
  }
}

export class FlowScope implements Scope {
  readonly #layout: FlowLayout;
  /** By slot; undefined: not written yet (no value a flow writes is undefined). */
  readonly #values: unknown[];
  /** The slots in the order of their first write, when the layout asks for it (FlowLayout.readsWhole). */
  readonly #order: number[] | undefined;
  /**
   * True while `output` is the empty object the solve started with, never written into: nothing else holds it to
   * change it later (readers copy what they take), so it may be replaced by a built one (freshOutput).
   */
  #outputFresh = true;
  /**
   * Where the values of stable paths read so far start in #values (after the slots; -1: not kept): by
   * FlowPath.stable, undefined while not read yet (or missing). Kept only when the solve runs as a chain, so a path
   * two nodes read (`input.order.total`, `rule.output.x` read by a mapping and by the Assign) is walked once.
   */
  readonly #reads: number;

  /** `stableReads`: keep the values of stable paths (only a chain solve, where each node runs once, may). */
  constructor(layout: FlowLayout, input: unknown, stableReads = false) {
    this.#layout = layout;
    this.#reads = stableReads && layout.stableReads > 0 ? layout.size : -1;
    this.#values = new Array<unknown>(this.#reads < 0 ? layout.size : layout.size + layout.stableReads);
    this.#values[INPUT_SLOT] = input;
    this.#values[OUTPUT_SLOT] = {};
    this.#order = layout.ordered ? [INPUT_SLOT, OUTPUT_SLOT] : undefined;
  }

  /** A reference of an expression (or a path filled in at run time). */
  resolve(segments: readonly PathSegment[]): unknown {
    if (segments.length === 0) return this.#whole();
    const head = segments[0]!;
    if (typeof head !== 'string') return undefined;
    const slot = this.#layout.lookup(head);
    if (slot === undefined) return undefined;
    const value = this.#values[slot];
    return segments.length === 1 || value === undefined ? value : getBelow(value, segments, 1);
  }

  /** The value at a path of node data. */
  read(path: FlowPath): unknown {
    const { slot, segments } = path;
    if (slot < 0) return segments.length === 0 ? this.#whole() : undefined;
    const value = this.#values[slot];
    if (segments.length === 1 || value === undefined) return value;
    // A rule node's path is kept only once its node ran (its object is defined), as it then no longer changes.
    if (this.#reads < 0 || path.stable < 0) return readBelow(path, value);
    const at = this.#reads + path.stable;
    const known = this.#values[at];
    if (known !== undefined) return known;
    return (this.#values[at] = readBelow(path, value));
  }

  /**
   * Forgets the stable reads: after a node waited, the caller may have changed its input object meanwhile, and a
   * rule that waited may still hold its answer.
   */
  forgetReads(): void {
    if (this.#reads >= 0) this.#values.fill(undefined, this.#reads);
  }

  /** Writes at a path of node data (a target: its top-level name is a name, never the input). */
  write(path: FlowPath, value: unknown): void {
    const { slot, segments } = path;
    if (slot < 0) return;
    if (slot === OUTPUT_SLOT) this.#outputFresh = false;
    if (segments.length === 1) {
      this.set(slot, value);
      return;
    }
    let root = this.#values[slot];
    if (root === null || typeof root !== 'object' || Array.isArray(root)) {
      root = {};
      this.set(slot, root);
    }
    setBelow(root as Record<string, unknown>, segments, 1, value);
  }

  /** The value of a top-level name (`input`, `output`, a node's name). */
  get(slot: number): unknown {
    return this.#values[slot];
  }

  /** Sets a top-level name (the value a node exposes under its name). */
  set(slot: number, value: unknown): void {
    if (slot === OUTPUT_SLOT) this.#outputFresh = false;
    if (this.#order !== undefined && this.#values[slot] === undefined) this.#order.push(slot);
    this.#values[slot] = value;
  }

  /** Whether `output` is still the empty object the solve started with (see #outputFresh). */
  get outputFresh(): boolean {
    return this.#outputFresh;
  }

  /** `output` replaced by `built`, which the caller made and gives up. */
  replaceOutput(built: Record<string, unknown>): void {
    this.#values[OUTPUT_SLOT] = built;
    this.#outputFresh = false;
  }

  /** The object a node exposes under its name, created on first use. */
  nodeObject(slot: number): Record<string, unknown> {
    const existing = this.#values[slot];
    if (existing !== null && typeof existing === 'object' && !Array.isArray(existing)) return existing as Record<string, unknown>;
    const created: Record<string, unknown> = {};
    this.set(slot, created);
    return created;
  }

  /** Every name written so far, in the order of first writes. */
  #whole(): Record<string, unknown> {
    const whole: Record<string, unknown> = {};
    // The slots only: #values holds the stable reads after them.
    const slots = this.#order ?? Array.from({ length: this.#layout.size }, (_, slot) => slot);
    for (const slot of slots) {
      const value = this.#values[slot];
      if (value !== undefined) Object.defineProperty(whole, this.#layout.name(slot), { value, enumerable: true, writable: true, configurable: true });
    }
    return whole;
  }
}

/** The value below `value`, the defined value of the path's top-level name. */
function readBelow(path: FlowPath, value: unknown): unknown {
  const segments = path.segments;
  if (path.ruleOutput) {
    const output = (value as { output: unknown }).output;
    return segments.length === 2 ? output : getBelow(output, segments, 2);
  }
  return getBelow(value, segments, 1);
}

/** A flow path as written in node data: `input.order.items` or `{input.order.items}`. */
export function flowPath(text: string): PathSegment[] {
  const trimmed = text.trim();
  const bare = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1) : trimmed;
  return parsePath(bare.trim());
}
