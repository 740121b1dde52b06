import { ruleTestStoreSuite } from './rule-tests-store-suite.ts';

ruleTestStoreSuite('sqlite');
