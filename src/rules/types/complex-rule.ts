// Scripting rules (rule-format §5): JavaScript run in the sandboxed script workers; STANDARD and ARRAY.
import { text } from '../check.ts';
import { documentReader, ruleTypeDescriptor, type BodyCheck } from './descriptor.ts';

const checkScript: BodyCheck = (doc, out) => {
  if (doc.script === undefined || doc.script === null) out.add('script', 'is required for a scripting rule (JavaScript source as a string)');
  else text()(doc.script, 'script', out);
};

export const complexRuleType = ruleTypeDescriptor({
  type: 'complex-rule',
  label: 'Scripting rule',
  read: documentReader('complex-rule', checkScript),
  strategies: ['STANDARD', 'ARRAY'],
  solvable: true,
  flow: false,
  references: 'calls',
});
