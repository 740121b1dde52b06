import { validValuesSuite } from './valid-values-suite.ts';

validValuesSuite('postgres');
