// `verdict convert FILE --to xlsx|decisionrules|jdm [--output OUT] [--rule ID|ALIAS] [--hit-policy first|collect]`:
// a decision table between DecisionRules JSON, DecisionRules XLSX v2 (docs/xlsx.md) and a GoRules JDM graph
// input -> decision table -> output (docs/jdm.md), offline. The input's format is told by its content (a workbook
// starts like a zip archive; a JDM file has top-level nodes and edges), not its name. Conversions are exact or
// refused naming every cell and reason. An XLSX file goes to stdout only as JSON.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Option } from 'commander';
import { CannotConvertError, detectFormat, graphToTable, readJdm, tableToGraph, writeJdm } from '../../formats/jdm/index.ts';
import { looksLikeZip } from '../../formats/xlsx/index.ts';
import { jdmTestsOf } from '../../service/jdm-files.ts';
import { tableToXlsx, xlsxToTable } from '../../service/management/xlsx.ts';
import { TEST_SUITES_FIELD } from '../../service/rule-tests/portable.ts';
import { InputError, UsageError } from '../errors.ts';
import { readContainerOf } from '../folder-resolver.ts';
import { selectRule } from '../solve-file.ts';

const TARGETS = ['xlsx', 'decisionrules', 'jdm'] as const;
const HIT_POLICIES = ['first', 'collect'] as const;

interface ConvertOptions {
  to: (typeof TARGETS)[number];
  output?: string;
  rule?: string;
  hitPolicy: (typeof HIT_POLICIES)[number];
}

type Json = Record<string, unknown>;

/** What the input file is, read once. */
type Source =
  | { format: 'xlsx'; document: Json }
  | { format: 'jdm'; graph: Json }
  | { format: 'decisionrules'; document: Json };

async function readSource(path: string, options: ConvertOptions): Promise<Source> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new InputError(`${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  if (looksLikeZip(bytes)) return { format: 'xlsx', document: (await xlsxToTable(bytes)).document };
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    throw new InputError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (detectFormat(json) === 'jdm') {
    const read = readJdm(json, { fileName: path });
    if (read.problems.length > 0) throw new InputError(`${path} is not a valid JDM file: ${read.problems.map((p) => `${p.path || '(file)'}: ${p.message}`).join('; ')}`);
    return { format: 'jdm', graph: { ...read.document, [TEST_SUITES_FIELD]: read.tests } };
  }
  return { format: 'decisionrules', document: selectRule(readContainerOf(json, path), path, options.rule).document };
}

/** A refusal naming every place and reason. */
function refused(path: string, to: string, err: unknown): never {
  if (err instanceof CannotConvertError) {
    throw new InputError(`${path} cannot be converted to ${to} exactly: ${err.unsupported.map((u) => `${u.path || '(rule)'}: ${u.reason}`).join('; ')}`);
  }
  throw err;
}

/** The decision table the source holds; a JDM graph converts when it is exactly input -> table -> output. */
function tableOf(source: Source, path: string, to: string): Json {
  if (source.format !== 'jdm') return source.document;
  try {
    const { [TEST_SUITES_FIELD]: tests, ...graph } = source.graph;
    const { document, hitPolicy } = graphToTable(graph);
    process.stderr.write(`note: the JDM table's hit policy is ${hitPolicy}: solve the table with X-Strategy ${hitPolicy === 'first' ? 'FIRST_MATCH' : 'STANDARD'} for the same answers\n`);
    // The graph answers [output], the table its result array: the tests' expectations differ in shape, so they are
    // named rather than rewritten.
    const count = Array.isArray(tests) ? tests.length : 0;
    if (count > 0) process.stderr.write(`note: the ${count} test${count === 1 ? '' : 's'} embedded in the JDM file are not carried into the table\n`);
    return document;
  } catch (err) {
    return refused(path, to, err);
  }
}

async function write(options: ConvertOptions, text: string): Promise<void> {
  if (options.output === undefined) process.stdout.write(text);
  else await writeFile(options.output, text);
}

async function toXlsx(path: string, options: ConvertOptions): Promise<void> {
  if (options.output === undefined) throw new UsageError('--to xlsx needs --output FILE.xlsx (a workbook is not written to the terminal)');
  const document = tableOf(await readSource(path, options), path, 'xlsx');
  const workbook = await tableToXlsx(document);
  await writeFile(options.output, workbook);
  const rows = (document.decisionTable as { rows?: unknown[] } | undefined)?.rows?.length ?? 0;
  process.stderr.write(`wrote ${options.output}: decision table ${JSON.stringify(document.name)}, ${rows} row${rows === 1 ? '' : 's'}\n`);
}

async function toDecisionRules(path: string, options: ConvertOptions): Promise<void> {
  const source = await readSource(path, options);
  if (source.format === 'decisionrules') throw new InputError(`${path} is not an XLSX workbook nor a JDM file (it is DecisionRules JSON already); --to decisionrules converts those`);
  await write(options, `${JSON.stringify(tableOf(source, path, 'decisionrules'), null, 2)}\n`);
}

async function toJdm(path: string, options: ConvertOptions): Promise<void> {
  const source = await readSource(path, options);
  if (source.format === 'jdm') throw new InputError(`${path} is already a JDM file; --to jdm converts DecisionRules tables (JSON or .xlsx)`);
  let jdm: Json;
  try {
    const suites = source.document[TEST_SUITES_FIELD];
    const tests = Array.isArray(suites) ? jdmTestsOf(suites as Parameters<typeof jdmTestsOf>[0]) : [];
    jdm = writeJdm(tableToGraph(source.document, options.hitPolicy), tests);
  } catch (err) {
    return refused(path, 'jdm', err);
  }
  await write(options, `${JSON.stringify(jdm, null, 2)}\n`);
}

export function register(program: Command): void {
  program
    .command('convert')
    .description('convert a decision table between DecisionRules JSON, XLSX v2 (Excel, LibreOffice) and GoRules JDM, exactly or not at all')
    .argument('<file>', 'a rule JSON file (or export), a GoRules JDM file, or an .xlsx workbook; told apart by content')
    .addOption(new Option('--to <format>', 'xlsx: write a workbook (needs --output); decisionrules: print the rule JSON; jdm: print the JDM graph').choices(TARGETS).makeOptionMandatory())
    .option('--output <file>', 'where to write (required for xlsx; default stdout otherwise)')
    .option('--rule <idOrAlias>', 'the table to convert when the JSON file holds several rules')
    .addOption(new Option('--hit-policy <policy>', '--to jdm: the JDM table\'s hit policy (first answers as FIRST_MATCH, collect as STANDARD)').choices(HIT_POLICIES).default('first'))
    .action(async (file: string, options: ConvertOptions) => {
      if (options.to === 'xlsx') await toXlsx(file, options);
      else if (options.to === 'jdm') await toJdm(file, options);
      else await toDecisionRules(file, options);
    });
}
