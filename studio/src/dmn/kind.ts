// DMN models (rule type `dmn`) in the Studio shell (studio/src/kinds): dmn-js edits the XML (DmnDesigner), the
// bench's form offers the model's input data by name and may run some decisions alone, and versions compare as
// XML lines.
import type { RuleEditor } from '../kinds/types.ts';
import { DmnCompare } from './DmnCompare.tsx';
import { DmnDesigner } from './DmnDesigner.tsx';
import { blankDmn, dmnDecisionNames, dmnInputNames } from './model.ts';

export const dmnKind: RuleEditor = {
  blank: blankDmn,
  Designer: DmnDesigner,
  inputPaths: dmnInputNames,
  benchSelection: { label: 'Decisions to run', option: 'decisions', names: dmnDecisionNames },
  Compare: DmnCompare,
};
