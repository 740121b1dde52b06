// Which part of a box no other box covers: the recursive box splitting of Calvanese et al. ("Semantics, Analysis
// and Simplification of DMN Decision Tables"), over atoms instead of raw intervals. At each node the region's
// atoms of one dimension are grouped by the set of candidate boxes containing them; each group is one sub-problem
// with only those boxes. A sub-problem with no box left is an uncovered region; one some box covers entirely is
// covered. Dimensions no candidate restricts are dropped, the last dimension is settled by one union, groups with
// fewest boxes go first (uncovered regions are found early), and sub-problems found covered are remembered.
import { bitIndexes, emptyBits, hasBit, isEmpty, isSubset, setBit, type Bits } from './bits.ts';

/** One set of atoms per dimension. */
export type Box = readonly Bits[];

/** Thrown when a search spends more than its budget: the question stays undecided. */
export class BudgetExceeded extends Error {
  constructor() {
    super('analysis search budget exceeded');
  }
}

/** Work units (box tests) a search may spend. */
export class Budget {
  used = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  spend(units: number): void {
    this.used += units;
    if (this.used > this.limit) throw new BudgetExceeded();
  }
}

/**
 * Calls onRegion for uncovered parts of `target` (disjoint; each is the target with some dimensions narrowed) until
 * it returns false. `dims` lists the dimensions to split. Returns true when onRegion stopped the walk. Throws
 * BudgetExceeded.
 */
export function walkUncovered(target: Box, boxes: readonly Box[], dims: readonly number[], budget: Budget, onRegion: (region: Bits[]) => boolean): boolean {
  const ids = new Map<Box, number>();
  boxes.forEach((box, i) => ids.set(box, i));
  // A sub-problem is fixed by its remaining dimensions and candidate boxes (the remaining dimensions' region is the
  // target's), so one found covered is remembered: different branches often meet the same boxes.
  const covered = new Set<string>();
  let reported = 0;
  const report = (region: Bits[]): boolean => {
    reported++;
    return !onRegion(region);
  };

  const visit = (region: Bits[], remaining: readonly number[], candidates: readonly Box[]): boolean => {
    budget.spend(candidates.length * (remaining.length + 1) + 1);
    if (candidates.length === 0) return report(region);
    // Dimensions where every candidate holds the whole region no longer matter.
    const live = remaining.filter((d) => candidates.some((box) => !isSubset(region[d]!, box[d]!)));
    if (live.length === 0) return false; // some candidate holds the whole region
    if (live.length === 1) return lastDimension(live[0]!, region, candidates, budget, report);
    let key = '';
    for (const d of live) key += String.fromCharCode(d);
    key += '|';
    for (const box of candidates) {
      const id = ids.get(box)!;
      key += String.fromCharCode(id & 0xffff, id >>> 16);
    }
    if (covered.has(key)) return false;
    const before = reported;
    const stopped = split(region, live, candidates);
    if (!stopped && reported === before) covered.add(key);
    return stopped;
  };

  const split = (region: Bits[], live: readonly number[], candidates: readonly Box[]): boolean => {
    for (const box of candidates) if (live.every((d) => isSubset(region[d]!, box[d]!))) return false;
    // Split the dimension with fewest atoms left (fewest branches); big numeric ones end in the union.
    let d = live[0]!;
    let fewest = Number.POSITIVE_INFINITY;
    for (const candidate of live) {
      const size = bitIndexes(region[candidate]!).length;
      if (size < fewest) {
        fewest = size;
        d = candidate;
      }
    }
    const rest = live.filter((other) => other !== d);
    const always: Box[] = [];
    const partial: Box[] = [];
    for (const box of candidates) (isSubset(region[d]!, box[d]!) ? always : partial).push(box);
    const atoms = bitIndexes(region[d]!);
    budget.spend(atoms.length * partial.length);
    const groups = new Map<string, { atoms: Bits; boxes: Box[] }>();
    for (const atom of atoms) {
      let key = '';
      const members: Box[] = [];
      for (let i = 0; i < partial.length; i++) {
        if (hasBit(partial[i]![d]!, atom)) {
          key += String.fromCharCode(i & 0xffff, i >>> 16);
          members.push(partial[i]!);
        }
      }
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { atoms: emptyBits(region[d]!.length * 32), boxes: members }));
      setBit(group.atoms, atom);
    }
    const ordered = [...groups.values()].sort((a, b) => a.boxes.length - b.boxes.length);
    for (const group of ordered) {
      const next = region.slice();
      next[d] = group.atoms;
      if (visit(next, rest, always.length === 0 ? group.boxes : always.concat(group.boxes))) return true;
    }
    return false;
  };

  return visit(target.slice(), dims, boxes);
}

/** The last dimension needs no grouping: what the candidates' sets leave of the region's set is uncovered. */
function lastDimension(d: number, region: Bits[], candidates: readonly Box[], budget: Budget, report: (region: Bits[]) => boolean): boolean {
  const rest = Uint32Array.from(region[d]!);
  budget.spend(candidates.length);
  for (const box of candidates) {
    const set = box[d]!;
    for (let w = 0; w < rest.length; w++) rest[w]! &= ~set[w]!;
  }
  if (isEmpty(rest)) return false;
  const next = region.slice();
  next[d] = rest;
  return report(next);
}

/**
 * A point of `target` none of `boxes` holds, looked for by sampling: `tries` random points (seeded, so a report
 * never changes between runs), then one greedy descent (each dimension in turn, the atom the fewest remaining
 * boxes hold). Returns the point's region, or undefined, which proves nothing (the full walk decides). Cheap, and
 * it finds a witness for most rows that are reachable.
 */
export function quickUncovered(target: Box, boxes: readonly Box[], dims: readonly number[], budget: Budget, seed: number, tries = 32): Bits[] | undefined {
  const atomsOf = dims.map((d) => bitIndexes(target[d]!));
  let state = (seed * 2654435761) >>> 0 || 1;
  const random = (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const point = new Array<number>(dims.length);
  for (let t = 0; t < tries; t++) {
    for (let i = 0; i < dims.length; i++) point[i] = atomsOf[i]![random(atomsOf[i]!.length)]!;
    budget.spend(boxes.length);
    if (!boxes.some((box) => dims.every((d, i) => hasBit(box[d]!, point[i]!)))) return regionAt(target, dims, point);
  }
  let candidates = boxes;
  for (let i = 0; i < dims.length && candidates.length > 0; i++) {
    const d = dims[i]!;
    budget.spend(atomsOf[i]!.length * candidates.length);
    let bestCount = Number.POSITIVE_INFINITY;
    for (const atom of atomsOf[i]!) {
      let count = 0;
      for (let b = 0; b < candidates.length && count < bestCount; b++) if (hasBit(candidates[b]![d]!, atom)) count++;
      if (count < bestCount) {
        bestCount = count;
        point[i] = atom;
        if (count === 0) break;
      }
    }
    candidates = candidates.filter((box) => hasBit(box[d]!, point[i]!));
    if (candidates.length === 0) return regionAt(target, dims.slice(0, i + 1), point);
  }
  return undefined;
}

function regionAt(target: Box, dims: readonly number[], point: readonly number[]): Bits[] {
  const region = target.slice();
  dims.forEach((d, i) => {
    const only = emptyBits(region[d]!.length * 32);
    setBit(only, point[i]!);
    region[d] = only;
  });
  return region;
}
