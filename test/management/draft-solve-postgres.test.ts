import { draftSolveSuite } from './draft-solve-suite.ts';

draftSolveSuite('postgres');
