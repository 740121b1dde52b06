// Decision flows (rule-format §9) and integration flows, which share the workflow body. Integration flows run as
// background jobs in DecisionRules: Verdict stores them and never solves them.
import { checkWorkflow } from '../workflow.ts';
import { documentReader, ruleTypeDescriptor } from './descriptor.ts';

export const workflowType = ruleTypeDescriptor({
  type: 'workflow',
  label: 'Decision flow',
  read: documentReader('workflow', checkWorkflow),
  strategies: ['STANDARD'],
  solvable: true,
  flow: true,
  references: 'nodes',
});

export const integrationFlowType = ruleTypeDescriptor({
  type: 'integration-flow',
  label: 'Integration flow',
  read: documentReader('integration-flow', checkWorkflow),
  strategies: ['STANDARD'],
  solvable: false,
  flow: true,
  references: 'nodes',
});
