import { foldersSuite } from './folders-suite.ts';

foldersSuite('postgres');
