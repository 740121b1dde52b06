// expect: no-restricted-imports
// One adapter never imports another (src/kafka once imported src/http's server).
import type { VerdictApp } from '../http/app.ts';

export type Wrong = VerdictApp;
