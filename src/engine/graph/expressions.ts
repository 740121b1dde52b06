// ZEN expressions of a decision graph: compiled once with the JSON path of the text they came from (a syntax
// error is a document problem there), run with zen's locals. Runtime failures are the caller's to decide: zen
// reads a failing table cell or switch condition as "no match", and fails the node for an expression node.
import { ValidationError } from '../errors.ts';
import type { Problem } from '../errors.ts';
import { ZenEvaluationError, ZenSyntaxError, compileZenProgram } from '../zen/index.ts';
import type { ZenProgram } from '../zen/index.ts';

export type { ZenProgram };

/** The solve's clock as ZEN reads it: `now` is looked at only when an expression asks for it. */
export interface GraphClock {
  readonly now: number;
  random: () => number;
}

/**
 * Collects the syntax problems of every expression of a graph, so a document reports them all at once. Where zen
 * reads a failing expression as "no match" (table cells, switch conditions) the graph still loads: the problem is
 * a warning and the expression fails whenever it runs, as in zen (docs/decisions/jdm-decision-graphs.md).
 */
export class ExpressionCompiler {
  readonly problems: Problem[] = [];
  readonly warnings: Problem[] = [];

  /** The compiled expression, or one that always fails when it does not parse. */
  compile(source: string, kind: 'standard' | 'unary', path: string, severity: 'problem' | 'warning' = 'problem'): ZenProgram {
    try {
      return compileZenProgram(source, kind);
    } catch (error) {
      if (!(error instanceof ZenSyntaxError)) throw error;
      const message = `${kind === 'unary' ? 'unary test' : 'expression'} ${JSON.stringify(source)} does not parse: ${error.message}`;
      (severity === 'problem' ? this.problems : this.warnings).push({ path, message });
      return failing(message);
    }
  }

  /** Throws the ValidationError listing every problem found, if any. */
  finish(): void {
    if (this.problems.length > 0) throw new ValidationError(this.problems);
  }
}

function failing(message: string): ZenProgram {
  return {
    run() {
      throw new ZenEvaluationError(message);
    },
  };
}

/** Runs `program`; a failure (a type error, a missing function argument) answers `fallback`, as zen's tables do. */
export function runOr(program: ZenProgram, env: unknown, locals: Record<string, unknown> | undefined, clock: GraphClock, fallback: unknown): unknown {
  try {
    return program.run(env, locals, clock);
  } catch {
    return fallback;
  }
}
