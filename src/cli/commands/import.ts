// `verdict import FILE|DIR --space S [--json]`: import DecisionRules exports (a rule, an array of rules, a
// rule-flow export, a folder export; a directory: every .json file in it, recursively). All or nothing.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../errors.ts';
import { storeCommand } from './space.ts';

async function jsonFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new InputError(`${path}: no such file or directory`);
  if (info.isFile()) return [path];
  const entries = await readdir(path, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new InputError(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

export function register(program: Command): void {
  program
    .command('import')
    .description('import DecisionRules exports into a space (validated first; all or nothing)')
    .argument('<path>', 'a JSON file, or a directory of JSON files')
    .requiredOption('--space <space>', 'target space')
    .option('--json', 'print {"imported": [{"ruleId", "version", "ruleAlias", "type"}]} only')
    .action(async (path: string, options: { space: string; json?: boolean }) => {
      const files = await jsonFiles(path);
      if (files.length === 0) throw new InputError(`${path}: no .json files`);
      const containers = await Promise.all(files.map(async (file) => ({ source: files.length > 1 || file !== path ? file : '', value: await readJson(file) })));
      const imported = await storeCommand(async (services) => {
        if ((await services.store.spaces.get(options.space)) === undefined) throw new InputError(`space "${options.space}" does not exist`);
        return services.rulesIO.importContainers(options.space, containers);
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ imported })}\n`);
        return;
      }
      for (const r of imported) process.stdout.write(`imported ${r.type} ${r.ruleAlias} (id ${r.ruleId}) version ${r.version}\n`);
    });
}
