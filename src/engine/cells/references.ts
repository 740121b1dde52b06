// `{name}` references inside simple cell text (§2.9 variables in cells, §2.10 simple values), parsed once.
// A reference the cell can resolve at compile time (a rule variable nothing else can shadow) is inlined; the
// rest are read from the Scope on each solve.
import { parsePath, type PathSegment } from '../path.ts';
import type { Scope } from '../expression/index.ts';
import { textOf } from '../values.ts';

export interface Reference {
  /** The path as written between the braces, trimmed. */
  readonly path: string;
  readonly segments: readonly PathSegment[];
  /** The literal text of the reference, kept when it cannot be resolved. */
  readonly literal: string;
}

/** Text of a model path: letters (any script), digits, `_`, `-`, `$`, spaces, dots and `[n]` indexes. */
const REFERENCE = /\{([\p{L}\p{N}_$\- .[\]]+)\}/gu;

export type TemplatePart = string | Reference;

/** Splits text into literal parts and references; undefined when the text holds no reference. */
export function parseTemplate(text: string): TemplatePart[] | undefined {
  // Most cell texts hold no brace: a search costs less than the regular expression's iterator.
  if (!text.includes('{')) return undefined;
  let parts: TemplatePart[] | undefined;
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    const path = match[1]!.trim();
    // Digits-only braces are regular-expression quantifiers (`^\d{5}$`), never references (as in expressions).
    if (path === '' || path.startsWith('.') || path.endsWith('.') || /^\d+$/.test(path)) continue;
    const segments = parsePath(path);
    if (segments.length === 0) continue;
    parts ??= [];
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ path, segments, literal: match[0] });
    last = match.index + match[0].length;
  }
  if (parts && last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Marks a reference that must be resolved per solve. */
export const DYNAMIC: unique symbol = Symbol('dynamic');

/**
 * Resolves a reference at compile time: its value, or DYNAMIC when it depends on the input, a calc variable or an
 * earlier output. A value of undefined means "known to be unresolvable" (kept literally).
 */
export type StaticResolver = (ref: Reference) => unknown;

/**
 * A template whose statically known references are already substituted. `evaluate` gives the whole-reference
 * value raw (an object stays an object) and mixed text as a string; unresolved references stay literal.
 */
export interface CompiledTemplate {
  /** True when no part needs the scope: `value` holds the result. */
  readonly constant: boolean;
  readonly value: unknown;
  evaluate(scope: Scope): unknown;
}

type ResolvedPart = { kind: 'text'; text: string } | { kind: 'value'; value: unknown; literal: string } | { kind: 'ref'; ref: Reference };

export function compileTemplate(text: string, resolveStatic: StaticResolver): CompiledTemplate {
  const parts = parseTemplate(text);
  if (!parts) return constantTemplate(text);
  const resolved: ResolvedPart[] = parts.map((part) => {
    if (typeof part === 'string') return { kind: 'text', text: part };
    const value = resolveStatic(part);
    return value === DYNAMIC ? { kind: 'ref', ref: part } : { kind: 'value', value, literal: part.literal };
  });
  if (resolved.length === 1) {
    const only = resolved[0]!;
    if (only.kind === 'value') return constantTemplate(only.value === undefined ? only.literal : only.value);
    if (only.kind === 'ref') {
      const ref = only.ref;
      return {
        constant: false,
        value: undefined,
        evaluate: (scope) => {
          const value = scope.resolve(ref.segments, ref.path);
          return value === undefined ? ref.literal : value;
        },
      };
    }
  }
  // Mixed text: fold constant neighbours together so a solve only concatenates what changes.
  const pieces: (string | Reference)[] = [];
  for (const part of resolved) {
    const piece = part.kind === 'text' ? part.text : part.kind === 'value' ? (part.value === undefined ? part.literal : textOf(part.value)) : part.ref;
    const previous = pieces[pieces.length - 1];
    if (typeof piece === 'string' && typeof previous === 'string') pieces[pieces.length - 1] = previous + piece;
    else pieces.push(piece);
  }
  if (pieces.length === 1 && typeof pieces[0] === 'string') return constantTemplate(pieces[0]);
  return {
    constant: false,
    value: undefined,
    evaluate: (scope) => {
      let out = '';
      for (const piece of pieces) {
        if (typeof piece === 'string') out += piece;
        else {
          const value = scope.resolve(piece.segments, piece.path);
          out += value === undefined ? piece.literal : textOf(value);
        }
      }
      return out;
    },
  };
}

/**
 * A template (or list operand) without references: its value, the same in every solve. A class rather than an
 * object with a closure: compiling a large table makes one per distinct cell member.
 */
class ConstantTemplate implements CompiledTemplate {
  readonly constant = true;
  readonly value: unknown;

  constructor(value: unknown) {
    this.value = value;
  }

  evaluate(): unknown {
    return this.value;
  }
}

export function constantTemplate(value: unknown): CompiledTemplate {
  return new ConstantTemplate(value);
}
