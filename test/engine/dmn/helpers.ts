// Small DMN models written inline for the evaluator's tests.
import assert from 'node:assert/strict';
import { compileDmn, evaluateJson } from '../../../src/engine/dmn/index.ts';
import type { CompiledDmn } from '../../../src/engine/dmn/index.ts';
import { readDmn } from '../../../src/rules/dmn/index.ts';

export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export function definitions(body: string, namespace = 'urn:test', name = 'test'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="${namespace}" name="${name}" id="defs">${body}</definitions>`;
}

export function literal(id: string, name: string, text: string, requires: string[] = [], typeRef?: string): string {
  return `<decision id="${id}" name="${name}"><variable name="${name}"${typeRef ? ` typeRef="${typeRef}"` : ''}/>${requirementsXml(requires)}
    <literalExpression><text>${escape(text)}</text></literalExpression></decision>`;
}

/** `#id` requirements: ids starting with `i` are input data, `k` knowledge, others decisions. */
export function requirementsXml(ids: string[]): string {
  return ids
    .map((id) =>
      id.startsWith('k')
        ? `<knowledgeRequirement><requiredKnowledge href="#${id}"/></knowledgeRequirement>`
        : `<informationRequirement><${id.startsWith('i') ? 'requiredInput' : 'requiredDecision'} href="#${id}"/></informationRequirement>`,
    )
    .join('');
}

export function input(id: string, name: string, typeRef?: string): string {
  return `<inputData id="${id}" name="${name}"><variable name="${name}"${typeRef ? ` typeRef="${typeRef}"` : ''}/></inputData>`;
}

export function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export async function compile(xml: string, imports: string[] = []): Promise<CompiledDmn> {
  const read = await readDmn(xml);
  assert.deepEqual(read.problems, []);
  const others = [];
  for (const other of imports) others.push((await readDmn(other)).model!);
  return compileDmn(read.model!, { imports: others });
}

export function solve(compiled: CompiledDmn, data: Record<string, unknown>, options: { decisions?: string[]; decisionService?: string } = {}) {
  return evaluateJson(compiled, data, { now: NOW, ...options });
}
