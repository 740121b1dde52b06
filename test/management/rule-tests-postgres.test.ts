import { ruleTestsApiSuite } from './rule-tests-suite.ts';

ruleTestsApiSuite('postgres');
