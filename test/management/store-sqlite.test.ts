import { managementStoreSuite } from './store-suite.ts';

managementStoreSuite('sqlite');
