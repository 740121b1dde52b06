// Placeholder until decision flows are implemented.
import { ValidationError } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';

export const compileWorkflow: RuleCompiler = () => {
  throw new ValidationError([{ path: 'type', message: 'decision flows are not supported yet' }]);
};
