// `verdict space create NAME [--key-name KEY_NAME] [--json]`: create a space and print its first solver and
// management keys (once).
import type { Command } from 'commander';
import { ConfigError } from '../../config.ts';
import type { Config } from '../../config.ts';
import type { Services } from '../../service/index.ts';
import { ServiceError } from '../../service/errors.ts';
import { keyNameOf } from '../../service/keys.ts';
import { InputError, UsageError } from '../errors.ts';
import { gateSetting } from '../solve-options.ts';

/**
 * Runs a store command; configuration problems become one clear line (exit 1). The service layer is imported
 * here, not at the top, so that loading the CLI for another command stays fast.
 */
export async function storeCommand<T>(work: (services: Services, config: Config) => Promise<T>): Promise<T> {
  const { withServices } = await import('../../server/one-shot.ts');
  try {
    return await withServices(work);
  } catch (err) {
    if (err instanceof ConfigError) throw new InputError(err.message);
    throw err;
  }
}

/** A --name / --key-name value, trimmed; a bad one is a usage error (exit 2) naming the option. */
export function checkedKeyName(value: string | undefined, option: string): string | undefined {
  try {
    return keyNameOf(value);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'invalid-key-name') throw new UsageError(`${option}: ${err.message}`);
    throw err;
  }
}

export function register(program: Command): void {
  const space = program.command('space').description('manage spaces');
  space
    .command('create')
    .description('create a space; prints its first solver and management keys (shown once)')
    .argument('<name>', 'space name: letters, digits, "_", "-", "."')
    .option('--key-name <keyName>', 'name both first keys (listings and rule history show it)')
    .option('--json', 'print {"space", "solverKey", "managementKey"} only')
    .action(async (name: string, options: { json?: boolean; keyName?: string }) => {
      const keyName = checkedKeyName(options.keyName, '--key-name');
      const created = await storeCommand(async (services) => {
        try {
          return await services.spaces.create(name, { keyName });
        } catch (err) {
          // A name that can never be valid is a usage error (exit 2); a taken one is exit 1 like other failures.
          if (err instanceof ServiceError && err.code === 'invalid-space-name') throw new UsageError(err.message);
          throw err;
        }
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ space: created.space, solverKey: created.solverKey, managementKey: created.managementKey })}\n`);
        return;
      }
      process.stdout.write(
        [
          `Space "${created.space}" created. These keys are shown once; store them now:`,
          `  solver key:      ${created.solverKey}  (id ${created.solverKeyId})`,
          `  management key:  ${created.managementKey}  (id ${created.managementKeyId})`,
          '',
        ].join('\n'),
      );
    });
  space
    .command('publish-gate')
    .description('turn the publishing gate of a space on or off: when on, publishing a version whose tests fail is refused')
    .argument('<name>', 'the space')
    .argument('<setting>', 'on or off', gateSetting(['on', 'off']))
    .action(async (name: string, setting: string) => {
      const gate = await storeCommand(async (services) => {
        await services.spaces.require(name);
        return services.ruleTests.setSpaceGate(name, setting === 'on');
      });
      const overrides = gate.rules.map((r) => `${r.ruleId} ${r.enabled ? 'on' : 'off'}`).join(', ');
      process.stdout.write(`publishing gate of space ${name}: ${gate.space ? 'on' : 'off'}${overrides === '' ? '' : ` (rules with their own setting: ${overrides})`}\n`);
    });
  space
    .command('live-edits')
    .description("allow or forbid replacing a published version's content in place (forbidden: such a write is refused; save a new version and publish it)")
    .argument('<name>', 'the space')
    .argument('<setting>', 'allowed or forbidden', gateSetting(['allowed', 'forbidden']))
    .action(async (name: string, setting: string) => {
      const settings = await storeCommand((services) => services.spaces.setLiveEdits(name, setting === 'forbidden' ? 'forbidden' : 'allowed'));
      process.stdout.write(`live edits of published versions in space ${name}: ${settings.liveEdits}\n`);
    });
  space
    .command('list')
    .description('list spaces')
    .option('--json', 'print a JSON array')
    .action(async (options: { json?: boolean }) => {
      const spaces = await storeCommand((services) => services.spaces.list());
      if (options.json) process.stdout.write(`${JSON.stringify(spaces)}\n`);
      else for (const s of spaces) process.stdout.write(`${s.name}\t${s.createdAt}\n`);
    });
}
