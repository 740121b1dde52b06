// MCP resources and prompts. The references are built from the registries the engine and the validator use (the
// function catalog, the operator table), so they cannot drift from what Verdict accepts; the rule format guide is
// prose. Each rule of the caller's space is a resource too: verdict://rules/{rule}/{version}.
import { readFileSync } from 'node:fs';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { functionCatalog } from '../engine/expression/catalog.ts';
import { OPERATORS } from '../rules/operators.ts';
import type { Services } from '../service/index.ts';
import type { McpCaller } from './caller.ts';

// Resolved from the package root so it is found from src/ and from the compiled dist/ alike ("src" is published).
const RULE_FORMAT_FILE = new URL('../../src/mcp/reference/rule-format.md', import.meta.url);

const VALUE_OF_SHAPE: Record<string, string> = {
  none: 'nothing ("")',
  scalar: 'one value',
  set: 'a list, e.g. ["a", "b"]',
  range: 'a pair [low, high]',
  text: 'a text (a list: any of them)',
  expression: 'an expression in stringValue, with "type": "function"',
};

export function operatorReference(): string {
  const lines = OPERATORS.map((op) => `| \`${op.name}\` | ${op.label} | ${VALUE_OF_SHAPE[op.value] ?? op.value} | ${op.date ? 'yes' : 'no'} |`);
  return [
    '# Condition operators (`scalarCondition.operator`)',
    '',
    '| Stored operator | Editor label | `value` holds | Date cells |',
    '|---|---|---|---|',
    ...lines,
    '',
    'A row with ELSE cells matches only when no active row above it matched.',
  ].join('\n');
}

export function functionReference(): string {
  const groups = new Map<string, string[]>();
  for (const f of functionCatalog()) {
    const list = groups.get(f.group) ?? [];
    list.push(`- \`${f.signature}\`${f.aliases.length > 0 ? ` (also ${f.aliases.join(', ')})` : ''}`);
    groups.set(f.group, list);
  }
  return ['# Expression functions', '', ...[...groups].flatMap(([group, lines]) => [`## ${group}`, '', ...lines, ''])].join('\n');
}

export function registerResources(server: McpServer, services: Services, caller: McpCaller): void {
  const markdown = (uri: URL, text: string) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] });
  server.registerResource('rule-format', 'verdict://reference/rule-format', { title: 'Rule document format', mimeType: 'text/markdown' }, (uri) =>
    markdown(uri, readFileSync(RULE_FORMAT_FILE, 'utf8')),
  );
  server.registerResource('operators', 'verdict://reference/operators', { title: 'Condition operators', mimeType: 'text/markdown' }, (uri) =>
    markdown(uri, operatorReference()),
  );
  server.registerResource('functions', 'verdict://reference/functions', { title: 'Expression functions', mimeType: 'text/markdown' }, (uri) =>
    markdown(uri, functionReference()),
  );

  const rules = services.management.rules;
  server.registerResource(
    'rule',
    new ResourceTemplate('verdict://rules/{rule}/{version}', {
      list: async () => {
        const latest = new Map<string, { ruleAlias: string; name: string; version: number }>();
        for (const item of await rules.items(caller.space)) {
          const seen = latest.get(item.ruleId);
          if (seen === undefined || seen.version < item.version) latest.set(item.ruleId, item);
        }
        return {
          resources: [...latest.values()].map((r) => ({ uri: `verdict://rules/${encodeURIComponent(r.ruleAlias)}/${r.version}`, name: r.name, mimeType: 'application/json' })),
        };
      },
    }),
    { title: 'A rule version (the DecisionRules document)', mimeType: 'application/json' },
    async (uri, variables) => {
      const version = Number(variables.version);
      const ref = decodeURIComponent(String(variables.rule));
      const { document } = await rules.get(caller.space, ref, Number.isInteger(version) && version > 0 ? version : undefined);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(document, null, 2) }] };
    },
  );
}

export function registerPrompts(server: McpServer): void {
  const ruleArg = { rule: z.string().min(1).max(500).describe('The rule id or alias') };
  const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });
  server.registerPrompt('explain_rule', { title: 'Explain this rule', description: 'What a rule decides, in plain words', argsSchema: ruleArg }, ({ rule }) =>
    ask(
      `Read the rule "${rule}" with get_rule (and the rules it uses, with dependencies). Explain in plain words what it decides: its inputs, ` +
        'its outputs, and each case it distinguishes, in order. Point out anything surprising, such as rows that can never match.',
    ),
  );
  server.registerPrompt('write_tests', { title: 'Write tests for this rule', description: 'Tests that cover each case of a rule', argsSchema: ruleArg }, ({ rule }) =>
    ask(
      `Read the rule "${rule}" with get_rule. Write one test per case it distinguishes, plus its edges (bounds of ranges, missing inputs): ` +
        'for each, work out the expected result from the rule, check it with solve, and store it with create_test. Then run run_tests and report.',
    ),
  );
  server.registerPrompt('find_table_gaps', { title: 'Find the gaps in this table', description: 'Inputs no row answers, overlaps and dead rows', argsSchema: ruleArg }, ({ rule }) =>
    ask(
      `Run analyze_table on "${rule}". For each gap, overlap or unreachable row, show the example input, say whether it looks intended, ` +
        'and propose the smallest edit (update_rule with edits, asNewVersion) that would fix it.',
    ),
  );
}
