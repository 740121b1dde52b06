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
    // Decision graphs (JDM): the node's data is its `content`.
    case 'inputNode': return 'the request';
    case 'outputNode': return 'the answer';
    case 'decisionTableNode': return `${data.hitPolicy === 'collect' ? 'collect' : 'first hit'} · ${count(Array.isArray(data.rules) ? data.rules.length : 0, 'row')}`;
    case 'expressionNode': {
      const list: any[] = Array.isArray(data.expressions) ? data.expressions : [];
      if (list.length === 0) return 'no expression yet';
      const text = `${list[0]?.key ?? '?'} = ${list[0]?.value ?? ''}`;
      return list.length > 1 ? `${text} (+${list.length - 1})` : text;
    }
    case 'switchNode': return `${data.hitPolicy === 'collect' ? 'every passing' : 'first passing'} of ${count(Array.isArray(data.statements) ? data.statements.length : 0, 'statement')}`;
    case 'decisionNode': {
      const key = typeof data.key === 'string' ? data.key.replace(/\.json$/, '').replace(/^.*\//, '') : '';
      if (key === '') return 'no rule chosen';
      const found = [...rules.values()].find((r) => r.ruleAlias === key || r.ruleId === key);
      return found?.name ?? key;
    }
    case 'functionNode': return 'JavaScript';
    case 'customNode': return typeof data.kind === 'string' ? `custom: ${data.kind}` : 'custom';
    default: return '';
  }
}

/** The colour group of a node type on the canvas. */
export function nodeTone(type: string): string {
  switch (type) {
    case 'START': case 'start': case 'END': case 'end': case 'inputNode': case 'outputNode': return 'terminal';
    case 'BUSINESS_RULE': case 'rule': case 'decisionTableNode': case 'decisionNode': return 'rule';
    case 'IF_STATEMENT': case 'FOREACH': case 'switchNode': return 'control';
    case 'HTTP_CLIENT': case 'functionNode': case 'customNode': return 'io';
    default: return 'data';
  }
}
