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

export function fail(message: string): never {
  throw new ZenEvaluationError(message);
}
