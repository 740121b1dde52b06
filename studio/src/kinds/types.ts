// What the Studio shell needs to know about one rule type: its name, how to make a blank one, the designer that
// edits it and what the test bench offers for it. The rule page, the rule list's `New rule` and the bench read
// only this. The type's facts (name, label, strategies, flow, solvable) come from its descriptor in src/rules
// (src/rules/types/); the Studio adds its editor (RuleEditor), so a rule type is added by its descriptor, its
// folder here and one line in registry.ts.
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

export interface CompareProps {
  left: RuleDocument;
  right: RuleDocument;
  /** What each side is called: `v1`, `Your draft`. */
  leftLabel: string;
  rightLabel: string;
}

/** The side panels of the rule page; every type has the bench, tests and versions. */
export type Panel = 'bench' | 'tests' | 'analysis' | 'versions';

/** The Studio's half of a rule type: how it is edited, benched and compared. */
export interface RuleEditor {
  /** A new rule of this type, valid as it is (the server accepts it on create). */
  blank(name: string): RuleDocument;
  Designer: ComponentType<DesignerProps>;
  /** The choices the bench offers when they are not the type's strategies (a lookup table's lookup methods). */
  strategies?: readonly string[];
  /** The field of POST /api/tools/solve the chosen strategy goes in: `strategy` (X-Strategy, the default) or,
   * for lookup tables, `lookupMethod` (X-Lookup-Method). */
  strategyField?: 'strategy' | 'lookupMethod';
  /** Input paths the rule reads that its input model may not name (a tree's condition paths): the bench's form offers them too. */
  inputPaths?(rule: RuleDocument): string[];
  /** A choice of parts of the rule the bench may run alone (a DMN model's decisions): the names the rule has now,
   * what the choice is called and the solve option (`options.<option>`) the chosen names go in. */
  benchSelection?: { label: string; option: string; names(rule: RuleDocument): string[] };
  /** Shown under the bench's result for this type (a flow's per-node trace, a script's console). */
  BenchView?: ComponentType<BenchViewProps>;
  /** Two versions side by side; none: the generic structural JSON compare (versions/JsonCompareView.tsx). */
  Compare?: ComponentType<CompareProps>;
  /** What to do about a failed bench run, shown under the server's message (a script stopped at its time limit). */
  explainError?(message: string): string | undefined;
  /** Panels beyond bench, tests and versions (the table analysis). */
  extraPanels?: readonly Panel[];
}

/** A rule type as the Studio shell sees it: its descriptor's facts and its editor. */
export interface RuleKind extends RuleEditor {
  /** The rule document's `type`. */
  type: string;
  /** What a person calls it: "Decision table". */
  label: string;
  /** Whether it is a flow (its nodes call other rules). */
  flow: boolean;
  /** Whether the server solves it (the bench runs it). */
  solvable: boolean;
  /** The solve strategies the bench offers; none: the bench sends no strategy. */
  strategies?: readonly string[];
}
