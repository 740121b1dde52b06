import { historySuite } from './history-suite.ts';

historySuite('sqlite');
