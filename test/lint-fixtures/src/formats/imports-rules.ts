// expect: none
// The document format is the one layer a file format builds on.
import { validateRuleDocument } from '../rules/validate.ts';

export const right = validateRuleDocument;
