// The model of a `dmn` rule: the typed DMN model (src/rules/dmn/model.ts) the service read from the rule's XML.
import type { DmnModel } from '../dmn/model.ts';
import type { DocumentModel } from './document.ts';

export interface DmnRuleModel extends DocumentModel<'dmn'> {
  readonly dmn: DmnModel;
}
