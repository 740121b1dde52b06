import { solverSuite } from './solver-suite.ts';

solverSuite('postgres');
