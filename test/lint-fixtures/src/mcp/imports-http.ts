// expect: no-restricted-imports
// The MCP adapter never imports the HTTP adapter: the composition root hands /mcp its handler.
import type { VerdictApp } from '../http/app.ts';

export type Wrong = VerdictApp;
