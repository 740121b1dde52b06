// `verdict export --space S [DIR]`: without DIR, print the space as one DecisionRules folder export; with DIR,
// write one rule file per version (`<alias>_v<version>.json`). Both re-import with `verdict import`. A rule's test
// suites travel on its highest version as `testSuites` (docs/decisions/rule-tests-portability.md).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { storeCommand } from './space.ts';

function fileName(alias: string, ruleId: string, version: number): string {
  const base = (alias || ruleId).replace(/[^A-Za-z0-9._-]/g, '_');
  return `${base}_v${version}.json`;
}

export function register(program: Command): void {
  program
    .command('export')
    .description('export every rule version of a space')
    .argument('[dir]', 'directory to write one file per rule version into (default: one folder export on stdout)')
    .requiredOption('--space <space>', 'the space to export')
    .action(async (dir: string | undefined, options: { space: string }) => {
      await storeCommand(async (services) => {
        await services.spaces.require(options.space);
        if (dir === undefined) {
          process.stdout.write(`${JSON.stringify(await services.rulesIO.exportFolder(options.space), null, 2)}\n`);
          return;
        }
        await mkdir(dir, { recursive: true });
        const rules = await services.rulesIO.exportRules(options.space);
        for (const rule of rules) {
          await writeFile(join(dir, fileName(rule.alias, rule.ruleId, rule.version)), `${JSON.stringify(rule.document, null, 2)}\n`);
        }
        process.stderr.write(`exported ${rules.length} rule version(s) to ${dir}\n`);
      });
    });
}
