import { liveEditsApiSuite } from './live-edits-suite.ts';

liveEditsApiSuite('postgres');
