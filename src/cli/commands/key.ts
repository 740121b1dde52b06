// `verdict key create --space S --type solver|management [--name NAME] [--json]`, `verdict key revoke KEY_ID`,
// `verdict key list --space S`.
import { Option } from 'commander';
import type { Command } from 'commander';
import { KEY_TYPES } from '../../store/ports.ts';
import type { KeyType } from '../../store/ports.ts';
import { InputError } from '../errors.ts';
import { checkedKeyName, storeCommand } from './space.ts';

export function register(program: Command): void {
  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .description('create an API key (the key is shown once)')
    .requiredOption('--space <space>', 'the space the key belongs to')
    .addOption(new Option('--type <type>', 'key type').choices(KEY_TYPES as string[]).makeOptionMandatory())
    .option('--name <name>', 'label the key (who or what uses it); listings and rule history show it')
    .option('--json', 'print {"id", "space", "type", "name", "key"} only')
    .action(async (options: { space: string; type: KeyType; name?: string; json?: boolean }) => {
      const name = checkedKeyName(options.name, '--name');
      const created = await storeCommand(async (services) => {
        await services.spaces.require(options.space);
        return services.keys.create(options.space, options.type, name);
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ id: created.id, space: created.space, type: created.type, name: created.name, key: created.key })}\n`);
        return;
      }
      const named = created.name === null ? '' : ` named "${created.name}"`;
      process.stdout.write(`${created.type} key${named} for space "${created.space}" (id ${created.id}), shown once:\n  ${created.key}\n`);
    });
  key
    .command('revoke')
    .description('revoke an API key by its id; it stops working at once')
    .argument('<keyId>', 'the key id (key_...), as printed at creation or by key list')
    .action(async (keyId: string) => {
      const revoked = await storeCommand((services) => services.keys.revoke(keyId));
      if (!revoked) throw new InputError(`no active key with id "${keyId}"`);
      process.stdout.write(`Key ${keyId} revoked.\n`);
    });
  key
    .command('list')
    .description("list a space's keys (ids and types; keys themselves are never stored)")
    .requiredOption('--space <space>', 'the space')
    .option('--json', 'print a JSON array')
    .action(async (options: { space: string; json?: boolean }) => {
      const keys = await storeCommand((services) => services.keys.list(options.space));
      const rows = keys.map((k) => ({ id: k.id, type: k.type, name: k.name ?? null, createdAt: k.createdAt, revokedAt: k.revokedAt }));
      if (options.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
      else for (const r of rows) process.stdout.write(`${r.id}\t${r.type}\t${r.name ?? '-'}\t${r.createdAt}${r.revokedAt ? `\trevoked ${r.revokedAt}` : ''}\n`);
    });
}
