// The order in which the suite runner (scripts/test-suite.ts) hands test files to node:test, which starts them in
// that order, a few at a time. Longest first: a long file started last would run alone at the end while the other
// cores idle (a run's tail), and starting it first lets the short files fill the gaps around it.
//
// A file's expected duration comes from the last run on this machine (TIMINGS_FILE, written after every run), else
// from the checked-in list of known-slow files (test/slow-files.txt, longest first), else it counts as short.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the runner keeps each file's duration (ms) of the latest run that included it. */
export function timingsFile(root: string): string {
  return join(root, 'node_modules', '.cache', 'verdict-test-timings.json');
}

/** The checked-in list of known-slow test files, longest first, for a machine with no timings (a fresh CI clone). */
export function slowListFile(root: string): string {
  return join(root, 'test', 'slow-files.txt');
}

export type Timings = Record<string, number>;

/** Timings read from `path`; none (never an error) when it is missing or unreadable: the order is only a speed-up. */
export function readTimings(path: string): Timings {
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] >= 0));
  } catch {
    return {};
  }
}

/** The files of the slow list: one repository-relative path a line; blank lines and `#` comments ignored. */
export function readSlowList(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
}

/**
 * `files` (repository-relative) longest first: by the measured timings; a file without one by its place in the slow
 * list (ranked above every unlisted file); then the rest in their given order (the sort is stable).
 */
export function longestFirst(files: readonly string[], timings: Timings, slowList: readonly string[]): string[] {
  const rank = new Map(slowList.map((file, i) => [file, slowList.length - i]));
  const measured = Object.values(timings);
  // A listed file without a measurement weighs as much as the longest measured file, above the unlisted ones.
  const listedWeight = measured.length > 0 ? Math.max(...measured) : 0;
  const weight = (file: string): [number, number] => {
    const ms = timings[file];
    if (ms !== undefined) return [ms, 0];
    const r = rank.get(file);
    return r === undefined ? [0, 0] : [listedWeight, r];
  };
  return [...files].sort((a, b) => {
    const [wa, ra] = weight(a);
    const [wb, rb] = weight(b);
    return wb - wa || rb - ra;
  });
}
