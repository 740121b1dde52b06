// The MCP server with the official SDK's own client, over streamable HTTP (POST /mcp of a real server) and over
// stdio (`verdict mcp` as a child process): an assistant builds a decision table from nothing, validates it,
// writes tests, sees one fail, fixes the row, publishes, and the rule then answers POST /rule/solve. Keys of
// another space and solver keys get nothing; bad input is a tool error naming its path.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer } from '../http/harness.ts';
import type { TestServer } from '../http/harness.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

const TOOLS = [
  'analyze_table', 'compare_versions', 'create_rule', 'create_test', 'dependencies', 'get_rule', 'list_functions', 'list_rules',
  'publish_rule', 'rule_history', 'run_tests', 'solve', 'update_rule', 'validate_rule',
];

async function httpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'verdict-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

function stdioTransport(databaseUrl: string, key: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp'],
    env: { ...(process.env as Record<string, string>), DATABASE_URL: databaseUrl, VERDICT_KEY: key, LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
}

/** A tool's answer: the parsed JSON of a result, or the text of a tool error. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string; json: any }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { error: result.isError === true, text, json: result.isError === true ? undefined : JSON.parse(text) };
}

/** The text of a resource's first content (every resource of ours is text). */
function resourceText(read: { contents: Array<{ text?: unknown } | object> }): string {
  const first = read.contents[0];
  return first !== undefined && 'text' in first ? String(first.text) : '';
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const answer = await call(client, name, args);
  assert.equal(answer.error, false, `${name} failed: ${answer.text}`);
  return answer.json;
}

/**
 * The authoring loop an assistant goes through, on any transport. Leaves `alias` published with the fixed row.
 */
async function authorLoyaltyTable(client: Client, alias: string): Promise<void> {
  const created = await ok(client, 'create_rule', {
    name: 'Loyalty discount',
    alias,
    edits: [
      { op: 'add_column', kind: 'condition', name: 'Tier', path: 'customer.tier', alias: 'tier' },
      { op: 'add_column', kind: 'output', name: 'Discount', path: 'discount', alias: 'discount' },
      { op: 'add_row', cells: { tier: 'gold', discount: { type: 'function', stringValue: '10' } } },
      { op: 'add_row', cells: { tier: 'silver', discount: { type: 'function', stringValue: '5' } } },
    ],
  });
  assert.equal(created.created.ruleAlias, alias);
  assert.equal(created.created.status, 'pending', 'an assistant creates rules pending');
  assert.deepEqual(created.created.shape.columns.map((c: { key: string; kind: string; path: string }) => [c.key, c.kind, c.path]), [
    ['tier', 'condition', 'customer.tier'],
    ['discount', 'output', 'discount'],
  ]);
  assert.deepEqual(created.created.inputSchema, { customer: { tier: {} } }, 'the condition path joined the input model');

  // Solve the pending version before any test exists.
  assert.deepEqual((await ok(client, 'solve', { rule: alias, data: { customer: { tier: 'gold' } } })).result, [{ discount: 10 }]);

  // Tests: silver customers are meant to get 7; the table says 5.
  await ok(client, 'create_test', { rule: alias, name: 'gold gets 10', input: { customer: { tier: 'gold' } }, expected: [{ discount: 10 }] });
  await ok(client, 'create_test', { rule: alias, name: 'silver gets 7', input: { customer: { tier: 'silver' } }, expected: [{ discount: 7 }] });
  const failing = await ok(client, 'run_tests', { rule: alias });
  assert.deepEqual([failing.passed, failing.failed], [1, 1]);
  assert.equal(failing.failures[0].test, 'silver gets 7');
  assert.deepEqual(failing.failures[0].differences.map((d: { path: string }) => d.path), ['[0].discount']);

  // Fix the row found by reading the table.
  const table = await ok(client, 'get_rule', { rule: alias });
  const silver = table.rows.items.find((r: { cells: { tier: { value: string } } }) => r.cells.tier.value === 'silver');
  assert.equal(silver.row, 2);
  await ok(client, 'update_rule', { rule: alias, edits: [{ op: 'change_row', row: silver.row, cells: { discount: { type: 'function', stringValue: '7' } } }] });
  const passing = await ok(client, 'run_tests', { rule: alias });
  assert.deepEqual([passing.passed, passing.failed, passing.errors], [2, 0, 0]);

  const published = await ok(client, 'publish_rule', { rule: alias });
  assert.equal(published.published.status, 'published');
  const history = await ok(client, 'rule_history', { rule: alias });
  assert.ok(history.items.length >= 2, 'create and update are in the history');
}

describe('MCP over streamable HTTP', () => {
  let backend: Backend;
  let server: TestServer;
  let client: Client;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend });
    client = await httpClient(server.url, server.space.managementKey);
  });

  after(async () => {
    await client?.close();
    await server?.close();
    await backend?.cleanup();
  });

  test('lists its tools, each with a strict input schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const tool of tools) assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name} refuses unknown arguments`);
  });

  test('build a table from nothing, test it, fix it, publish it: POST /rule/solve answers the fixed row', async () => {
    await authorLoyaltyTable(client, 'loyalty-http');
    const solved = await server.solve('/rule/solve/loyalty-http', { data: { customer: { tier: 'silver' } } });
    assert.equal(solved.status, 200);
    assert.deepEqual(solved.json, [{ discount: 7 }]);
  });

  test('a published version is not changed in place by accident; asNewVersion writes a pending version', async () => {
    const edit = { op: 'add_row', cells: { tier: 'bronze', discount: { type: 'function', stringValue: '2' } } };
    const refused = await call(client, 'update_rule', { rule: 'loyalty-http', edits: [edit] });
    assert.equal(refused.error, true);
    assert.match(refused.text, /^One problem; nothing was changed:\n- version: version 1 of loyalty-http is published, .*asNewVersion/);
    const next = await ok(client, 'update_rule', { rule: 'loyalty-http', edits: [edit], asNewVersion: true });
    assert.deepEqual([next.newVersion.version, next.newVersion.status, next.newVersion.shape.rows], [2, 'pending', 3]);
    const solved = await server.solve('/rule/solve/loyalty-http', { data: { customer: { tier: 'bronze' } } });
    assert.deepEqual(solved.json, [], 'the live version 1 has no bronze row');
    const compared = await ok(client, 'compare_versions', { rule: 'loyalty-http', from: 1, to: 2 });
    assert.deepEqual(compared.differences.map((d: { path: string }) => d.path), ['decisionTable.rows[2]']);
  });

  test('a write storing a value outside its column\'s valid values succeeds and names it in warnings', async () => {
    const doc = {
      type: 'decision-table', name: 'Shops', ruleAlias: 'mcp-shops', inputSchema: { shop: {} }, outputSchema: { ok: {} },
      decisionTable: {
        columns: [
          { columnId: 's', type: 'input', condition: { type: 'simple', name: 'Shop', inputVariable: 'shop' }, validValues: [{ type: 'GENERAL', value: 'SHOP_A' }] },
          { columnId: 'o', type: 'output', columnOutput: { type: 'simple', name: 'Ok', outputVariable: 'ok' } },
        ],
        rows: [{ active: true, cells: [{ column: 's', type: 'input', scalarCondition: { operator: '=', value: 'SHOP_Z', type: 'general' } }, { column: 'o', type: 'output', outputScalarValue: { type: 'common', value: 'yes' } }] }],
      },
    };
    const created = await ok(client, 'create_rule', { document: doc });
    assert.equal(created.created.ruleAlias, 'mcp-shops');
    assert.deepEqual(created.warnings, [{ path: 'decisionTable.rows[0].cells[0].scalarCondition.value', message: '"SHOP_Z" is not a valid value of column "Shop" (valid values: "SHOP_A")' }]);
    const fixed = structuredClone(doc);
    fixed.decisionTable.rows[0]!.cells[0]!.scalarCondition!.value = 'SHOP_A';
    const updated = await ok(client, 'update_rule', { rule: 'mcp-shops', document: fixed });
    assert.equal(updated.warnings, undefined, 'a clean write answers no warnings');
  });

  test('bad input is a tool error naming its path, and changes nothing', async () => {
    const badRow = await call(client, 'update_rule', { rule: 'loyalty-http', version: 2, edits: [{ op: 'change_row', row: 9, cells: {} }] });
    assert.equal(badRow.error, true);
    assert.match(badRow.text, /- edits\[0\]\.row: must be a row number from 1 to 3 \(got 9\)/);
    const badColumn = await call(client, 'update_rule', { rule: 'loyalty-http', version: 2, edits: [{ op: 'change_row', row: 1, cells: { colour: 'red' } }] });
    assert.match(badColumn.text, /- edits\[0\]\.cells\.colour: no column "colour"; columns are "tier", "discount"/);
    const badSchema = await call(client, 'update_rule', { rule: 'loyalty-http', edits: [{ op: 'add_row', cells: 5 }] });
    assert.equal(badSchema.error, true);
    assert.match(badSchema.text, /Invalid arguments for tool update_rule/);
    assert.match(badSchema.text, /edits/);
    const unknownArgument = await call(client, 'get_rule', { rule: 'loyalty-http', colour: 'red' });
    assert.equal(unknownArgument.error, true);
    assert.match(unknownArgument.text, /colour/);
    const invalid = await ok(client, 'validate_rule', { document: { name: 'x', type: 'decision-table', inputSchema: {}, outputSchema: {}, decisionTable: { columns: [], rows: [] } } });
    assert.equal(invalid.valid, false);
    assert.ok(invalid.problems.some((p: { path: string }) => p.path === 'decisionTable.columns'), JSON.stringify(invalid.problems));
    const missing = await call(client, 'get_rule', { rule: 'no-such-rule' });
    assert.equal(missing.error, true);
    assert.match(missing.text, /no-such-rule/);
    const after = await ok(client, 'get_rule', { rule: 'loyalty-http', version: 2 });
    assert.equal(after.shape.rows, 3, 'nothing was applied');
  });

  test('tables are read compact and in pages: the shape first', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ op: 'add_row', cells: { tier: `t${i}`, discount: { type: 'function', stringValue: String(i) } } }));
    await ok(client, 'create_rule', {
      name: 'Big',
      alias: 'big-table',
      edits: [{ op: 'add_column', kind: 'condition', name: 'Tier', path: 'tier', alias: 'tier' }, { op: 'add_column', kind: 'output', name: 'Discount', path: 'discount', alias: 'discount' }, ...rows],
    });
    const first = await ok(client, 'get_rule', { rule: 'big-table' });
    assert.deepEqual([first.shape.rows, first.rows.from, first.rows.to, first.rows.more], [120, 1, 50, true]);
    const last = await ok(client, 'get_rule', { rule: 'big-table', rowsFrom: 101, rowsLimit: 50 });
    assert.deepEqual([last.rows.from, last.rows.to, last.rows.more, last.rows.items[0].cells.tier.value], [101, 120, false, 't100']);
    const listed = await ok(client, 'list_rules', { query: 'big' });
    assert.deepEqual(listed.rules.map((r: { ruleAlias: string }) => r.ruleAlias), ['big-table']);
  });

  test('analysis, dependencies and functions answer in the compact forms', async () => {
    await ok(client, 'create_rule', {
      name: 'Overlapping',
      alias: 'overlapping',
      edits: [
        { op: 'add_column', kind: 'condition', name: 'Age', path: 'age', alias: 'age' },
        { op: 'add_column', kind: 'output', name: 'Band', path: 'band', alias: 'band' },
        { op: 'add_row', cells: { age: { operator: '>=', value: '18', type: 'general' }, band: 'adult' } },
        { op: 'add_row', cells: { age: { operator: '>=', value: '18', type: 'general' }, band: 'grown-up' } },
      ],
    });
    const analysis = await ok(client, 'analyze_table', { rule: 'overlapping' });
    const unreachable = analysis.findings.find((f: { kind: string }) => f.kind === 'unreachable' || f.kind === 'duplicate' || f.kind === 'overlap');
    assert.ok(unreachable, JSON.stringify(analysis.findings));
    assert.ok(unreachable.rows.includes(2), 'rows are 1-based');
    assert.ok(unreachable.columns.every((c: string) => c === 'age'), 'columns by alias');
    const dependencies = await ok(client, 'dependencies', { rule: 'overlapping' });
    assert.ok(dependencies, 'answered');
    const functions = await ok(client, 'list_functions', { query: 'ROUND' });
    assert.ok(functions.some((f: { name: string; signature: string }) => f.name === 'ROUND' && f.signature.startsWith('ROUND(')));
  });

  test('resources: the references from the registries, and each rule as a document; prompts', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const uri of ['verdict://reference/rule-format', 'verdict://reference/operators', 'verdict://reference/functions']) assert.ok(uris.includes(uri), uri);
    assert.ok(uris.includes('verdict://rules/loyalty-http/2'), uris.join(' '));
    const operators = await client.readResource({ uri: 'verdict://reference/operators' });
    assert.match(resourceText(operators), /\| `between` \| BTW \| a pair \[low, high\] \|/);
    const format = await client.readResource({ uri: 'verdict://reference/rule-format' });
    assert.match(resourceText(format), /decisionTable/);
    const rule = await client.readResource({ uri: 'verdict://rules/loyalty-http/1' });
    assert.equal(JSON.parse(resourceText(rule)).ruleAlias, 'loyalty-http');
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ['explain_rule', 'find_table_gaps', 'write_tests']);
    const prompt = await client.getPrompt({ name: 'find_table_gaps', arguments: { rule: 'loyalty-http' } });
    assert.match(JSON.stringify(prompt.messages), /analyze_table on \\"loyalty-http\\"/);
  });

  test("another space's management key sees none of this space; a solver key and no key are refused", async () => {
    const other = await server.running.services.spaces.create('other-mcp');
    const outsider = await httpClient(server.url, other.managementKey);
    try {
      assert.deepEqual((await ok(outsider, 'list_rules', {})).rules, []);
      const read = await call(outsider, 'get_rule', { rule: 'loyalty-http' });
      assert.equal(read.error, true);
      const publish = await call(outsider, 'publish_rule', { rule: 'loyalty-http', version: 2 });
      assert.equal(publish.error, true);
      const { resources } = await outsider.listResources();
      assert.ok(!resources.some((r) => r.uri.startsWith('verdict://rules/')), 'no rule of the other space is listed');
    } finally {
      await outsider.close();
    }
    await assert.rejects(httpClient(server.url, server.space.solverKey), /This is a solver key; the management API needs a management key/);
    const anonymous = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(anonymous.status, 401);
    const streams = await fetch(`${server.url}/mcp`, { method: 'GET', headers: { authorization: `Bearer ${server.space.managementKey}` } });
    assert.equal(streams.status, 405);
  });
});

describe('MCP over stdio (`verdict mcp`)', () => {
  let backend: Backend;
  let server: TestServer;

  before(async () => {
    backend = sqliteBackend();
    server = await startTestServer({ backend });
  });

  after(async () => {
    await server?.close();
    await backend?.cleanup();
  });

  test('the same loop through a child process; the server then solves the published rule', async () => {
    const client = new Client({ name: 'verdict-test', version: '1.0.0' });
    await client.connect(stdioTransport(backend.url, server.space.managementKey));
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), TOOLS);
      await authorLoyaltyTable(client, 'loyalty-stdio');
    } finally {
      await client.close();
    }
    const solved = await server.solve('/rule/solve/loyalty-stdio', { data: { customer: { tier: 'silver' } } });
    assert.equal(solved.status, 200);
    assert.deepEqual(solved.json, [{ discount: 7 }]);
  });

  test('a solver key, or none, stops `verdict mcp` at start with one line', async () => {
    for (const [key, pattern] of [
      [server.space.solverKey, /^verdict: VERDICT_KEY is not a management key of any space \(.*\); MCP needs a management key\n$/],
      ['', /^verdict: VERDICT_KEY must hold a management key of the space to work in/],
    ] as const) {
      const transport = stdioTransport(backend.url, key);
      let stderr = '';
      transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const exited = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
      const client = new Client({ name: 'verdict-test', version: '1.0.0' });
      await assert.rejects(client.connect(transport));
      await exited;
      assert.match(stderr, pattern);
    }
  });
});
