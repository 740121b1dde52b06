// Decision flows and rule flows in the Studio shell (studio/src/kinds).
import type { RuleEditor } from '../kinds/types.ts';
import { FlowDesigner } from './FlowDesigner.tsx';
import { FlowBenchView } from './FlowBenchView.tsx';
import { FlowCompareView } from './FlowCompareView.tsx';
import { blankWorkflow } from './model/workflow.ts';
import { blankComposition } from './model/composition.ts';

export const workflowKind: RuleEditor = {
  blank: (name) => blankWorkflow(name),
  Designer: FlowDesigner,
  BenchView: FlowBenchView,
  Compare: FlowCompareView,
};

export const compositionKind: RuleEditor = {
  blank: (name) => blankComposition(name),
  Designer: FlowDesigner,
  BenchView: FlowBenchView,
  Compare: FlowCompareView,
};
