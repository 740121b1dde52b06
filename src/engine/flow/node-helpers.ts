// Small readers shared by the decision-flow node compilers.
import type { RuleRef } from '../types.ts';
import type { FlowNode } from './workflow-graph.ts';

export const NO_REFS: readonly RuleRef[] = [];

export function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((entry): entry is Record<string, unknown> => entry !== null && typeof entry === 'object') : [];
}

export function textField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function nodeKey(node: FlowNode): string {
  return node.name ?? node.id;
}
