// Errors the engine raises. The service's error catalog (src/service/errors.ts, `classify`) says what each means
// to a client: ValidationError and RuleError are invalid input, LimitError and TimeoutError a limit, anything else
// a fault of ours (never shown to the client). A malformed document is the document format's error (src/rules).
export type { Problem } from '../rules/problems.ts';
export { ValidationError } from '../rules/problems.ts';

/** A rule-level failure at solve time (a script that throws, an ambiguous alias, an unsolvable flow). */
export class RuleError extends Error {
  readonly where: string | undefined;
  constructor(message: string, where?: string) {
    super(where ? `${where}: ${message}` : message);
    this.name = 'RuleError';
    this.where = where;
  }
}

/** Evaluation passed its deadline. */
export class TimeoutError extends Error {
  readonly limitMs: number | undefined;
  constructor(limitMs: number | undefined) {
    super(
      limitMs === undefined
        ? 'Rule evaluation exceeded its time limit'
        : `Rule evaluation exceeded the time limit of ${limitMs} ms`,
    );
    this.name = 'TimeoutError';
    this.limitMs = limitMs;
  }
}

/**
 * A solve went past one of its budgets (call depth, nested calls, concurrent scripts, script data size, script
 * memory, a full script queue). Not a RuleError on purpose: a script cannot catch it and carry on, so the budget
 * ends the whole top-level solve, and the message is reported once, not once per nesting level.
 */
export class LimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitError';
  }
}

/**
 * Thrown by a RuleResolver when a referenced rule may exist but is not loaded. The service loads it and
 * solves again; it never reaches a client.
 */
export class UnresolvedRuleError extends Error {
  readonly idOrAlias: string;
  readonly version: number | undefined;
  constructor(idOrAlias: string, version: number | undefined) {
    super(`Rule ${idOrAlias}${version === undefined ? '' : ` version ${version}`} is not loaded`);
    this.name = 'UnresolvedRuleError';
    this.idOrAlias = idOrAlias;
    this.version = version;
  }
}
