// expect: none
// The composition root is the one place that opens the store.
import { openStore } from '../store/open.ts';

export const open = openStore;
