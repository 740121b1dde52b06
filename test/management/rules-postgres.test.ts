import { rulesSuite } from './rules-suite.ts';

rulesSuite('postgres');
