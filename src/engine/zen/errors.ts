// The two ways a ZEN expression fails: it does not parse (syntax, with the offset) or it cannot be evaluated
// (a wrong type, an unknown function). Adapters map both onto the service's error catalog when they wire ZEN in.

export class ZenSyntaxError extends Error {
  readonly at: number;

  constructor(message: string, at: number) {
    super(message);
    this.at = at;
    this.name = 'ZenSyntaxError';
  }
}

export class ZenEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZenEvaluationError';
  }
}

/**
 * Throws the evaluation error without a stack trace: decision tables read a failing cell as "no match", so a
 * table of cells that fail on a missing field throws on every row, and capturing the stack was most of that cost.
 * The message names what failed; the stack of the closures would not help anyone.
 */
export function fail(message: string): never {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    throw new ZenEvaluationError(message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
