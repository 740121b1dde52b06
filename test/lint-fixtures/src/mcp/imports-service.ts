// expect: none
// The MCP adapter calls the service layer, as every adapter does.
import type { Services } from '../service/index.ts';

export type Right = Services;
