// The one place the DMN evaluator compiles FEEL text (src/engine/feel). A text that does not compile is a
// problem of the model, reported once at compile time with the expression's path; it then evaluates to null
// with a warning, so the rest of the model still evaluates (as the TCK expects of a broken decision).
import type { Problem } from '../../rules/problems.ts';
import { compileFeel, compileUnaryTests, constantOf, nameOf, unaryTestsNeedNoScope } from '../feel/index.ts';
import type { FeelType, FeelValue } from '../feel/index.ts';
import type { Evaluator, Frame } from './run.ts';
import { warn } from './run.ts';

export type UnaryEvaluator = (input: FeelValue, frame: Frame) => boolean | null;

/** What FEEL must know to read a text: the names in scope and the model's item definitions as types. */
export interface FeelNames {
  readonly names: readonly string[];
  readonly resolveType?: (name: string) => FeelType | undefined;
}

/** Collects the problems found while compiling one model. */
export class CompileProblems {
  readonly list: Problem[] = [];
  add(path: string, message: string): void {
    this.list.push({ path, message });
  }
}

function optionsOf(scope: FeelNames) {
  return { names: scope.names, ...(scope.resolveType ? { resolveType: scope.resolveType } : {}) };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function scopeOf(frame: Frame, warnings: string[]) {
  return { variables: frame.vars, now: frame.run.now, warnings, ...(frame.run.timeZone ? { timeZone: frame.run.timeZone } : {}) };
}

/** FEEL's own warnings (why a value became null) prefixed with the expression's path. */
function report(frame: Frame, path: string, warnings: string[]): void {
  for (const warning of warnings) frame.run.warnings.push(`${path}: ${warning}`);
}

export function feelExpression(text: string, scope: FeelNames, path: string, problems: CompileProblems): Evaluator {
  try {
    const compiled = compileFeel(text, optionsOf(scope));
    const constant = constantOf(compiled);
    if (constant !== undefined) return () => constant;
    const evaluate: Evaluator = (frame) => {
      const warnings: string[] = [];
      const value = compiled(scopeOf(frame, warnings));
      if (warnings.length > 0) report(frame, path, warnings);
      return value;
    };
    // A lone name found among the frame's variables is that variable (FEEL looks variables up first).
    const name = nameOf(compiled);
    if (name !== undefined) return (frame) => frame.vars.get(name) ?? evaluate(frame);
    return evaluate;
  } catch (error) {
    const reason = `FEEL expression '${text.trim()}' does not compile: ${message(error)}`;
    problems.add(path, reason);
    return (frame) => warn(frame, path, reason);
  }
}

export function feelUnaryTests(text: string, scope: FeelNames, path: string, problems: CompileProblems): UnaryEvaluator {
  try {
    const compiled = compileUnaryTests(text, optionsOf(scope));
    // Literal tests (`"a"`, `< 18`, `-`) read no name and warn of nothing: no scope or warnings list per test.
    if (unaryTestsNeedNoScope(compiled)) return (input) => compiled(input);
    return (input, frame) => {
      const warnings: string[] = [];
      const value = compiled(input, scopeOf(frame, warnings));
      if (warnings.length > 0) report(frame, path, warnings);
      return value;
    };
  } catch (error) {
    const reason = `FEEL unary tests '${text.trim()}' do not compile: ${message(error)}`;
    problems.add(path, reason);
    return (_input, frame) => warn(frame, path, reason);
  }
}
