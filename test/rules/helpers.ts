// Shared by the rule-document tests: load a fixture as a fresh object, list problems as `path: message` lines.
import { readFileSync } from 'node:fs';
import { validateRuleDocument } from '../../src/rules/validate.ts';

export const FIXTURES = new URL('../fixtures/rules/', import.meta.url);

export function fixture(name: string): any {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

export function problems(doc: unknown): string[] {
  return validateRuleDocument(doc).map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`));
}
