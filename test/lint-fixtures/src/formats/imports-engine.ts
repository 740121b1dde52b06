// expect: no-restricted-imports
// A file format converts documents; it never compiles or runs them.
import { compileRule } from '../engine/index.ts';

export const wrong = compileRule;
