// Placeholder until decision tables are implemented.
import { ValidationError } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';

export const compileDecisionTable: RuleCompiler = () => {
  throw new ValidationError([{ path: 'type', message: 'decision tables are not supported yet' }]);
};
