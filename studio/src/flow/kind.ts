// Decision flows and rule flows in the Studio shell (studio/src/kinds).
import type { RuleKind } from '../kinds/types.ts';
import { FlowDesigner } from './FlowDesigner.tsx';
import { FlowBenchView } from './FlowBenchView.tsx';
import { FlowCompareView } from './FlowCompareView.tsx';
import { blankWorkflow } from './model/workflow.ts';
import { blankComposition } from './model/composition.ts';

export const workflowKind: RuleKind = {
  type: 'workflow',
  label: 'Decision flow',
  blank: (name) => blankWorkflow(name),
  Designer: FlowDesigner,
  BenchView: FlowBenchView,
  Compare: FlowCompareView,
};

export const compositionKind: RuleKind = {
  type: 'composition',
  label: 'Rule flow',
  blank: (name) => blankComposition(name),
  Designer: FlowDesigner,
  // A rule flow answers an array of its output under ARRAY, its output otherwise.
  strategies: ['STANDARD', 'ARRAY'],
  BenchView: FlowBenchView,
  Compare: FlowCompareView,
};
