// Placeholder until scripting rules are implemented.
import { ValidationError } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';

export const compileScriptRule: RuleCompiler = () => {
  throw new ValidationError([{ path: 'type', message: 'scripting rules are not supported yet' }]);
};
