// DMN 1.5 models (docs/dmn.md): the XML as written and the typed model read from it. Solved by the engine's DMN
// evaluator with input data by name; a model's imports are other `dmn` rules of the space, found by namespace.
import { checkDmnBody } from '../dmn-rule.ts';
import type { DmnModel } from '../dmn/model.ts';
import type { DmnRuleModel } from '../model/dmn.ts';
import { ruleTypeDescriptor, type BodyReader } from './descriptor.ts';

const readDmnRuleModel: BodyReader<DmnRuleModel> = (doc, out) => {
  const dmn = checkDmnBody(doc, out);
  return { type: 'dmn', document: doc, dmn: dmn as DmnModel };
};

export const dmnType = ruleTypeDescriptor({
  type: 'dmn',
  label: 'DMN model',
  read: readDmnRuleModel,
  strategies: ['STANDARD'],
  solvable: true,
  flow: false,
  references: 'none',
});
