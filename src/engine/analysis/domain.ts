// The input space of a decision table, cut into atoms. Condition columns bound to the same input path share one
// dimension; every value that input can take falls into exactly one atom of it, and every condition cell the
// analysis understands is true on a whole atom or false on it (atoms are "homogeneous"). A cell is then simply the
// set of atoms it accepts, computed by running the engine's own compiled test on one witness value per atom, so
// the analysis can never disagree with evaluation about what a cell means.
//
// Atoms of a general input: missing, null, the empty array (an "empty container": null for NULL checks, present for
// `<>`), numbers cut at every number the cells mention (points and the open intervals between them), true, false,
// every text the cells mention, and "any other text", split by which of the substrings of the substring operators it
// contains. Atoms of a date input: missing, null, empty container, "not a date", and instants cut at every date the
// cells mention. Cells the analysis does not reason about are "unknown" (see classify()).
import type { EvaluationContext } from '../types.ts';
import { parsePath, type PathSegment } from '../path.ts';
import { isNumeric, textOf } from '../values.ts';
import { dependsOnNow, instantOf } from '../cells/dates.ts';
import { parseDateOperand } from '../cells/date-conditions.ts';
import { prepareOperand } from '../cells/operands.ts';
import type { TableStructure } from '../table/evaluate.ts';
import type { ConditionColumn, ConditionStep } from '../table/steps.ts';
import { STEP_CONDITION } from '../table/steps.ts';
import { bitIndexes, bitsKey, emptyBits, fullBits, hasBit, setBit, type Bits } from './bits.ts';

export type AtomGroup = 'missing' | 'null' | 'empty' | 'number' | 'boolean' | 'text' | 'otherText' | 'date' | 'notDate' | 'value';

export interface Atom {
  readonly group: AtomGroup;
  /** A value of the atom; undefined for `missing` (the key is left out of an example). */
  readonly witness: unknown;
  /** Numbers and dates: the atom's interval (a point when lo === hi and both closed). */
  readonly lo?: number;
  readonly hi?: number;
  readonly loOpen?: boolean;
  readonly hiOpen?: boolean;
  /** Other text: the substrings such a text contains. */
  readonly contains?: readonly string[];
  /** When several atoms no cell tells apart were merged: all of them (this atom is the one whose witness is used). */
  readonly members?: readonly Atom[];
}

export interface Dimension {
  readonly index: number;
  /** The input path (or the column's path for columns bound to a rule or calc variable). */
  readonly name: string;
  /** Where examples write the value; undefined for variable- and calc-bound columns (not part of the input). */
  readonly segments: readonly PathSegment[] | undefined;
  readonly kind: 'general' | 'date' | 'variable' | 'calc';
  readonly columns: ConditionColumn[];
  readonly atoms: readonly Atom[];
  readonly full: Bits;
  /** The atoms gaps are looked for in: the kinds of value the column's cells mention, plus missing and null. */
  readonly domain: Bits;
  /** The atom (class) holding "missing", or -1 (columns bound to variables). */
  readonly missing: number;
}

/** What a compiled condition cell means to the analysis. */
export type CellMeaning =
  | { readonly kind: 'else' }
  | { readonly kind: 'exact'; readonly set: Bits; readonly setId: number }
  | { readonly kind: 'unknown'; readonly reason: string };

/** A cell whose operator or value does not fit its column (reported as a `type` finding). */
export interface TypeIssue {
  readonly step: ConditionStep;
  readonly reason: string;
}

export interface InputSpace {
  readonly dimensions: readonly Dimension[];
  /** Dimension of each condition column, by condIndex. */
  readonly dimensionOf: readonly number[];
  meaning(step: ConditionStep): CellMeaning;
  /** Type issues by condIndex. */
  readonly typeIssues: readonly TypeIssue[];
}

/** Atoms x distinct value cells of one input beyond which its value cells are unknown (memory of the cell sets). */
const MAX_CELL_BITS = 200_000_000;
/** More substrings than this on one input make its substring cells unknown (atoms grow as 2^n). */
const MAX_SUBSTRINGS = 10;
const DAY = 86_400_000;
/** Static cells read ctx.now only for dates without a date part, which are unknown cells here. */
const STATIC_CONTEXT = { now: 0 } as EvaluationContext;
/** A substring that can occur in the text of a number (`1e+21`, ` -2.5`) would cut number intervals. */
const NUMERIC_TEXT_ONLY = /^[0-9+\-.eE\s]*$/;
/** Characters of JSON text: a substring with one could match the text of an object or array input. */
const JSON_PUNCTUATION = /[{}[\]":,]/;

interface Classified {
  readonly kind: 'anything' | 'else' | 'unknown' | 'general' | 'date';
  readonly reason?: string;
  readonly numbers?: readonly number[];
  readonly texts?: readonly string[];
  readonly booleans?: boolean;
  readonly needles?: readonly string[];
  readonly instants?: readonly number[];
  /** Ordering by a numeric operand (<, between, ...). */
  readonly numericOrder?: boolean;
  /** Ordering by text that is not numeric (analysed as unknown). */
  readonly textOrder?: boolean;
  /** Equality cells naming only non-numeric text. */
  readonly textEquality?: boolean;
  readonly typeIssue?: string;
  /** Compares values (not anything / null checks). */
  readonly valueCell?: boolean;
}

export function buildInputSpace(structure: TableStructure): InputSpace {
  const zone = structure.timeZone;
  const columns = structure.conditionColumns;
  // Distinct cells per column: identical cells share one compiled step (table/shared-cells.ts).
  const stepsOf = columns.map(() => new Set<ConditionStep>());
  for (const row of structure.rows) {
    for (const step of row.steps) if (step.kind === STEP_CONDITION) stepsOf[step.condIndex]!.add(step);
  }

  // Columns bound to one input path share a dimension; paths nesting one another (`client`, `client.age`) are
  // unknown: the outer one holds objects.
  const dimKeys: string[] = columns.map((column) =>
    column.left.kind === 'input' ? `input:${parsePath(column.path).join('\u0000')}` : `${column.left.kind}:${column.id}`,
  );
  const keyIndex = new Map<string, number>();
  const dimensionOf = dimKeys.map((key) => {
    let index = keyIndex.get(key);
    if (index === undefined) keyIndex.set(key, (index = keyIndex.size));
    return index;
  });
  const inputPaths = [...keyIndex.keys()].filter((key) => key.startsWith('input:')).map((key) => key.slice(6).split('\u0000'));
  const nested = new Set<string>();
  for (const a of inputPaths) {
    for (const b of inputPaths) {
      if (a.length < b.length && a.every((segment, i) => segment === b[i])) {
        nested.add(a.join('\u0000'));
        nested.add(b.join('\u0000'));
      }
    }
  }

  const classified = new Map<ConditionStep, Classified>();
  const meanings = new Map<ConditionStep, CellMeaning>();
  const typeIssues: TypeIssue[] = [];
  const dimensions: Dimension[] = [];
  for (let d = 0; d < keyIndex.size; d++) {
    const dimColumns = columns.filter((_, c) => dimensionOf[c] === d);
    const first = dimColumns[0]!;
    const kind = first.left.kind;
    const isNested = kind === 'input' && nested.has(parsePath(first.path).join('\u0000'));
    const steps: ConditionStep[] = [];
    for (const column of dimColumns) for (const step of stepsOf[column.condIndex]!) steps.push(step);
    for (const step of steps) {
      let c = classify(step, zone);
      if (isNested && c.kind !== 'anything' && c.kind !== 'else') c = { kind: 'unknown', reason: 'the input path nests another column\'s path' };
      else if (kind === 'calc' && c.kind !== 'anything' && c.kind !== 'else') c = { kind: 'unknown', reason: 'the column is bound to a calculation column' };
      classified.set(step, c);
    }
    // One kind of value per dimension: date cells next to general value cells are left unknown.
    const hasGeneralValues = steps.some((s) => classified.get(s)!.kind === 'general' && classified.get(s)!.valueCell);
    const hasDateValues = steps.some((s) => classified.get(s)!.kind === 'date' && classified.get(s)!.valueCell);
    if (hasGeneralValues && hasDateValues) {
      for (const s of steps) if (classified.get(s)!.kind === 'date' && classified.get(s)!.valueCell) classified.set(s, { kind: 'unknown', reason: 'a date cell on an input whose other cells compare general values' });
    }
    let needles = new Set<string>();
    for (const s of steps) for (const n of classified.get(s)!.needles ?? []) needles.add(n);
    if (needles.size > MAX_SUBSTRINGS) {
      for (const s of steps) if (classified.get(s)!.needles) classified.set(s, { kind: 'unknown', reason: `more than ${MAX_SUBSTRINGS} different substrings on one input` });
      needles = new Set();
    }
    const dimKind: Dimension['kind'] = kind === 'variable' ? 'variable' : kind === 'calc' ? 'calc' : hasDateValues && !hasGeneralValues ? 'date' : 'general';
    let exactSteps = steps.filter((s) => classified.get(s)!.kind !== 'unknown' && classified.get(s)!.kind !== 'else');
    // Cell sets are dense bit sets over the atoms: an input with tens of thousands of distinct values compared by as
    // many distinct cells would need gigabytes. Its value cells are then left unknown (the other inputs stay exact).
    const valueSteps = exactSteps.filter((s) => classified.get(s)!.valueCell);
    const values = new Set<unknown>();
    for (const step of valueSteps) {
      const c = classified.get(step)!;
      for (const n of c.numbers ?? []) values.add(n);
      for (const t of c.texts ?? []) values.add(`t${t}`);
      for (const i of c.instants ?? []) values.add(i);
    }
    const valueCount = values.size;
    if (valueCount * valueSteps.length > MAX_CELL_BITS) {
      const reason = `too many distinct values on one input for the analysis (${valueCount} values in ${valueSteps.length} different cells)`;
      for (const step of valueSteps) classified.set(step, { kind: 'unknown', reason });
      exactSteps = exactSteps.filter((s) => !valueSteps.includes(s));
    }
    const atoms: AtomDraft[] =
      dimKind === 'variable'
        ? [{ group: 'value', witness: first.left.kind === 'variable' ? first.left.value : undefined, inDomain: true }]
        : dimKind === 'calc'
          ? [{ group: 'value', witness: undefined, inDomain: true }]
          : dimKind === 'date'
            ? dateAtoms(exactSteps.map((s) => classified.get(s)!))
            : generalAtoms(exactSteps.map((s) => classified.get(s)!), [...needles].sort());
    // Each distinct cell's atoms, by running its compiled test on every atom's witness.
    const witnesses = atoms.map((atom) => atom.witness);
    const pointOf = new Map<string, number>();
    atoms.forEach((atom, i) => {
      const key = pointKey(atom);
      if (key !== undefined) pointOf.set(key, i);
    });
    const cellSets = new Map<ConditionStep, Bits>();
    const distinctSets = new Map<string, Bits>();
    for (const step of steps) {
      const c = classified.get(step)!;
      if (c.typeIssue) typeIssues.push({ step, reason: c.typeIssue });
      if (c.kind === 'else') meanings.set(step, { kind: 'else' });
      else if (c.kind === 'unknown') meanings.set(step, { kind: 'unknown', reason: c.reason! });
      else {
        const set = equalitySet(step, atoms, pointOf) ?? testedSet(step, witnesses);
        const key = bitsKey(set);
        const known = distinctSets.get(key);
        if (known === undefined) distinctSets.set(key, set);
        cellSets.set(step, known ?? set);
      }
    }
    // Atoms no cell tells apart (and equally inside or outside the gap domain) are merged into one class: every
    // search then works on fewer atoms. A class keeps its first atom as witness and all its atoms for messages.
    // Partition refinement: split the classes by the gap domain, then by each distinct cell set in turn.
    const classOf = new Int32Array(atoms.length);
    atoms.forEach((atom, a) => {
      classOf[a] = atom.inDomain ? 1 : 0;
    });
    // Sparse refinement: the atoms of a set leave their class for a new one (one per class they leave), so the
    // cost is the sets' sizes, not sets x atoms (tables with thousands of `=` cells on one input).
    let classCount = 2;
    const movedTo = new Map<number, number>();
    for (const set of distinctSets.values()) {
      movedTo.clear();
      for (const a of bitIndexes(set)) {
        const from = classOf[a]!;
        let to = movedTo.get(from);
        if (to === undefined) movedTo.set(from, (to = classCount++));
        classOf[a] = to;
      }
    }
    const classes: AtomDraft[][] = [];
    const firstOf = new Map<number, number>();
    atoms.forEach((atom, a) => {
      let k = firstOf.get(classOf[a]!);
      if (k === undefined) {
        firstOf.set(classOf[a]!, (k = classes.length));
        classes.push([]);
      }
      classes[k]!.push(atom);
      classOf[a] = k;
    });
    const merged: Atom[] = classes.map((members) => {
      const { inDomain: _inDomain, ...witness } = preferredWitness(members);
      return members.length === 1 ? witness : { ...witness, members: members.map(({ inDomain: _unused, ...atom }) => atom) };
    });
    const full = fullBits(merged.length);
    const domain = emptyBits(merged.length);
    classes.forEach((members, k) => {
      if (members[0]!.inDomain) setBit(domain, k);
    });
    const remapped = new Map<Bits, CellMeaning>();
    for (const [step, set] of cellSets) {
      let meaning = remapped.get(set);
      if (meaning === undefined) {
        const classSet = emptyBits(merged.length);
        for (let a = 0; a < atoms.length; a++) if (hasBit(set, a)) setBit(classSet, classOf[a]!);
        remapped.set(set, (meaning = { kind: 'exact', set: classSet, setId: remapped.size }));
      }
      meanings.set(step, meaning);
    }
    dimensions.push({
      index: d,
      name: first.path,
      segments: kind === 'input' ? parsePath(first.path) : undefined,
      kind: dimKind,
      columns: dimColumns,
      atoms: merged,
      full,
      domain,
      missing: atoms[0]!.group === 'missing' ? classOf[0]! : -1,
    });
    typeIssues.push(...columnTypeIssues(steps, classified));
  }
  return {
    dimensions,
    dimensionOf,
    typeIssues,
    meaning: (step) => meanings.get(step) ?? { kind: 'unknown', reason: 'cell not seen by the analysis' },
  };
}

/** Which cells the analysis understands exactly, and what they mention (numbers, texts, substrings, dates). */
function classify(step: ConditionStep, zone: string): Classified {
  const condition = step.condition;
  const operator = condition.operator;
  if (operator === 'anything') return { kind: 'anything' };
  if (condition.kind === 'else') return { kind: 'else' };
  if (condition.kind === 'function') return { kind: 'unknown', reason: 'function cell' };
  if (condition.kind === 'dynamic') return { kind: 'unknown', reason: 'the cell refers to another input or variable' };
  if (step.column.left.kind === 'variable') return condition.isDate ? { kind: 'unknown', reason: 'a date cell on a rule variable' } : { kind: 'general' };
  if (operator === 'isNull' || operator === 'isNotNull') return { kind: condition.isDate ? 'date' : 'general' };
  if (condition.isDate) return classifyDate(operator, condition.operand, zone);
  const operand = condition.operand;
  switch (operator) {
    case '=':
    case '<>':
    case 'IN':
    case 'NOT IN': {
      const members = operator === '=' || operator === '<>' ? [operand] : Array.isArray(operand) ? operand : [operand];
      const numbers: number[] = [];
      const texts: string[] = [];
      let booleans = false;
      for (const member of members) {
        if (member === null || member === undefined) continue;
        const p = prepareOperand(member);
        if (p.isObject || p.json !== undefined) return { kind: 'unknown', reason: 'a JSON object or array value' };
        if (p.numeric) numbers.push(p.num);
        else if (p.bool >= 0) booleans = true;
        else texts.push(p.text);
      }
      const textEquality = texts.some((t) => t !== '') && numbers.length === 0 && !booleans;
      return { kind: 'general', numbers, texts, booleans, textEquality, valueCell: true };
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const p = prepareOperand(operand);
      if (p.missing) return { kind: 'general', valueCell: true };
      if (p.numeric) return { kind: 'general', numbers: [p.num], numericOrder: true, valueCell: true };
      return { kind: 'unknown', reason: 'ordering of text or booleans', textOrder: true };
    }
    case 'between':
    case 'betweenLeftOpen':
    case 'betweenRightOpen':
    case 'notBetween': {
      const bounds = (Array.isArray(operand) ? operand : []).map(prepareOperand);
      if (bounds.length !== 2) return { kind: 'general', valueCell: true };
      const numeric = bounds.filter((b) => b.numeric);
      if (numeric.length === 2) return { kind: 'general', numbers: numeric.map((b) => b.num), numericOrder: true, valueCell: true };
      if (numeric.length === 1 && operator !== 'notBetween') {
        return { kind: 'general', valueCell: true, typeIssue: `${operator} mixes a number and a value that is not a number: no value lies between them` };
      }
      if (numeric.length === 1) return { kind: 'unknown', reason: 'notBetween with a number and a text bound', typeIssue: 'notBetween mixes a number and a value that is not a number' };
      return { kind: 'unknown', reason: 'ordering of text or booleans', textOrder: true };
    }
    case 'containsText':
    case 'containsIn':
    case 'notContainsIn': {
      const needles = (Array.isArray(operand) ? operand : [operand]).map(textOf);
      for (const needle of needles) {
        if (NUMERIC_TEXT_ONLY.test(needle)) return { kind: 'unknown', reason: 'a substring that can occur in the text of a number' };
        if (JSON_PUNCTUATION.test(needle)) return { kind: 'unknown', reason: 'a substring with JSON punctuation' };
      }
      return { kind: 'general', needles, valueCell: true };
    }
    default:
      return { kind: 'unknown', reason: `operator ${operator}` };
  }
}

function classifyDate(operator: string, operand: unknown, zone: string): Classified {
  const values = operator === 'IN' || operator === 'NOT IN' || Array.isArray(operand) ? (Array.isArray(operand) ? operand : [operand]) : [operand];
  const instants: number[] = [];
  for (const value of values) {
    const parsed = parseDateOperand(value);
    if (!parsed.ok) return { kind: 'unknown', reason: 'a date that does not parse' };
    if (dependsOnNow(parsed.parts)) return { kind: 'unknown', reason: 'a date without a date part (depends on the day of the solve)' };
    instants.push(instantOf(parsed.parts, 0, zone));
  }
  return { kind: 'date', instants, valueCell: true };
}

/** Comparisons that do not fit the column's other cells. */
function columnTypeIssues(steps: readonly ConditionStep[], classified: ReadonlyMap<ConditionStep, Classified>): TypeIssue[] {
  const issues: TypeIssue[] = [];
  const byColumn = new Map<ConditionColumn, ConditionStep[]>();
  for (const step of steps) {
    let list = byColumn.get(step.column);
    if (!list) byColumn.set(step.column, (list = []));
    list.push(step);
  }
  for (const list of byColumn.values()) {
    const of = (s: ConditionStep) => classified.get(s)!;
    const textEquality = list.some((s) => of(s).textEquality);
    const numericValues = list.some((s) => of(s).kind === 'general' && (of(s).numbers?.length ?? 0) > 0);
    const numericEquality = list.some((s) => of(s).kind === 'general' && !of(s).numericOrder && (of(s).numbers?.length ?? 0) > 0);
    const dates = list.filter((s) => s.condition.isDate && s.condition.operator !== 'isNull' && s.condition.operator !== 'isNotNull' && s.condition.operator !== 'anything');
    const generalValues = list.filter((s) => !s.condition.isDate && of(s).valueCell);
    for (const step of list) {
      const c = of(step);
      if (c.numericOrder && textEquality && !numericEquality) {
        issues.push({ step, reason: `a numeric comparison (${step.condition.operator}) in a column whose other cells compare text` });
      } else if (c.textOrder && numericValues && !textEquality) {
        issues.push({ step, reason: `${step.condition.operator} compares with text that is not a number, in a column of numbers` });
      }
    }
    if (dates.length > 0 && generalValues.length > 0) {
      const minority = dates.length < generalValues.length ? dates : dates.length > generalValues.length ? generalValues : [];
      const what = minority === dates ? 'a date cell in a column of general (text or number) cells' : 'a general (text or number) cell in a column of date cells';
      for (const step of minority) issues.push({ step, reason: what });
    }
  }
  return issues;
}

/** The key under which an `=` operand finds its atom: numbers by value, true/false, other text exactly. */
function pointKey(atom: AtomDraft): string | undefined {
  if (atom.group === 'number' && atom.lo === atom.hi) return `n${atom.lo}`;
  if (atom.group === 'boolean') return atom.witness === true ? 'b1' : 'b0';
  if (atom.group === 'text') return `t${String(atom.witness)}`;
  return undefined;
}

/**
 * The atoms of a general `=` / `IN` cell on an input, found by key instead of by testing every atom: only the
 * atoms of its members can equal them (each mentioned number, boolean and text is an atom of its own; the other
 * atoms are intervals around them, other texts, null, missing). Each atom found is confirmed by the cell's test;
 * undefined for other cells or when a confirmation fails (the caller then tests every atom).
 */
function equalitySet(step: ConditionStep, atoms: readonly AtomDraft[], pointOf: ReadonlyMap<string, number>): Bits | undefined {
  const condition = step.condition;
  const test = step.test;
  if (test === undefined || condition.kind !== 'static' || condition.isDate || step.column.left.kind !== 'input') return undefined;
  if (condition.operator !== '=' && condition.operator !== 'IN') return undefined;
  const members = condition.operator === '=' ? [condition.operand] : Array.isArray(condition.operand) ? condition.operand : [condition.operand];
  const set = emptyBits(atoms.length);
  for (const member of members) {
    if (member === null || member === undefined) continue;
    const p = prepareOperand(member);
    if (p.isObject || p.json !== undefined) return undefined;
    const atom = pointOf.get(p.numeric ? `n${p.num}` : p.bool >= 0 ? `b${p.bool}` : `t${p.text}`);
    if (atom === undefined || !test(atoms[atom]!.witness)) return undefined;
    setBit(set, atom);
  }
  return set;
}

/** The atoms a cell accepts, by running its compiled test on every atom's witness. */
function testedSet(step: ConditionStep, witnesses: readonly unknown[]): Bits {
  const set = emptyBits(witnesses.length);
  // The scope-free test when the cell has one (general cells on an input): the same function evaluation runs.
  const leftTest = step.test;
  const condition = step.condition;
  for (let i = 0; i < witnesses.length; i++) {
    if (leftTest !== undefined ? leftTest(witnesses[i]) : condition.test(witnesses[i], undefined, STATIC_CONTEXT)) set[i >>> 5]! |= 1 << (i & 31);
  }
  return set;
}

/** The atom of a class whose witness makes the best example: a real value, else null, else missing. */
function preferredWitness(members: readonly AtomDraft[]): AtomDraft {
  return (
    members.find((atom) => atom.group !== 'missing' && atom.group !== 'null' && atom.group !== 'empty') ??
    members.find((atom) => atom.group === 'null') ??
    members[0]!
  );
}

interface AtomDraft extends Atom {
  readonly inDomain: boolean;
}

const MISSING: AtomDraft = { group: 'missing', witness: undefined, inDomain: true };
const NULL: AtomDraft = { group: 'null', witness: null, inDomain: true };
const EMPTY: AtomDraft = { group: 'empty', witness: [], inDomain: false };

function generalAtoms(cells: readonly Classified[], needles: readonly string[]): AtomDraft[] {
  const numbers = new Set<number>();
  const texts = new Set<string>();
  let booleans = false;
  for (const c of cells) {
    for (const n of c.numbers ?? []) numbers.add(n);
    for (const t of c.texts ?? []) texts.add(t);
    if (c.booleans) booleans = true;
  }
  const mentionsText = texts.size > 0 || needles.length > 0;
  const mentionsNothing = numbers.size === 0 && texts.size === 0 && !booleans && needles.length === 0;
  const atoms: AtomDraft[] = [MISSING, NULL, EMPTY];
  atoms.push(...intervalAtoms([...numbers], 'number', numbers.size > 0, (n) => n, niceNumberBetween));
  atoms.push({ group: 'boolean', witness: true, inDomain: booleans }, { group: 'boolean', witness: false, inDomain: booleans });
  for (const text of [...texts].sort()) atoms.push({ group: 'text', witness: text, inDomain: true });
  // Other text: one atom per set of substrings a text can contain (a set is possible when it holds every
  // substring that is part of one of its members).
  const count = needles.length;
  for (let mask = 0; mask < 1 << count; mask++) {
    const members = needles.filter((_, i) => (mask & (1 << i)) !== 0);
    const closed = needles.every((needle, j) => (mask & (1 << j)) !== 0 || !members.some((member) => member.includes(needle)));
    if (!closed) continue;
    const witness = otherText(members, needles, texts);
    if (witness === undefined) continue;
    atoms.push({ group: 'otherText', witness, contains: members, inDomain: mentionsText || mentionsNothing });
  }
  return atoms;
}

/** A text that is not mentioned, not numeric, not boolean-like, and contains exactly `members` of `needles`. */
function otherText(members: readonly string[], needles: readonly string[], mentioned: ReadonlySet<string>): string | undefined {
  const fits = (text: string): boolean =>
    !mentioned.has(text) &&
    !isNumeric(text) &&
    text !== 'true' &&
    text !== 'false' &&
    needles.every((needle) => text.includes(needle) === members.includes(needle));
  for (const separator of [' ', '~', '#', '§', '\u00a4', '\u2021']) {
    const base = members.length === 0 ? 'other' : members.join(separator);
    for (const candidate of [base, `${base}${separator}x`, `${base}${separator}${separator}`, `${separator}${separator}`]) if (fits(candidate)) return candidate;
  }
  return undefined;
}

function dateAtoms(cells: readonly Classified[]): AtomDraft[] {
  const instants = new Set<number>();
  for (const c of cells) for (const t of c.instants ?? []) instants.add(t);
  return [
    MISSING,
    NULL,
    EMPTY,
    { group: 'notDate', witness: 'not a date', inDomain: false },
    ...intervalAtoms([...instants], 'date', true, dateWitness, niceInstantBetween),
  ];
}

/** Points at each bound and the open intervals around them; intervals without a representable value are left out. */
function intervalAtoms(
  points: number[],
  group: 'number' | 'date',
  inDomain: boolean,
  witness: (n: number) => unknown,
  between: (lo: number, hi: number) => number | undefined,
): AtomDraft[] {
  points.sort((a, b) => a - b);
  const atoms: AtomDraft[] = [];
  const open = (lo: number, hi: number): void => {
    const w = between(lo, hi);
    if (w !== undefined) atoms.push({ group, witness: witness(w), lo, hi, loOpen: true, hiOpen: true, inDomain });
  };
  if (points.length === 0) {
    atoms.push({ group, witness: witness(group === 'date' ? Date.UTC(2024, 0, 1) : 0), lo: -Infinity, hi: Infinity, loOpen: true, hiOpen: true, inDomain });
    return atoms;
  }
  open(-Infinity, points[0]!);
  points.forEach((point, i) => {
    atoms.push({ group, witness: witness(point), lo: point, hi: point, loOpen: false, hiOpen: false, inDomain });
    open(point, i + 1 < points.length ? points[i + 1]! : Infinity);
  });
  return atoms;
}

/** A readable number strictly between lo and hi (either may be infinite), or undefined when there is none. */
function niceNumberBetween(lo: number, hi: number): number | undefined {
  const candidates: number[] = [];
  if (lo === -Infinity && hi === Infinity) candidates.push(0);
  else if (lo === -Infinity) candidates.push(Math.ceil(hi) - 1, hi - Math.abs(hi), -Number.MAX_VALUE);
  else if (hi === Infinity) candidates.push(Math.floor(lo) + 1, lo + Math.abs(lo), Number.MAX_VALUE);
  else candidates.push(Math.floor(lo) + 1, lo + (hi - lo) / 2, lo / 2 + hi / 2);
  return candidates.find((n) => Number.isFinite(n) && n > lo && n < hi);
}

function niceInstantBetween(lo: number, hi: number): number | undefined {
  if (lo === -Infinity) return hi === Infinity ? Date.UTC(2024, 0, 1) : hi - DAY;
  if (hi === Infinity) return lo + DAY;
  const candidates = [lo + DAY, Math.floor(lo + (hi - lo) / 2), lo + (hi - lo) / 2];
  return candidates.find((n) => n > lo && n < hi);
}

/** ISO text for whole milliseconds in years 1-9999 (what a user would send); the epoch number otherwise. */
function dateWitness(ms: number): unknown {
  if (Number.isInteger(ms) && ms >= -62_135_596_800_000 && ms <= 253_402_300_799_999) return new Date(ms).toISOString();
  return ms;
}
