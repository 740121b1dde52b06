import { etagSuite } from './etag-suite.ts';

etagSuite('sqlite');
