// expect: no-restricted-imports
// One adapter never imports another.
import { CODES } from '../kafka/protocol.ts';

export const wrong = CODES;
