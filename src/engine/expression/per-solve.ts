// Subexpressions whose value is fixed for one solve, computed once per solve and shared by every cell of a table
// that contains them (docs/decisions/perf-engine-shared-subexpressions.md).
//
// A table compiles each function cell with a PerSolveSharing: which references no calc variable or earlier
// output can answer in that cell's column (those are the input or a rule variable, fixed for the whole solve),
// and one registry of slots for the whole table. A subexpression made only of such references, constants and
// pure functions gets the slot of its canonical text (the same text in another cell, another row or another
// column gets the same slot), and its compiled node looks in the solve's array first. The scope of one table
// solve carries the array (Scope.perSolve); any other scope has none, and the node then simply evaluates.
import type { Node } from './ast.ts';
import type { PerSolveSlotRegistry, SlotRef } from './contract.ts';
import type { Evaluator, Frame } from './runtime.ts';
import { Invalid } from './runtime.ts';

/** A subexpression shared per solve: its slot (read at run time, see PerSolveSlots.finish), and its evaluator without the sharing. */
export interface SharedRead {
  readonly ref: SlotRef;
  readonly ev: Evaluator;
}

/** The slot of a node that is not shared: evaluated at each use. */
export const UNSHARED: SlotRef = Object.freeze({ slot: -1 });

class Slot implements SlotRef {
  slot: number;
  /** Places that evaluate the subexpression: compiled nodes, and rows reusing a compiled cell (PerSolveSlots.reuse). */
  uses = 0;
  constructor(slot: number) {
    this.slot = slot;
  }
}

/**
 * One table's slots, by canonical subexpression text. Each slot is numbered when first asked for; once the table is
 * compiled, finish() keeps a slot only for a subexpression evaluated at more than one place (its value is then
 * reused) and numbers those densely: a subexpression of one cell in one row (most of a row's results) is evaluated
 * at each use, without storing its value, and the per-solve array holds only the slots that are read again.
 */
export class PerSolveSlots implements PerSolveSlotRegistry {
  readonly #slots = new Map<string, Slot>();
  /** The slots handed out, in order (mark/since: the slots of one compiled cell). */
  readonly #log: Slot[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  slotOf(key: string, repeated: boolean): SlotRef {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = new Slot(this.#size++);
      this.#slots.set(key, slot);
    }
    // A node in a lambda body runs once per element: always worth keeping.
    slot.uses += repeated ? 2 : 1;
    this.#log.push(slot);
    return slot;
  }

  /** A position in the log of slots handed out: since(mark) gives the slots of what was compiled after it. */
  mark(): number {
    return this.#log.length;
  }

  since(mark: number): readonly SlotRef[] {
    return this.#log.slice(mark);
  }

  /** One more place evaluates the subexpressions `refs` (from since()): a compiled cell reused by another row. */
  reuse(refs: readonly SlotRef[]): void {
    for (const ref of refs) (ref as Slot).uses++;
  }

  /** Keeps the slots used at more than one place, numbered from 0; the others become UNSHARED's -1. */
  finish(): void {
    let size = 0;
    for (const slot of this.#slots.values()) slot.slot = slot.uses > 1 ? size++ : -1;
    this.#size = size;
    this.#log.length = 0;
  }
}

/** A shared evaluation that was invalid: every later use is invalid with the same reason. */
class Failed {
  readonly error: Invalid;
  constructor(error: Invalid) {
    this.error = error;
  }
}

/** `undefined` (a lenient reference that is missing), stored: the array's own undefined means "not computed yet". */
const MISSING = new Failed(new Invalid('missing'));
/**
 * An object or array value: evaluated again at each use, so that no two results share one mutable object
 * (only scalars, null and invalid outcomes are kept).
 */
const OBJECT = new Failed(new Invalid('object'));

/** `ev` shared through the slot `ref` names in the solve's array, when the scope has one and `ref` has a slot. */
export function sharedEvaluator(ev: Evaluator, ref: SlotRef): Evaluator {
  return (f) => operandValue(f, ref, ev);
}

/**
 * The value of the shared subexpression `ev` in slot `slot`: computed on its first use in the solve, then read.
 * A plain function (not a closure per node), so parents that know their child is shared read the slot without a
 * call (nodes.ts binaryEvaluator).
 */
export function sharedValue(f: Frame, slot: number, ev: Evaluator): unknown {
  const values = f.scope.perSolve;
  if (values === undefined) return ev(f);
  const known = values[slot];
  if (known === undefined) return fill(values, slot, ev, f);
  if (known instanceof Failed) {
    if (known === OBJECT) return ev(f);
    if (known === MISSING) return undefined;
    throw known.error;
  }
  return known;
}

/** What knownValue answers for a slot not computed yet in this solve, or holding no scalar. */
export const NOT_KNOWN: unique symbol = Symbol('not known');

/**
 * The scalar in slot `slot` of the solve's array (null included) when it has been computed in this solve, else
 * NOT_KNOWN: lets the owner of a shared root answer without a frame (compile.ts Program).
 */
export function knownValue(values: unknown[] | undefined, slot: number): unknown {
  if (values === undefined || slot < 0) return NOT_KNOWN;
  const known = values[slot];
  return known === undefined || known instanceof Failed ? NOT_KNOWN : known;
}

/** A child's value: read from its slot when shared (`ref.slot` >= 0, see nodes.ts sharedSlot), else evaluated. */
export function operandValue(f: Frame, ref: SlotRef, ev: Evaluator): unknown {
  const slot = ref.slot;
  return slot < 0 ? ev(f) : sharedValue(f, slot, ev);
}

function fill(values: unknown[], slot: number, ev: Evaluator, f: Frame): unknown {
  let value: unknown;
  try {
    value = ev(f);
  } catch (error) {
    // Only the language's own "invalid" is an outcome; anything else (a timeout, a limit) is not remembered.
    if (error instanceof Invalid) values[slot] = new Failed(error);
    throw error;
  }
  values[slot] = value === undefined ? MISSING : value !== null && typeof value === 'object' ? OBJECT : value;
  return value;
}

/** Canonical text of a subexpression: equal for equal trees, different whenever evaluation could differ. */
export function subexpressionKey(node: Node, lenient: boolean): string {
  return (lenient ? '~' : '') + keyOf(node);
}

function keyOf(node: Node): string {
  switch (node.kind) {
    case 'literal':
      return `${typeof node.value}:${typeof node.value === 'string' ? JSON.stringify(node.value) : String(node.value)}`;
    case 'text':
      return `text:${JSON.stringify(node.raw)}`;
    case 'interpolated':
      return `interpolated:${JSON.stringify(node.parts.map((part) => (typeof part === 'string' ? part : { ref: part.segments })))}`;
    case 'var':
      return `var:${JSON.stringify(node.segments)}`;
    case 'array':
      return `array(${node.items.map(keyOf).join(',')})`;
    case 'object':
      return `object(${node.members.map((m) => `${keyOf(m.key)}:${keyOf(m.value)}`).join(',')})`;
    case 'unary':
      return `unary${node.op}(${keyOf(node.operand)})`;
    case 'binary':
      return `binary${node.op}(${keyOf(node.left)},${keyOf(node.right)})`;
    case 'call':
      return `call:${node.name}(${node.args.map(keyOf).join(',')})`;
  }
}
