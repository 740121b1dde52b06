// expect: no-restricted-imports
// The service layer reaches storage through its ports only.
import { openStore } from '../store/open.ts';

export const wrong = openStore;
