// expect: no-restricted-imports
// The store implements ports; it knows no use case.
import type { Services } from '../service/index.ts';

export type Wrong = Services;
