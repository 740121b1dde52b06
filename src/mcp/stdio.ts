// MCP over stdio, for desktop assistants that start `verdict mcp` themselves: JSON-RPC on stdin and stdout (so
// nothing else may write to stdout), for the one caller the process was started with.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Services } from '../service/index.ts';
import type { Principal } from '../service/keys.ts';
import { packageVersion } from '../version.ts';
import { callerOf } from './caller.ts';
import { createMcpServer } from './server.ts';

/** Serves until the client closes stdin (or the transport fails); resolves then. */
export async function serveMcpOverStdio(services: Services, principal: Principal): Promise<void> {
  const server = createMcpServer(services, callerOf(principal), packageVersion());
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
