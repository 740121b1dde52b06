// Decision trees (rule-format §6): STANDARD answers the first result reached, ARRAY every one (§6.1).
import { checkDecisionTree } from '../decision-tree.ts';
import { documentReader, ruleTypeDescriptor } from './descriptor.ts';

export const decisionTreeType = ruleTypeDescriptor({
  type: 'decision-tree',
  label: 'Decision tree',
  read: documentReader('decision-tree', checkDecisionTree),
  strategies: ['STANDARD', 'ARRAY'],
  solvable: true,
  flow: false,
  references: 'calls',
});
