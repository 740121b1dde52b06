// POST /mcp: the MCP endpoint for AI assistants (streamable HTTP, stateless), for management keys only. The MCP
// server itself is another adapter (src/mcp), so the composition root passes its handler in, loaded on the first
// request: a server nobody asks over MCP never loads the MCP SDK. MCP_ENABLED=false registers nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../service/index.ts';
import type { Principal } from '../../service/keys.ts';
import { NO_STORE, principalOf, requireManagement } from '../auth.ts';
import { errorBody } from '../errors.ts';

export type McpRequestHandler = (principal: Principal, request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>;

export interface McpPluginOptions {
  services: Services;
  /** Loads the handler (once, on the first request). */
  load: (services: Services) => Promise<McpRequestHandler>;
}

export async function mcpPlugin(app: FastifyInstance, options: McpPluginOptions): Promise<void> {
  const { services } = options;
  if (!services.config.mcpEnabled) return;
  let handler: Promise<McpRequestHandler> | undefined;
  app.post('/mcp', { onRequest: requireManagement(services), config: { permission: 'rules:read' }, schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    handler ??= options.load(services);
    const handle = await handler;
    // The MCP transport writes the response itself (JSON, or a stream); Fastify steps aside.
    void reply.hijack();
    reply.raw.setHeader('x-correlation-id', request.id);
    // Hijacked, so the no-store requireKey put on the reply must be written on the raw answer.
    reply.raw.setHeader('cache-control', NO_STORE);
    try {
      await handle(principalOf(request), request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `Internal error (correlation id ${request.id})` }, id: null }));
      } else reply.raw.destroy();
    }
  });
  // Stateless: there is no session stream to open (GET) or close (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      // Answers only that the method is not there: nothing to guard.
      config: { public: true },
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').send(errorBody('Method not allowed: the MCP endpoint is stateless; send JSON-RPC messages with POST /mcp')),
    });
  }
}
