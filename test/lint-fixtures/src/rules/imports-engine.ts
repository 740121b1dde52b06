// expect: no-restricted-imports
// The document format is the lowest layer: no engine import, not even the cycle it once had.
import { compileRule } from '../engine/index.ts';

export const wrong = compileRule;
