// Placeholder until rule flows are implemented.
import { ValidationError } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';

export const compileComposition: RuleCompiler = () => {
  throw new ValidationError([{ path: 'type', message: 'rule flows are not supported yet' }]);
};
