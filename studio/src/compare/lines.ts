// A line diff of two texts (a script's two versions): lines common to both found by the same LCS the table
// comparison aligns rows with, after trimming the common start and end; the rest removed or added.
import { commonEnds, lcs } from './diff.ts';

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
  /** 1-based line in the left text (same, removed). */
  left?: number;
  /** 1-based line in the right text (same, added). */
  right?: number;
}

export function diffLines(leftText: string, rightText: string): DiffLine[] {
  const a = leftText.split(/\r?\n/);
  const b = rightText.split(/\r?\n/);
  const { start, endA, endB } = commonEnds(a, b);
  const anchors = [...lcs(a.slice(start, endA), b.slice(start, endB)).map(([i, j]) => [i + start, j + start]), [endA, endB]];
  const out: DiffLine[] = [];
  for (let k = 0; k < start; k++) out.push({ kind: 'same', text: a[k]!, left: k + 1, right: k + 1 });
  let i = start;
  let j = start;
  for (const [toA, toB] of anchors) {
    for (; i < toA!; i++) out.push({ kind: 'removed', text: a[i]!, left: i + 1 });
    for (; j < toB!; j++) out.push({ kind: 'added', text: b[j]!, right: j + 1 });
    if (toA! < endA) out.push({ kind: 'same', text: a[i]!, left: ++i, right: ++j });
  }
  for (let k = 0; endA + k < a.length; k++) out.push({ kind: 'same', text: a[endA + k]!, left: endA + k + 1, right: endB + k + 1 });
  return out;
}
