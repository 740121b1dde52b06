// Static analysis of a compiled decision table: unreachable rows, overlaps, gaps, contradictions, duplicates and
// type mismatches (docs/decisions/analysis-decision-tables.md). Pure: reads the compiled structure only.
//
// Each row is a box: per dimension (input) the set of atoms its cells accept (cells on one input intersected,
// ELSE and unknown cells accepting everything). Rows with an unknown cell or a time window are "uncertain": they may
// or may not match inside their box, so they never cover anything (no false unreachable) but always might (no
// false gap). ELSE needs no special box: the inputs some row up to r matches are exactly the union of the boxes up
// to r with ELSE cells read as "anything", whatever ELSE rows sit among them.
import type { CompiledRule } from '../types.ts';
import { setAt } from '../path.ts';
import { DecisionTable, type TableStructure } from '../table/evaluate.ts';
import { STEP_CALC, STEP_CONDITION, STEP_OUTPUT, type ConditionColumn, type ConditionStep, type TableRow } from '../table/steps.ts';
import { andBits, andInto, bitIndexes, bitsKey, firstBit, hasBit, isEmpty, isSubset, orInto, sameBits, setBit, type Bits } from './bits.ts';
import { Budget, BudgetExceeded, quickUncovered, walkUncovered, type Box } from './cover.ts';
import { buildInputSpace, type Atom, type Dimension, type InputSpace } from './domain.ts';
import { FINDING_KINDS, type AnalysisOptions, type AnalysisReport, type Finding, type UndecidedReason } from './report.ts';
import { cellsOutsideValidValues } from './valid-values.ts';

const DEFAULTS = { maxGaps: 10, maxOverlaps: 100, budget: 8_000_000 };
/** One row's unreachability check may spend at most this share of the budget. */
const ROW_BUDGET = 50_000;
/** The gap search gets its own budget, this share of the whole (the row checks share the rest). */
const GAP_SHARE = 0.25;
/** Covering rows named in an unreachable finding. */
const MAX_COVERING = 20;

interface RowBox {
  /** Index in the compiled (active) rows. */
  readonly order: number;
  /** 0-based position in decisionTable.rows. */
  readonly position: number;
  readonly row: TableRow;
  /** Per dimension: the interned set id (-1 = every atom). */
  readonly ids: number[];
  readonly sets: Bits[];
  readonly hasElse: boolean;
  /** No unknown cell and no time window: the row matches exactly its box (minus rows above, for ELSE rows). */
  readonly exact: boolean;
  readonly contradiction: boolean;
  readonly resultKey: number;
}

/** Analyses a compiled decision table. Throws TypeError for other rule types. */
export function analyseDecisionTable(rule: CompiledRule, options: AnalysisOptions = {}): AnalysisReport {
  if (!(rule instanceof DecisionTable)) throw new TypeError(`only decision tables can be analysed (got a ${rule.type})`);
  const { document, ...limits } = options;
  const report = new TableAnalysis(rule, { ...DEFAULTS, ...limits }).run();
  // Valid-value findings rank last of the kinds and come in row order already, so appending keeps the sort.
  if (document !== undefined) {
    for (const cell of cellsOutsideValidValues(document)) {
      report.findings.push({ kind: 'valid-value', rows: [cell.row], columns: [cell.column], message: `Row ${cell.row + 1}: ${cell.message}` });
    }
  }
  return report;
}

class TableAnalysis {
  private readonly space: InputSpace;
  private readonly dims: readonly Dimension[];
  private readonly rows: RowBox[] = [];
  private readonly findings: Finding[] = [];
  private readonly undecided = new Map<string, UndecidedReason>();
  private readonly undecidedRows = new Set<number>();
  private readonly budget: Budget;
  private readonly options: Required<Omit<AnalysisOptions, 'document'>>;
  private readonly structure: TableStructure;
  /** Interned sets per dimension. */
  private readonly interned: Map<string, number>[];
  private readonly internedSets: Bits[][];
  /** Splitting order of the dimensions: those most rows restrict first. */
  private order: number[] = [];
  private overlaps = 0;
  private omittedOverlaps = 0;
  private moreGaps = false;

  constructor(rule: DecisionTable, options: Required<Omit<AnalysisOptions, 'document'>>) {
    this.structure = rule.structure;
    this.space = buildInputSpace(this.structure);
    this.dims = this.space.dimensions;
    this.options = options;
    this.budget = new Budget(options.budget);
    this.interned = this.dims.map(() => new Map());
    this.internedSets = this.dims.map(() => []);
  }

  run(): AnalysisReport {
    this.readRows();
    this.contradictions();
    const duplicateGroup = this.duplicates();
    this.order = this.splittingOrder();
    this.reachabilityAndOverlaps(duplicateGroup);
    this.gaps();
    this.typeFindings();
    const reasons = [...this.undecided.values()];
    const columns = new Set<string>();
    for (const reason of reasons) for (const column of reason.columns) columns.add(column);
    const rank = (kind: string): number => FINDING_KINDS.indexOf(kind as (typeof FINDING_KINDS)[number]);
    const findings = this.findings
      .map((finding, i) => ({ finding, i }))
      .sort((a, b) => rank(a.finding.kind) - rank(b.finding.kind) || (a.finding.rows[0] ?? -1) - (b.finding.rows[0] ?? -1) || a.i - b.i)
      .map(({ finding }) => finding);
    return {
      findings,
      undecided: { rows: [...this.undecidedRows].sort((a, b) => a - b), columns: [...columns], reasons },
      omitted: { overlaps: this.omittedOverlaps, gaps: this.moreGaps },
    };
  }

  private intern(d: number, bits: Bits): number {
    if (sameBits(bits, this.dims[d]!.full)) return -1;
    const key = bitsKey(bits);
    let id = this.interned[d]!.get(key);
    if (id === undefined) {
      id = this.internedSets[d]!.length;
      this.interned[d]!.set(key, id);
      this.internedSets[d]!.push(bits);
    }
    return id;
  }

  private readRows(): void {
    const resultKeys = new Map<string, number>();
    this.structure.rows.forEach((row, order) => {
      const sets: Bits[] = this.dims.map((dim) => dim.full);
      let hasElse = false;
      let uncertain = row.window !== undefined;
      const position = row.number - 1;
      if (row.window !== undefined) this.markUndecided(position, undefined, 'the row has a time window (timeValidation)');
      let result = '';
      for (const step of row.steps) {
        if (step.kind !== STEP_CONDITION) {
          const value = step.value;
          result += `${step.kind === STEP_CALC ? 'c' : 'o'}${step.kind === STEP_OUTPUT ? step.slot : step.calcIndex}:${value.isConstant ? JSON.stringify(value.constant) : `=${value.source}`}\u0000`;
          continue;
        }
        const meaning = this.space.meaning(step);
        const d = this.space.dimensionOf[step.condIndex]!;
        if (meaning.kind === 'else') hasElse = true;
        else if (meaning.kind === 'unknown') {
          uncertain = true;
          this.markUndecided(position, step.column, meaning.reason);
        } else if (sets[d] === this.dims[d]!.full) sets[d] = meaning.set;
        else sets[d] = andBits(sets[d]!, meaning.set);
      }
      let resultKey = resultKeys.get(result);
      if (resultKey === undefined) resultKeys.set(result, (resultKey = resultKeys.size));
      const contradiction = sets.some(isEmpty);
      const ids = sets.map((set, d) => this.intern(d, set));
      this.rows.push({ order, position, row, ids, sets, hasElse, exact: !uncertain, contradiction, resultKey });
    });
  }

  private markUndecided(position: number, column: ConditionColumn | undefined, reason: string): void {
    const key = `${column?.id ?? ''}\u0000${reason}`;
    let entry = this.undecided.get(key);
    if (!entry) this.undecided.set(key, (entry = { reason: column ? `${reason} (column ${column.path})` : reason, rows: [], columns: column ? [column.id] : [] }));
    if (entry.rows[entry.rows.length - 1] !== position) entry.rows.push(position);
    this.undecidedRows.add(position);
  }

  private contradictions(): void {
    for (const box of this.rows) {
      if (!box.contradiction) continue;
      const emptyDims = this.dims.filter((_, d) => isEmpty(box.sets[d]!));
      const columns: string[] = [];
      const parts: string[] = [];
      for (const dim of emptyDims) {
        const steps = this.stepsOn(box.row, dim).filter((step) => this.space.meaning(step).kind === 'exact' && step.condition.operator !== 'anything');
        columns.push(...new Set(steps.map((step) => step.column.id)));
        const alone = steps.find((step) => {
          const meaning = this.space.meaning(step);
          return meaning.kind === 'exact' && isEmpty(meaning.set);
        });
        parts.push(
          alone
            ? `the cell ${describeCell(alone)} on ${dim.name} accepts no value`
            : `the cells ${steps.map(describeCell).join(' and ')} on ${dim.name} exclude each other`,
        );
      }
      this.findings.push({ kind: 'contradiction', rows: [box.position], columns, message: `Row ${box.position + 1} can never match: ${parts.join('; ')}.` });
    }
  }

  private stepsOn(row: TableRow, dim: Dimension): ConditionStep[] {
    const steps: ConditionStep[] = [];
    for (const step of row.steps) if (step.kind === STEP_CONDITION && this.space.dimensionOf[step.condIndex] === dim.index) steps.push(step);
    return steps;
  }

  /** Rows with identical conditions; returns each row's group number (-1 when it has no duplicate). */
  private duplicates(): Int32Array {
    const groups = new Map<string, RowBox[]>();
    const stepIds = new Map<ConditionStep, number>();
    for (const box of this.rows) {
      if (box.contradiction || box.row.window !== undefined) continue;
      let key = box.ids.join(',');
      for (const step of box.row.steps) {
        if (step.kind !== STEP_CONDITION) continue;
        const meaning = this.space.meaning(step);
        if (meaning.kind === 'exact') continue;
        let id = stepIds.get(step);
        if (id === undefined) stepIds.set(step, (id = stepIds.size));
        key += `|${step.condIndex}:${meaning.kind === 'else' ? 'else' : id}`;
      }
      let group = groups.get(key);
      if (!group) groups.set(key, (group = []));
      group.push(box);
    }
    const groupOf = new Int32Array(this.rows.length).fill(-1);
    let number = 0;
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      for (const box of group) groupOf[box.order] = number;
      number++;
      const same = group.every((box) => box.resultKey === group[0]!.resultKey);
      const columns = new Set<string>();
      for (const step of group[0]!.row.steps) if (step.kind === STEP_CONDITION && step.condition.operator !== 'anything') columns.add(step.column.id);
      const rows = group.map((box) => box.position);
      this.findings.push({
        kind: 'duplicate',
        rows,
        columns: [...columns],
        message: `Rows ${rows.map((r) => r + 1).join(', ')} have identical conditions and ${same ? 'the same results' : 'different results'}.`,
      });
    }
    return groupOf;
  }

  /**
   * Dimensions with few atoms first (few branches), the one with most atoms last (the walk settles the last
   * dimension with one union instead of branching); dimensions no row restricts never branch.
   */
  private splittingOrder(): number[] {
    const restricted = this.dims.map((_, d) => this.rows.some((box) => box.ids[d] !== -1));
    const size = (d: number): number => (restricted[d] ? this.dims[d]!.atoms.length : 0);
    return this.dims.map((_, d) => d).sort((a, b) => size(a) - size(b));
  }

  private reachabilityAndOverlaps(duplicateGroup: Int32Array): void {
    const count = this.rows.length;
    const words = (count + 31) >>> 5;
    // Per dimension and atom: the rows (compiled order) whose box holds it; rows accepting every atom apart.
    const rowsWithAtom = this.dims.map((dim) => dim.atoms.map(() => new Uint32Array(words)));
    const rowsWithAll = this.dims.map(() => new Uint32Array(words));
    const coverers = new Uint32Array(words);
    for (const box of this.rows) {
      if (box.contradiction) continue;
      if (box.exact) setBit(coverers, box.order);
      box.ids.forEach((id, d) => {
        if (id === -1) setBit(rowsWithAll[d]!, box.order);
        else for (const atom of bitIndexes(box.sets[d]!)) setBit(rowsWithAtom[d]![atom]!, box.order);
      });
    }
    const meeting = this.dims.map(() => new Map<number, Bits>());
    /** Rows whose box meets the interned set `id` of dimension d. */
    const rowsMeeting = (d: number, id: number): Bits => {
      let rows = meeting[d]!.get(id);
      if (rows === undefined) {
        rows = Uint32Array.from(rowsWithAll[d]!);
        for (const atom of bitIndexes(this.internedSets[d]![id]!)) orInto(rows, rowsWithAtom[d]![atom]!);
        meeting[d]!.set(id, rows);
      }
      return rows;
    };
    const maxOverlaps = this.options.maxOverlaps;
    const scratch = new Uint32Array(words);
    for (const box of this.rows) {
      if (box.contradiction) continue;
      // Earlier rows whose box meets this one (all of them: uncertain ones matter for ELSE overlaps).
      // Only the words below this row matter; one scratch array serves every row.
      const prefixWords = (box.order + 31) >>> 5;
      const earlier = scratch.subarray(0, prefixWords);
      earlier.fill(0xffffffff);
      if ((box.order & 31) !== 0) earlier[prefixWords - 1] = (1 << (box.order & 31)) - 1;
      for (let d = 0; d < this.dims.length; d++) {
        const id = box.ids[d]!;
        if (id !== -1) andInto(earlier, rowsMeeting(d, id));
      }
      const meetingRows = bitIndexes(earlier, box.order);
      this.checkReachable(box, meetingRows.filter((order) => hasBit(coverers, order)));
      if (!box.exact || box.hasElse) continue;
      for (const order of meetingRows) {
        const other = this.rows[order]!;
        if (!other.exact || other.resultKey === box.resultKey) continue;
        if (duplicateGroup[order] !== -1 && duplicateGroup[order] === duplicateGroup[box.order]) continue;
        if (this.overlaps >= maxOverlaps) {
          if (!other.hasElse) this.omittedOverlaps++;
          continue;
        }
        const point = other.hasElse
          ? this.elseOverlapPoint(other, box)
          : this.pointIn(this.dims.map((_, d) => andBits(other.sets[d]!, box.sets[d]!)));
        if (point === undefined) continue;
        this.overlaps++;
        this.findings.push({
          kind: 'overlap',
          rows: [other.position, box.position],
          columns: this.restrictedColumns([other, box]),
          example: this.example(point),
          message: `Rows ${other.position + 1} and ${box.position + 1} both match some inputs and give different results.`,
        });
      }
    }
  }

  /** An input the ELSE row `elseRow` and the later row `later` both match: in both boxes, matched by no row above the ELSE row. */
  private elseOverlapPoint(elseRow: RowBox, later: RowBox): number[] | undefined {
    const target = this.dims.map((_, d) => andBits(elseRow.sets[d]!, later.sets[d]!));
    const above = this.rows.slice(0, elseRow.order).filter((box) => !box.contradiction).map((box) => box.sets as Box);
    let found: number[] | undefined;
    try {
      walkUncovered(target, above, this.order, this.budget, (region) => {
        found = this.pointIn(region);
        return false;
      });
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      this.markUndecided(later.position, undefined, 'the search limit was reached');
    }
    return found;
  }

  private checkReachable(box: RowBox, covering: number[]): void {
    if (covering.length === 0) return;
    const target = box.sets;
    // Most unreachable rows repeat or narrow one earlier row.
    for (const order of covering) {
      const other = this.rows[order]!;
      if (this.dims.every((_, d) => other.ids[d] === -1 || other.ids[d] === box.ids[d] || isSubset(target[d]!, other.sets[d]!))) {
        this.unreachable(box, [order]);
        return;
      }
    }
    const boxes = covering.map((order) => this.rows[order]!.sets as Box);
    const rowBudget = new Budget(Math.min(ROW_BUDGET, Math.max(0, this.budget.limit - this.budget.used)));
    let uncovered = false;
    try {
      if (quickUncovered(target, boxes, this.order, rowBudget, box.order + 1) !== undefined) return;
      walkUncovered(target, boxes, this.order, rowBudget, () => {
        uncovered = true;
        return false;
      });
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      this.markUndecided(box.position, undefined, 'the search limit was reached');
      return;
    } finally {
      this.budget.used += rowBudget.used;
    }
    if (!uncovered) this.unreachable(box, covering);
  }

  private unreachable(box: RowBox, covering: number[]): void {
    const rows = covering.slice(0, MAX_COVERING).map((order) => this.rows[order]!.position);
    const more = covering.length > MAX_COVERING ? ` and ${covering.length - MAX_COVERING} more` : '';
    const named = `row${rows.length > 1 || more ? 's' : ''} ${rows.map((r) => r + 1).join(', ')}${more}`;
    const message = box.hasElse
      ? `Row ${box.position + 1} (ELSE) can never fire: the rows above match every input it could take (${named}).`
      : `Row ${box.position + 1} is unreachable: every input it matches is matched by an earlier row (${named}); under FIRST_MATCH it never fires, under STANDARD it always fires together with them.`;
    this.findings.push({ kind: 'unreachable', rows: [box.position, ...rows], columns: this.restrictedColumns([box]), message });
  }

  private gaps(): void {
    const target = this.dims.map((dim) => dim.domain);
    if (target.some(isEmpty)) return;
    const boxes = this.rows.filter((box) => !box.contradiction).map((box) => box.sets as Box);
    const regions: Bits[][] = [];
    try {
      this.moreGaps = walkUncovered(target, boxes, this.order, new Budget(this.options.budget * GAP_SHARE), (region) => {
        regions.push(region);
        return regions.length < this.options.maxGaps;
      });
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      this.moreGaps = true;
      this.undecided.set('\u0000gaps', { reason: 'the gap search reached its limit: more gaps may exist than are listed', rows: [], columns: [] });
    }
    for (const region of regions) {
      const constrained = this.dims.filter((dim, d) => !sameBits(region[d]!, dim.domain));
      const point = this.pointIn(region)!;
      const where = constrained.map((dim) => `${dim.name} is ${describeAtoms(dim, andBits(region[dim.index]!, dim.domain))}`);
      this.findings.push({
        kind: 'gap',
        rows: [],
        columns: constrained.flatMap((dim) => dim.columns.map((column) => column.id)),
        example: this.example(point),
        message: `No row matches ${where.length === 0 ? 'any input' : `inputs where ${where.join(' and ')}`}.`,
      });
    }
  }

  private typeFindings(): void {
    const issues = new Map(this.space.typeIssues.map((issue) => [issue.step, issue.reason]));
    if (issues.size === 0) return;
    const grouped = new Map<string, Finding>();
    for (const box of this.rows) {
      for (const step of box.row.steps) {
        if (step.kind !== STEP_CONDITION) continue;
        const reason = issues.get(step);
        if (reason === undefined) continue;
        const key = `${step.column.id}\u0000${reason}`;
        let finding = grouped.get(key);
        if (!finding) {
          grouped.set(key, (finding = { kind: 'type', rows: [], columns: [step.column.id], message: '' }));
          this.findings.push(finding);
        }
        if (finding.rows[finding.rows.length - 1] !== box.position) finding.rows.push(box.position);
        finding.message = `Column ${step.column.path}: ${reason} (row${finding.rows.length > 1 ? 's' : ''} ${finding.rows.map((r) => r + 1).join(', ')}).`;
      }
    }
  }

  /** Condition columns on which one of the rows accepts less than everything. */
  private restrictedColumns(boxes: RowBox[]): string[] {
    const columns = new Set<string>();
    for (const box of boxes) {
      for (const step of box.row.steps) if (step.kind === STEP_CONDITION && step.condition.operator !== 'anything') columns.add(step.column.id);
    }
    return [...columns];
  }

  /** One atom per dimension: a readable value of the set; -1 (the input left out) when the set holds missing and everything in the gap domain. */
  private pointIn(sets: readonly Bits[]): number[] | undefined {
    const point: number[] = [];
    for (let d = 0; d < this.dims.length; d++) {
      const dim = this.dims[d]!;
      const set = sets[d]!;
      if (isEmpty(set)) return undefined;
      if (dim.missing >= 0 && hasBit(set, dim.missing) && isSubset(dim.domain, set)) {
        point.push(-1);
        continue;
      }
      const inDomain = andBits(set, dim.domain);
      const pool = isEmpty(inDomain) ? set : inDomain;
      const atoms = bitIndexes(pool);
      const concrete = atoms.find((a) => !['missing', 'null', 'empty'].includes(dim.atoms[a]!.group));
      point.push(concrete ?? atoms.find((a) => dim.atoms[a]!.group === 'null') ?? firstBit(pool));
    }
    return point;
  }

  private example(point: readonly number[]): Record<string, unknown> {
    const input: Record<string, unknown> = {};
    point.forEach((atom, d) => {
      const dim = this.dims[d]!;
      if (dim.segments === undefined || atom === -1) return;
      const value = dim.atoms[atom]!;
      if (value.group === 'missing') return;
      setAt(input, dim.segments, cloneWitness(value.witness));
    });
    return input;
  }
}

function cloneWitness(value: unknown): unknown {
  return Array.isArray(value) ? [...(value as unknown[])] : value;
}

function describeCell(step: ConditionStep): string {
  const operand = step.condition.operand;
  const shown = operand === undefined ? '' : ` ${JSON.stringify(operand)}`;
  return `"${step.condition.operator}${shown}"`;
}

/** A set of atoms in words: `< 18 or > 70`, `= "gold"`, `any other text`, `missing`. */
export function describeAtoms(dim: Dimension, set: Bits): string {
  const parts: string[] = [];
  // Merged classes are expanded to their atoms (in value order), so adjacent number ranges join up again.
  const atoms = bitIndexes(set)
    .flatMap((k) => dim.atoms[k]!.members ?? [dim.atoms[k]!])
    .map((atom) => ({ atom, rank: rankOf(dim, atom) }))
    .sort((a, b) => a.rank - b.rank);
  let i = 0;
  while (i < atoms.length) {
    const { atom } = atoms[i]!;
    if (atom.group === 'number' || atom.group === 'date') {
      let j = i;
      while (j + 1 < atoms.length && atoms[j + 1]!.atom.group === atom.group && atoms[j + 1]!.atom.lo === atoms[j]!.atom.hi && atoms[j + 1]!.atom.loOpen !== atoms[j]!.atom.hiOpen) j++;
      const last = atoms[j]!.atom;
      parts.push(describeRange(atom.lo!, atom.loOpen!, last.hi!, last.hiOpen!, atom.group === 'date'));
      i = j + 1;
      continue;
    }
    switch (atom.group) {
      case 'missing':
        parts.push('missing');
        break;
      case 'null':
        parts.push('null');
        break;
      case 'empty':
        parts.push('an empty list');
        break;
      case 'notDate':
        parts.push('not a date');
        break;
      case 'otherText':
        parts.push(atom.contains!.length === 0 ? 'any other text' : `other text containing ${atom.contains!.map((n) => JSON.stringify(n)).join(' and ')}`);
        break;
      default:
        parts.push(JSON.stringify(atom.witness));
    }
    i++;
  }
  if (parts.length === 0) return 'nothing';
  if (parts.length > 8) return `${parts.slice(0, 8).join(', ')} or ${parts.length - 8} more`;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

/** Sort key of an atom in messages: missing, null, empty, then numbers/dates by value, then the rest in order. */
function rankOf(dim: Dimension, atom: Atom): number {
  const order = ['missing', 'null', 'empty', 'notDate'];
  if (order.includes(atom.group)) return order.indexOf(atom.group) - 1e300;
  if (atom.group === 'number' || atom.group === 'date') return atom.lo === -Infinity ? -1e299 : atom.lo! + (atom.loOpen ? 1e-9 * Math.abs(atom.lo!) + Number.MIN_VALUE : 0);
  return 1e300 + dim.atoms.indexOf(atom);
}

function describeRange(lo: number, loOpen: boolean, hi: number, hiOpen: boolean, date: boolean): string {
  const show = (n: number): string => (date ? new Date(n).toISOString() : String(n));
  if (lo === hi) return show(lo);
  if (lo === -Infinity && hi === Infinity) return date ? 'any date' : 'any number';
  if (lo === -Infinity) return `${hiOpen ? '<' : '<='} ${show(hi)}`;
  if (hi === Infinity) return `${loOpen ? '>' : '>='} ${show(lo)}`;
  return `${loOpen ? '(' : '['}${show(lo)}, ${show(hi)}${hiOpen ? ')' : ']'}`;
}
