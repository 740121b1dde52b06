// expect: no-restricted-imports
// Adapters do not reach into the composition root.
import { startServer } from '../server/start.ts';

export const wrong = startServer;
