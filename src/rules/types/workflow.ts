// Decision flows (rule-format §9) and integration flows, which share the workflow body. Integration flows run as
// background jobs in DecisionRules: Verdict stores them and never solves them.
import { workflowReader } from '../workflow.ts';
import { ruleTypeDescriptor } from './descriptor.ts';

export const workflowType = ruleTypeDescriptor({
  type: 'workflow',
  label: 'Decision flow',
  read: workflowReader('workflow'),
  strategies: ['STANDARD'],
  solvable: true,
  flow: true,
  references: 'nodes',
});

export const integrationFlowType = ruleTypeDescriptor({
  type: 'integration-flow',
  label: 'Integration flow',
  read: workflowReader('integration-flow'),
  strategies: ['STANDARD'],
  solvable: false,
  flow: true,
  references: 'nodes',
});
