// Rule flows (rule-format §8): a chain of rule nodes; ARRAY answers an array of the flow's output.
import { readComposition } from '../composition.ts';
import { ruleTypeDescriptor } from './descriptor.ts';

export const compositionType = ruleTypeDescriptor({
  type: 'composition',
  label: 'Rule flow',
  read: readComposition,
  strategies: ['STANDARD', 'ARRAY'],
  solvable: true,
  flow: true,
  references: 'nodes',
});
