// What the Studio shell needs to know about one rule type: its name, how to make a blank one, the designer that
// edits it and what the test bench offers for it. The rule page, the rule list's `New rule` and the bench read
// only this, so a rule type is added by writing its folder and one line in registry.ts.
import type { ComponentType } from 'react';
import type { Problem, SolveDraftResponse } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';

export interface DesignerProps {
  rule: RuleDocument;
  /** Every edit hands back a new document (identity tells the shell the draft changed). */
  onChange(next: RuleDocument): void;
  /** Problems the server reported on the last save; `path` is a JSON path into the rule document. */
  problems: Problem[];
  /** The last bench run's `trace` (SolveDraftResponse.trace), undefined when there is none. */
  trace?: unknown;
  readOnly?: boolean;
}

export interface BenchViewProps {
  rule: RuleDocument;
  /** The whole answer of POST /api/tools/solve for the last run. */
  response: SolveDraftResponse;
}

export interface CompareViewProps {
  left: RuleDocument;
  right: RuleDocument;
  leftLabel: string;
  rightLabel: string;
}

/** The side panels of the rule page; every type has the bench, tests and versions. */
export type Panel = 'bench' | 'tests' | 'analysis' | 'versions';

export interface RuleKind {
  /** The rule document's `type`. */
  type: string;
  /** What a person calls it: "Decision table". */
  label: string;
  /** A new rule of this type, valid as it is (the server accepts it on create). */
  blank(name: string): RuleDocument;
  Designer: ComponentType<DesignerProps>;
  /** The solve strategies the bench offers; none: the bench sends no strategy. */
  strategies?: readonly string[];
  /** Shown under the bench's result for this type (a flow's per-node trace, a script's console). */
  BenchView?: ComponentType<BenchViewProps>;
  /** Two versions (or a draft and the server's version) compared; none: the decision table comparison. */
  CompareView?: ComponentType<CompareViewProps>;
  /** Panels beyond bench, tests and versions (the table analysis). */
  extraPanels?: readonly Panel[];
}
