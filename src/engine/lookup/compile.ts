// Placeholder until lookup tables are implemented.
import { ValidationError } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';

export const compileLookupTable: RuleCompiler = () => {
  throw new ValidationError([{ path: 'type', message: 'lookup tables are not supported yet' }]);
};
