// expect: no-restricted-imports
// The engine is pure: even a type from the service layer is refused.
import type { Services } from '../service/index.ts';

export type Wrong = Services;
