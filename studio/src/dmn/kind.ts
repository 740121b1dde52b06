// DMN models (rule type `dmn`) in the Studio shell (studio/src/kinds): dmn-js edits the XML, the bench's form
// offers the model's input data by name.
import type { RuleEditor } from '../kinds/types.ts';
import { DmnDesigner } from './DmnDesigner.tsx';
import { blankDmnXml, dmnInputNames } from './model.ts';

export const dmnKind: RuleEditor = {
  blank: (name) => ({ type: 'dmn', name, status: 'pending', dmn: blankDmnXml(name) }),
  Designer: DmnDesigner,
  inputPaths: dmnInputNames,
};
