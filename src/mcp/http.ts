// MCP over streamable HTTP, stateless: each POST to /mcp gets a server and a transport of its own for the key that
// sent it, answered as JSON. No session is kept between requests, so any instance behind a load balancer can
// answer any request, and a request can never act with another caller's rights.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Services } from '../service/index.ts';
import type { Principal } from '../service/keys.ts';
import { packageVersion } from '../version.ts';
import { callerOf } from './caller.ts';
import { createMcpServer } from './server.ts';

export type McpHttpHandler = (principal: Principal, request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>;

export function mcpHttpHandler(services: Services): McpHttpHandler {
  const version = packageVersion();
  return async (principal, request, response, body) => {
    const server = createMcpServer(services, callerOf(principal), version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
}
