import { managementStoreSuite } from './store-suite.ts';

managementStoreSuite('postgres');
