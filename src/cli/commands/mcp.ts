// `verdict mcp`: an MCP server over stdio for AI assistants (docs/mcp.md), working in the space of the management
// key in VERDICT_KEY, on the store of DATABASE_URL.
import type { Command } from 'commander';
import { ConfigError } from '../../config.ts';
import { InputError } from '../errors.ts';

export function register(program: Command): void {
  program
    .command('mcp')
    .description('serve the Model Context Protocol over stdio (AI assistants); the caller is the management key in VERDICT_KEY')
    .action(async () => {
      const { McpStartError, runMcpOverStdio } = await import('../../server/mcp-stdio.ts');
      try {
        await runMcpOverStdio();
      } catch (err) {
        if (err instanceof ConfigError || err instanceof McpStartError) throw new InputError(err.message);
        throw err;
      }
    });
}
