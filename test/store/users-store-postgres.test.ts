import { usersStoreSuite } from './users-store-suite.ts';

usersStoreSuite('postgres');
