// `verdict audit purge`: delete expired audit records now (the server also does it periodically).
import type { Command } from 'commander';
import { storeCommand } from './space.ts';

export function register(program: Command): void {
  const audit = program.command('audit').description('audit records');
  audit
    .command('purge')
    .description('delete expired audit records now')
    .option('--json', 'print {"deleted": N} only')
    .action(async (options: { json?: boolean }) => {
      const deleted = await storeCommand((services) => services.retention.runOnce());
      process.stdout.write(options.json ? `${JSON.stringify({ deleted })}\n` : `Deleted ${deleted} expired audit record(s).\n`);
    });
}
