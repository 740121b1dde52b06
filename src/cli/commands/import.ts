// `verdict import FILE|DIR --space S [--strict] [--json]`: import DecisionRules exports (a rule, an array of rules,
// a rule-flow export, a folder export, a decision table as an XLSX v2 workbook, a GoRules JDM decision graph, a DMN model (.dmn XML), told by its content, not its name;
// a directory: every .json and .dmn file in it, recursively). All or nothing. One line
// per imported rule version with its alias and status, and a warning (stderr) per alias that several rules of the
// space now share, since solving by such an alias fails; --strict refuses those imports instead.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { looksLikeZip } from '../../formats/xlsx/index.ts';
import { xlsxToTable } from '../../service/management/xlsx.ts';
import { ruleFileValue } from '../../service/jdm-files.ts';
import { dmnRuleDocument } from '../../service/dmn-files.ts';
import { isDmnXml } from '../../formats/dmn/index.ts';
import { InputError } from '../errors.ts';
import { storeCommand } from './space.ts';

async function jsonFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new InputError(`${path}: no such file or directory`);
  if (info.isFile()) return [path];
  const entries = await readdir(path, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(json|dmn)$/i.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * A file's rule container: a workbook (zip magic) read as its decision table, anything else as JSON; a GoRules
 * JDM file (format detected) as one decision graph named after the file, its embedded tests as its suite.
 */
async function readRuleFile(file: string): Promise<unknown> {
  const bytes = await readFile(file);
  if (looksLikeZip(bytes)) return (await xlsxToTable(bytes)).document;
  const text = bytes.toString('utf8');
  if (isDmnXml(text)) {
    try {
      return await dmnRuleDocument(text, { fileName: file, status: 'pending' });
    } catch (err) {
      throw new InputError(`${file}: not a valid DMN model (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (err) {
    throw new InputError(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  let read;
  try {
    read = ruleFileValue(json, { fileName: file, status: 'pending' });
  } catch (err) {
    throw new InputError(`${file}: not a valid JDM file (${err instanceof Error ? err.message : String(err)})`);
  }
  for (const u of read.unsupported) process.stderr.write(`verdict: warning: ${file} ${u.path}: ${u.reason}\n`);
  return read.value;
}

export function register(program: Command): void {
  program
    .command('import')
    .description('import DecisionRules exports into a space (validated first; all or nothing)')
    .argument('<path>', 'a JSON file (DecisionRules export or GoRules JDM), a .dmn file (DMN 1.1-1.5), an .xlsx workbook (DecisionRules XLSX v2), or a directory of JSON and .dmn files')
    .requiredOption('--space <space>', 'target space')
    .option('--strict', 'refuse the import (nothing imported, exit 1) when it would leave an alias used by several rules')
    .option('--json', 'print {"imported": [{"ruleId", "version", "ruleAlias", "type", "status"}], "sharedAliases": [{"alias", "ruleIds"}]} only')
    .action(async (path: string, options: { space: string; strict?: boolean; json?: boolean }) => {
      const files = await jsonFiles(path);
      if (files.length === 0) throw new InputError(`${path}: no .json or .dmn files`);
      const containers = await Promise.all(files.map(async (file) => ({ source: files.length > 1 || file !== path ? file : '', value: await readRuleFile(file) })));
      const result = await storeCommand(async (services) => {
        await services.spaces.require(options.space);
        return services.rulesIO.importContainers(options.space, containers, { strict: options.strict === true });
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify(result)}\n`);
        return;
      }
      for (const r of result.imported) {
        const hint = r.status === 'pending' ? ` (not solvable until: verdict rule publish ${r.ruleId} --version ${r.version} --space ${options.space})` : '';
        process.stdout.write(`imported ${r.type} ${r.ruleAlias} (id ${r.ruleId}) version ${r.version}: ${r.status}${hint}\n`);
      }
      for (const shared of result.sharedAliases) {
        process.stderr.write(
          `verdict: warning: alias "${shared.alias}" is now used by ${shared.ruleIds.length} rules in space "${options.space}" (${shared.ruleIds.join(', ')}); solving by this alias fails, solve by rule id\n`,
        );
      }
    });
}
