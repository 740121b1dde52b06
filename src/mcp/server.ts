// The MCP server of one caller (a management key of one space): the tools, resources and prompts, whatever the
// transport (stdio for desktop assistants, streamable HTTP at /mcp). Nothing here reaches outside the caller's
// space: every operation is a service call with the caller's space.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Services } from '../service/index.ts';
import type { McpCaller } from './caller.ts';
import { registerPrompts, registerResources } from './resources.ts';
import { registerTools } from './tools.ts';

export const MCP_SERVER_NAME = 'verdict';

const INSTRUCTIONS =
  'Verdict stores business rules (decision tables, trees, scripts, lookup tables, flows) and solves them. ' +
  'Read verdict://reference/rule-format before writing a rule. Writes start pending; check with validate_rule, solve and run_tests, ' +
  'then publish_rule. Rules are named by id or alias; decision table rows are 1-based and cells are keyed by column alias.';

export function createMcpServer(services: Services, caller: McpCaller, version: string): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {} } });
  registerTools(server, services, caller);
  registerResources(server, services, caller);
  registerPrompts(server);
  return server;
}
