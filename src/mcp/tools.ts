// The MCP tools: each a thin call of a service operation in the caller's space, with a strict input schema. Rules
// are named by id or alias (`rule`) and an optional version (the latest when left out), as in the management API.
// Writes by an assistant start pending: publishing is its own tool, so a live rule never changes as a side effect.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { functionCatalog } from '../engine/expression/catalog.ts';
import { RULE_TYPES } from '../rules/rule-types.ts';
import { ValidationError } from '../rules/problems.ts';
import { compareOutput } from '../service/rule-tests/compare.ts';
import type { Services } from '../service/index.ts';
import type { VersionedDocument } from '../service/management/context.ts';
import type { McpCaller } from './caller.ts';
import { failure, ok } from './results.ts';
import { applyTableEdits, emptyTable, tableView } from './table.ts';
import type { TableEdit } from './table.ts';
import { requirePermission } from '../service/roles.ts';
import type { Permission } from '../service/roles.ts';

type Obj = Record<string, unknown>;

const rule = z.string().min(1).max(500).describe('The rule id or alias');
const version = z.number().int().positive().optional().describe('The version number; the latest version when left out');
const document = z.record(z.string(), z.unknown()).describe('A rule document in the DecisionRules format (see the resource verdict://reference/rule-format)');

const cell = z
  .union([z.string(), z.number(), z.boolean(), z.null(), z.record(z.string(), z.unknown())])
  .describe(
    'A condition cell is {"operator", "value", "type"?} (a bare value means "="); a result cell is {"type": "common", "value"} or ' +
      '{"type": "function", "stringValue": "<expression>"} (a bare value means a simple value); a calculation cell is an expression',
  );
const cells = z.record(z.string(), cell).describe('Cells by column alias (or column id); columns left out stay as they are (new rows: "anything" and empty)');
const row = z.number().int().positive().describe('A row number, 1-based, as get_rule shows it');

const edit = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add_row'), at: row.optional().describe('Insert as this row number; at the end when left out'), active: z.boolean().optional(), cells }).strict(),
  z.object({ op: z.literal('change_row'), row, active: z.boolean().optional(), cells: cells.optional() }).strict(),
  z.object({ op: z.literal('move_row'), row, to: row }).strict(),
  z.object({ op: z.literal('delete_row'), row }).strict(),
  z
    .object({
      op: z.literal('add_column'),
      kind: z.enum(['condition', 'calculation', 'output']),
      name: z.string().min(1).max(200),
      path: z.string().min(1).max(500).describe('condition: the input path it reads; output: the output path it writes; calculation: the variable it defines'),
      alias: z.string().regex(/^[A-Za-z0-9-]{1,30}$/).optional().describe('Letters, digits and hyphens; generated from the name when left out'),
      at: z.number().int().positive().optional().describe('Column position, 1-based; conditions go after the last condition and results last when left out'),
      fill: cell.optional().describe('The cell every existing row gets; "anything" or empty when left out'),
    })
    .strict(),
  z
    .object({
      op: z.literal('change_column'),
      column: z.string().min(1),
      name: z.string().min(1).max(200).optional(),
      path: z.string().min(1).max(500).optional(),
      alias: z.string().regex(/^[A-Za-z0-9-]{1,30}$/).optional(),
    })
    .strict(),
  z.object({ op: z.literal('move_column'), column: z.string().min(1), to: z.number().int().positive() }).strict(),
  z.object({ op: z.literal('delete_column'), column: z.string().min(1) }).strict(),
]);
const edits = z.array(edit).min(1).max(1000).describe('Structured edits of a decision table, applied in order; all or nothing');

/** What each tool needs of the caller's role, as the management route doing the same work (src/service/roles.ts). */
const TOOL_PERMISSIONS: Record<string, Permission> = {
  list_rules: 'rules:read',
  get_rule: 'rules:read',
  validate_rule: 'rules:read',
  create_rule: 'rules:edit',
  update_rule: 'rules:edit',
  solve: 'rules:run',
  run_tests: 'rules:run',
  create_test: 'rules:edit',
  analyze_table: 'rules:read',
  compare_versions: 'rules:read',
  rule_history: 'audit:read',
  dependencies: 'rules:read',
  publish_rule: 'rules:publish',
  list_functions: 'rules:read',
};

/** Registers every tool of the caller's session. */
export function registerTools(server: McpServer, services: Services, caller: McpCaller): void {
  const { space } = caller;
  const { rules, tools, history, drafts } = services.management;
  const writeOptions = { by: caller.by, actor: caller.actor, role: caller.role };

  const tool = <S extends z.ZodRawShape>(
    name: string,
    description: string,
    shape: S,
    annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean },
    run: (args: z.infer<z.ZodObject<S>>) => Promise<unknown>,
  ) => {
    const permission = TOOL_PERMISSIONS[name];
    if (permission === undefined) throw new Error(`MCP tool ${name} names no permission in TOOL_PERMISSIONS`);
    server.registerTool(
      name,
      { description, inputSchema: z.object(shape).strict(), annotations: { ...annotations, openWorldHint: false } },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          requirePermission(caller, permission);
          return ok(await run(args as z.infer<z.ZodObject<S>>));
        } catch (err) {
          return failure(err, services.log, name);
        }
      },
    );
  };

  const read = async (idOrAlias: string, v?: number): Promise<Obj> => (await rules.get(space, idOrAlias, v)).document;

  /** The compact view of a stored version: its identity, and for tables the shape and a page of rows. */
  const view = (doc: Obj, rowsFrom?: number, rowsLimit?: number): Obj => {
    const identity = {
      ruleId: doc.ruleId,
      ruleAlias: doc.ruleAlias,
      name: doc.name,
      type: doc.type,
      version: doc.version,
      status: doc.status,
      locked: doc.locked,
    };
    return doc.type === 'decision-table' ? { ...identity, description: doc.description, inputSchema: doc.inputSchema, outputSchema: doc.outputSchema, ...tableView(doc, rowsFrom, rowsLimit) } : identity;
  };

  tool(
    'list_rules',
    'Lists the rules of your space: id, alias, name, type, folder, and each version with its status. Filter by text (name, alias or id) or type.',
    {
      query: z.string().max(200).optional().describe('Text the name, alias or id contains (any case)'),
      type: z.enum(RULE_TYPES).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(500).optional().describe('At most this many rules (default 100)'),
    },
    { readOnlyHint: true },
    async ({ query, type, offset = 0, limit = 100 }) => {
      const byRule = new Map<string, Obj & { versions: Array<{ version: number; status: string }> }>();
      for (const item of await rules.items(space)) {
        let entry = byRule.get(item.ruleId);
        if (entry === undefined) {
          entry = { ruleId: item.ruleId, ruleAlias: item.ruleAlias, name: item.name, type: item.type, folder: item.folder, tags: item.tags, versions: [] };
          byRule.set(item.ruleId, entry);
        }
        entry.versions.push({ version: item.version, status: item.status });
      }
      const needle = query?.toLowerCase();
      const all = [...byRule.values()].filter(
        (r) => (type === undefined || r.type === type) && (needle === undefined || [r.name, r.ruleAlias, r.ruleId].some((v) => String(v).toLowerCase().includes(needle))),
      );
      return { total: all.length, offset, rules: all.slice(offset, offset + limit) };
    },
  );

  tool(
    'get_rule',
    'Reads a rule version. A decision table comes compact: its columns (kind, name, path, alias) and row count first, then a page of rows with cells keyed by column alias. ' +
      'format "document" returns the stored DecisionRules document instead (every rule type).',
    {
      rule,
      version,
      format: z.enum(['compact', 'document']).optional().describe('compact (default) or document'),
      rowsFrom: z.number().int().positive().optional().describe('First row of the page, 1-based (default 1)'),
      rowsLimit: z.number().int().min(1).max(500).optional().describe('Rows in the page (default 50)'),
    },
    { readOnlyHint: true },
    async ({ rule: id, version: v, format, rowsFrom, rowsLimit }) => {
      const doc = await read(id, v);
      if (format === 'document' || doc.type !== 'decision-table') return doc;
      return view(doc, rowsFrom, rowsLimit);
    },
  );

  tool(
    'validate_rule',
    'Checks a rule document exactly as saving it would, without storing anything: every problem with its path.',
    { document },
    { readOnlyHint: true },
    async ({ document: doc }) => drafts.validate(doc),
  );

  tool(
    'create_rule',
    'Creates a rule, pending (publish it with publish_rule). Give a whole document, or a name to start an empty decision table and edits that add its columns and rows.',
    {
      document: document.optional(),
      name: z.string().min(1).max(200).optional().describe('With no document: the name of a new decision table'),
      description: z.string().max(2000).optional(),
      alias: z.string().min(1).max(200).optional().describe('The rule alias (unique in the space); generated from the name when left out'),
      folder: z.string().max(1000).optional().describe('Folder path, e.g. /pricing; the root when left out'),
      edits: edits.optional(),
    },
    {},
    async ({ document: given, name, description, alias, folder, edits: changes }) => {
      if ((given === undefined) === (name === undefined)) throw new ValidationError([{ path: 'document', message: 'give either a document or a name (for an empty decision table), not both' }]);
      let doc: Obj = given ?? emptyTable(name!, description ?? '');
      if (alias !== undefined) doc = { ...doc, ruleAlias: alias };
      if (changes !== undefined) doc = applyTableEdits(doc, changes as TableEdit[]);
      const created = await rules.create(space, { ...doc, status: 'pending' }, folder, writeOptions);
      return { created: view(created.document, 1, 20), ...warningsOf(created) };
    },
  );

  tool(
    'update_rule',
    'Changes a rule version: a whole new document, or structured edits of a decision table (add, change, move, delete rows and columns). ' +
      'A published version is live: it is changed only with allowLiveEdit; asNewVersion writes the result as a new pending version instead.',
    {
      rule,
      version,
      document: document.optional(),
      edits: edits.optional(),
      asNewVersion: z.boolean().optional().describe('Store the result as a new pending version and leave this one as it is'),
      allowLiveEdit: z.boolean().optional().describe('Change a published version in place (its answers change at once)'),
    },
    {},
    async ({ rule: id, version: v, document: given, edits: changes, asNewVersion, allowLiveEdit }) => {
      if ((given === undefined) === (changes === undefined)) throw new ValidationError([{ path: 'edits', message: 'give either a document or edits, not both' }]);
      const current = await read(id, v);
      const next = given ?? applyTableEdits(current, changes as TableEdit[]);
      if (asNewVersion === true) {
        const created = await rules.newVersion(space, id, next, writeOptions);
        return { newVersion: view(created.document, 1, 20), ...warningsOf(created) };
      }
      if (current.status === 'published' && allowLiveEdit !== true) {
        throw new ValidationError([
          {
            path: 'version',
            message: `version ${String(current.version)} of ${id} is published, so changing it changes live answers at once; set asNewVersion to write a new pending version, or allowLiveEdit to change it in place`,
          },
        ]);
      }
      const updated = await rules.update(space, id, current.version as number, { ...next, status: current.status }, writeOptions);
      return { updated: view(updated.document, 1, 20), ...warningsOf(updated) };
    },
  );

  tool(
    'solve',
    'Solves a stored rule version (pending versions too) or a draft document with the given input, exactly as POST /rule/solve answers; nothing is stored.',
    {
      rule: rule.optional(),
      version,
      document: document.optional().describe('A draft rule document to solve instead of a stored rule'),
      data: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).max(100)]).describe('The input object (or up to 100 of them)'),
      strategy: z.enum(['STANDARD', 'ARRAY', 'FIRST_MATCH', 'EVALUATE_ALL']).optional(),
      trace: z.boolean().optional().describe('Include the debug trace (which rows matched)'),
    },
    { readOnlyHint: true },
    async ({ rule: id, version: v, document: draft, data, strategy, trace }) => {
      if ((id === undefined) === (draft === undefined)) throw new ValidationError([{ path: 'rule', message: 'give either a stored rule or a draft document' }]);
      const target = draft ?? (await read(id!, v));
      const solved = await drafts.solve(space, { rule: target, data, strategy });
      return trace === true ? solved : { result: solved.result };
    },
  );

  tool(
    'run_tests',
    "Runs a rule version's stored tests (the latest version when left out): counts, and each failing test with its differences.",
    { rule, version },
    { readOnlyHint: false },
    async ({ rule: id, version: v }) => {
      const run = await services.ruleTests.runRule(space, id, v, {}, caller.actor);
      return {
        ruleId: run.ruleId,
        version: run.version,
        passed: run.passed,
        failed: run.failed,
        errors: run.errors,
        failures: run.results
          .filter((r) => r.status !== 'passed')
          .map((r) => ({ suite: r.suiteName, test: r.testName, status: r.status, error: r.error, differences: r.differences, received: r.received })),
      };
    },
  );

  tool(
    'create_test',
    'Adds a test to a rule: an input and the result array the solve must answer. It goes into the named suite (created when missing).',
    {
      rule,
      name: z.string().min(1).max(200),
      input: z.record(z.string(), z.unknown()),
      expected: z.array(z.unknown()).describe('The result array POST /rule/solve must answer, e.g. [{"fee": 5}]'),
      suite: z.string().min(1).max(200).optional().describe('Suite name (default "Assistant tests")'),
      ignore: z.array(z.string().min(1)).max(100).optional().describe('Output paths not compared, e.g. ["items[*].id"]'),
    },
    {},
    async ({ rule: id, name, input, expected, suite = 'Assistant tests', ignore }) => {
      const test = { name, input, expected, ...(ignore === undefined ? {} : { ignore }) };
      const existing = (await services.ruleTests.listForRule(space, id)).suites.find((s) => s.name === suite);
      if (existing === undefined) {
        const created = await services.ruleTests.createSuite(space, id, { name: suite, tests: [test] });
        return { suite: { id: created.id, name: created.name }, test: created.tests.at(-1) };
      }
      return { suite: { id: existing.id, name: existing.name }, test: await services.ruleTests.addTest(space, existing.id, test) };
    },
  );

  tool(
    'analyze_table',
    'Analyses a decision table: unreachable rows, overlaps, duplicates, gaps (inputs no row answers) and type problems, each with an example input. Rows are 1-based, columns by alias.',
    { rule, version },
    { readOnlyHint: true },
    async ({ rule: id, version: v }) => {
      const [doc, report] = await Promise.all([read(id, v), tools.analysis(space, id, v)]);
      const keys = new Map(tableView(doc, 1, 0).shape.columns.map((c) => [c.id, c.key]));
      const named = (columns: string[]) => columns.map((c) => keys.get(c) ?? c);
      return {
        findings: report.findings.map((f) => ({ ...f, rows: f.rows.map((r) => r + 1), columns: named(f.columns) })),
        undecided: { ...report.undecided, rows: report.undecided.rows.map((r) => r + 1), columns: named(report.undecided.columns) },
        omitted: report.omitted,
      };
    },
  );

  tool(
    'compare_versions',
    'Compares two versions of a rule: each difference with its document path and both values (status and times left out).',
    { rule, from: z.number().int().positive(), to: z.number().int().positive() },
    { readOnlyHint: true },
    async ({ rule: id, from, to }) => {
      const [left, right] = await Promise.all([read(id, from), read(id, to)]);
      const strip = ({ version: _v, status: _s, locked: _l, createdIn: _c, lastUpdate: _u, ...rest }: Obj) => rest;
      const differences = compareOutput(strip(left) as never, strip(right) as never);
      const described = left.type === 'decision-table' ? { columnsFrom: tableView(left, 1, 0).shape, columnsTo: tableView(right, 1, 0).shape } : {};
      return { from, to, ...described, count: differences.length, differences: differences.slice(0, 200).map((d) => ({ path: d.path, from: d.expected, to: d.received })) };
    },
  );

  tool(
    'rule_history',
    'The history of a rule: each write with its time, action and who made it.',
    { rule, version },
    { readOnlyHint: true },
    async ({ rule: id, version: v }) => history.list(space, id, v),
  );

  tool(
    'dependencies',
    'The rules a rule uses (flow nodes, lookups, SOLVE calls) and the rules that use it.',
    { rule, version },
    { readOnlyHint: true },
    async ({ rule: id, version: v }) => tools.dependencies(space, id, v),
  );

  tool(
    'publish_rule',
    'Publishes a rule version (the latest when left out): POST /rule/solve without a version answers with it from then on. With the publishing gate on, failing tests refuse it unless force.',
    { rule, version, force: z.boolean().optional() },
    { destructiveHint: true, idempotentHint: true },
    async ({ rule: id, version: v, force }) => {
      const published = await rules.setStatus(space, id, 'published', v, { ...writeOptions, force: force === true });
      const doc = published.document;
      return { published: { ruleId: doc.ruleId, ruleAlias: doc.ruleAlias, version: doc.version, status: doc.status } };
    },
  );

  tool(
    'list_functions',
    'The functions expressions can call, with their signatures, by group (math, logical, text, date, data, array, integration).',
    { group: z.string().max(50).optional(), query: z.string().max(100).optional() },
    { readOnlyHint: true },
    async ({ group, query }) => {
      const needle = query?.toUpperCase();
      return functionCatalog()
        .filter((f) => (group === undefined || f.group === group) && (needle === undefined || f.name.includes(needle)))
        .map((f) => ({ name: f.name, group: f.group, signature: f.signature, ...(f.aliases.length > 0 ? { aliases: f.aliases } : {}) }));
    },
  );
}


/** What a write stored but flags (cells outside their column's valid values), for the assistant to mention. */
function warningsOf(written: VersionedDocument): { warnings?: VersionedDocument['warnings'] } {
  return written.warnings !== undefined && written.warnings.length > 0 ? { warnings: written.warnings } : {};
}
