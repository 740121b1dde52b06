import { isolationSuite } from './isolation-suite.ts';

isolationSuite('postgres');
