// expect: none
// The engine builds on the document format.
import { RULE_TYPES } from '../rules/rule-types.ts';

export const types = RULE_TYPES;
