// Rule flows (rule-format §8): a chain of rule nodes; ARRAY answers an array of the flow's output.
import { checkComposition } from '../composition.ts';
import { documentReader, ruleTypeDescriptor } from './descriptor.ts';

export const compositionType = ruleTypeDescriptor({
  type: 'composition',
  label: 'Rule flow',
  read: documentReader('composition', checkComposition),
  strategies: ['STANDARD', 'ARRAY'],
  solvable: true,
  flow: true,
  references: 'nodes',
});
