// Decision graphs (GoRules JDM, rule type `decision-graph`) in the Studio shell (studio/src/kinds): the flow
// canvas with the graph's forms and table grid, the flow bench view (per-node trace) and the flow compare.
import type { RuleEditor } from '../kinds/types.ts';
import { FlowBenchView } from '../flow/FlowBenchView.tsx';
import { FlowCompareView } from '../flow/FlowCompareView.tsx';
import { GraphDesigner } from './GraphDesigner.tsx';
import { blankDecisionGraph, tableInputPaths } from './model/jdm.ts';

export const decisionGraphKind: RuleEditor = {
  blank: (name) => blankDecisionGraph(name),
  Designer: GraphDesigner,
  inputPaths: tableInputPaths,
  BenchView: FlowBenchView,
  Compare: FlowCompareView,
};
