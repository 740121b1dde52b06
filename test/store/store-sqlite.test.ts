import { storeSuite } from './store-suite.ts';

storeSuite('sqlite');
