// Decision trees (rule-format §6): STANDARD answers the first result reached, ARRAY every one (§6.1).
import { readDecisionTree } from '../decision-tree.ts';
import { ruleTypeDescriptor } from './descriptor.ts';

export const decisionTreeType = ruleTypeDescriptor({
  type: 'decision-tree',
  label: 'Decision tree',
  read: readDecisionTree,
  strategies: ['STANDARD', 'ARRAY'],
  solvable: true,
  flow: false,
  references: 'calls',
});
