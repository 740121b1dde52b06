// What an evaluation sees: its variables, its clock and the warnings it collects.
import type { FeelValue } from './values.ts';

/** The scope of one evaluation. Variables are FEEL values by FEEL name (use fromJson for plain JSON). */
export interface FeelScope {
  readonly variables?: ReadonlyMap<string, FeelValue> | Readonly<Record<string, FeelValue>>;
  /** The evaluation's instant in epoch ms, for now() and today(); without it they return null. */
  readonly now?: number;
  /** The zone now() and today() are read in (IANA id); UTC when absent. */
  readonly timeZone?: string;
  /** When present, runtime problems that made a value null are appended here (e.g. "no function named foo"). */
  readonly warnings?: string[];
}
