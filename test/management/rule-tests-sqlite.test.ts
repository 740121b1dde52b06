import { ruleTestsApiSuite } from './rule-tests-suite.ts';

ruleTestsApiSuite('sqlite');
