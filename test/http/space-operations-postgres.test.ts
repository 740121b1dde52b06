import { spaceOperationsSuite } from './space-operations-suite.ts';

spaceOperationsSuite('postgres');
