// The one line a node card shows under its name: what the node does, read from its data.
import type { RuleItem } from '../api/client.ts';
import type { GraphNode } from './model/graph.ts';
import { expressionTextOf } from './model/workflow.ts';

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function ruleText(rules: ReadonlyMap<string, RuleItem>, id: unknown, alias: unknown, version: unknown): string {
  const found = typeof id === 'string' ? rules.get(id) : undefined;
  const name = found?.name ?? (typeof alias === 'string' && alias !== '' ? alias : typeof id === 'string' && id !== '' ? id : undefined);
  if (name === undefined) return 'no rule chosen';
  return `${name} · ${typeof version === 'number' && version >= 1 ? `v${version}` : 'latest'}`;
}

export function nodeSummary(node: GraphNode, rules: ReadonlyMap<string, RuleItem>): string {
  const data = node.data ?? {};
  switch (node.type) {
    case 'START': return 'the request as {input}';
    case 'start': return 'the flow input';
    case 'BUSINESS_RULE': return ruleText(rules, data.rule?.baseId, data.rule?.ruleAlias, data.rule?.version);
    case 'rule': return ruleText(rules, data.baseId, undefined, data.version);
    case 'end': return count(data.mapping?.length ?? 0, 'output field');
    case 'DATA_MANIPULATION': {
      const first = data.mapping?.[0];
      if (!first) return 'nothing assigned yet';
      const text = `${first.target?.path ?? '?'} = ${expressionTextOf(first.source?.expression)}`;
      return data.mapping.length > 1 ? `${text} (+${data.mapping.length - 1})` : text;
    }
    case 'VARIABLES': return (data.variables ?? []).map((v: any) => v?.name).filter(Boolean).join(', ') || 'no variable yet';
    case 'FOREACH': return data.listPath ? `each of ${data.listPath}` : 'no list chosen';
    case 'IF_STATEMENT': return count((data.cases ?? []).length, 'case');
    case 'ARRAY_APPEND': return data.target?.path ? `to ${data.target.path}` : 'no target yet';
    case 'HTTP_CLIENT': return `${data.method ?? 'GET'} ${data.url || '(no URL)'}`;
    default: return '';
  }
}

/** The colour group of a node type on the canvas. */
export function nodeTone(type: string): string {
  switch (type) {
    case 'START': case 'start': case 'END': case 'end': return 'terminal';
    case 'BUSINESS_RULE': case 'rule': return 'rule';
    case 'IF_STATEMENT': case 'FOREACH': return 'control';
    case 'HTTP_CLIENT': return 'io';
    default: return 'data';
  }
}
