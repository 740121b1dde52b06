// DMN models (rule type `dmn`) in the Studio shell (studio/src/kinds): for now the XML as text; the dmn-js editor
// comes with the dmn-studio work.
import type { RuleEditor } from '../kinds/types.ts';
import { DmnXmlDesigner } from './DmnXmlDesigner.tsx';
import { blankDmn } from './model.ts';

export const dmnKind: RuleEditor = {
  blank: blankDmn,
  Designer: DmnXmlDesigner,
};
