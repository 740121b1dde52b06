// `verdict convert FILE --to xlsx|decisionrules [--output OUT] [--rule ID|ALIAS]`: a decision table between
// DecisionRules JSON and DecisionRules XLSX v2 (docs/xlsx.md), offline. The input's format is told by its content
// (a workbook starts like a zip archive), not its name. An XLSX file goes to stdout only as JSON.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Option } from 'commander';
import { looksLikeZip } from '../../formats/xlsx/index.ts';
import { tableToXlsx, xlsxToTable } from '../../service/management/xlsx.ts';
import { InputError, UsageError } from '../errors.ts';
import { readContainerOf, readJsonFile } from '../folder-resolver.ts';
import { selectRule } from '../solve-file.ts';

const TARGETS = ['xlsx', 'decisionrules'] as const;

interface ConvertOptions {
  to: (typeof TARGETS)[number];
  output?: string;
  rule?: string;
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new InputError(`${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

async function toXlsx(path: string, options: ConvertOptions): Promise<void> {
  if (options.output === undefined) throw new UsageError('--to xlsx needs --output FILE.xlsx (a workbook is not written to the terminal)');
  const bytes = await readBytes(path);
  const document = looksLikeZip(bytes) ? (await xlsxToTable(bytes)).document : selectRule(readContainerOf(await readJsonFile(path), path), path, options.rule).document;
  const workbook = await tableToXlsx(document);
  await writeFile(options.output, workbook);
  const rows = (document.decisionTable as { rows?: unknown[] } | undefined)?.rows?.length ?? 0;
  process.stderr.write(`wrote ${options.output}: decision table ${JSON.stringify(document.name)}, ${rows} row${rows === 1 ? '' : 's'}\n`);
}

async function toDecisionRules(path: string, options: ConvertOptions): Promise<void> {
  const bytes = await readBytes(path);
  if (!looksLikeZip(bytes)) throw new InputError(`${path} is not an XLSX workbook (it does not start like a zip archive); --to decisionrules converts .xlsx files`);
  const text = `${JSON.stringify((await xlsxToTable(bytes)).document, null, 2)}\n`;
  if (options.output === undefined) process.stdout.write(text);
  else await writeFile(options.output, text);
}

export function register(program: Command): void {
  program
    .command('convert')
    .description('convert a decision table between DecisionRules JSON and XLSX v2 (Excel, LibreOffice, Google Sheets)')
    .argument('<file>', 'a rule JSON file (or export), or an .xlsx workbook; told apart by content')
    .addOption(new Option('--to <format>', 'xlsx: write a workbook (needs --output); decisionrules: print the rule JSON').choices(TARGETS).makeOptionMandatory())
    .option('--output <file>', 'where to write (required for xlsx; default stdout for decisionrules)')
    .option('--rule <idOrAlias>', 'the table to convert when the JSON file holds several rules')
    .action(async (file: string, options: ConvertOptions) => {
      if (options.to === 'xlsx') await toXlsx(file, options);
      else await toDecisionRules(file, options);
    });
}
