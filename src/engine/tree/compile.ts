// Placeholder until decision trees are implemented.
import { ValidationError } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';

export const compileDecisionTree: RuleCompiler = () => {
  throw new ValidationError([{ path: 'type', message: 'decision trees are not supported yet' }]);
};
