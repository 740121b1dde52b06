// Scripting rules (rule-format §5): JavaScript run in the sandboxed script workers; STANDARD and ARRAY.
import { text } from '../check.ts';
import type { ScriptModel } from '../model/script.ts';
import { ruleTypeDescriptor, type BodyReader } from './descriptor.ts';

const readScript: BodyReader<ScriptModel> = (doc, out) => {
  if (doc.script === undefined || doc.script === null) out.add('script', 'is required for a scripting rule (JavaScript source as a string)');
  else text()(doc.script, 'script', out);
  return { type: 'complex-rule', document: doc, script: typeof doc.script === 'string' ? doc.script : '' };
};

export const complexRuleType = ruleTypeDescriptor({
  type: 'complex-rule',
  label: 'Scripting rule',
  read: readScript,
  strategies: ['STANDARD', 'ARRAY'],
  solvable: true,
  flow: false,
  references: 'calls',
});
