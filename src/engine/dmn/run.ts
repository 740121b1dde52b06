// One evaluation of a DMN model: its clock, its warnings, and the frames expressions read their names from.
import type { FeelValue } from '../feel/index.ts';

/** What one evaluation shares: the instant now() and today() read, and the warnings of values made null. */
export interface DmnRun {
  readonly now: number;
  readonly timeZone?: string;
  readonly warnings: string[];
}

/** The names an expression sees (variables by FEEL name) and the evaluation it belongs to. */
export interface Frame {
  readonly vars: ReadonlyMap<string, FeelValue>;
  readonly run: DmnRun;
}

export type Evaluator = (frame: Frame) => FeelValue;

/** A frame with more names (context entries, parameters, iterator variables). */
export function extend(frame: Frame, entries: Iterable<readonly [string, FeelValue]>): Frame {
  const vars = new Map(frame.vars);
  for (const [name, value] of entries) vars.set(name, value);
  return { vars, run: frame.run };
}

/** Records why a value became null; the message names the element and the expression (its path). */
export function warn(frame: Frame, path: string, message: string): null {
  frame.run.warnings.push(`${path}: ${message}`);
  return null;
}

/** A frame with no names, for checks outside any expression (input data, services' inputs). */
export function frameOf(run: DmnRun): Frame {
  return { vars: NO_NAMES, run };
}

/** Shared by every such frame: frames are read, never written (extend copies). */
const NO_NAMES: ReadonlyMap<string, FeelValue> = new Map();
