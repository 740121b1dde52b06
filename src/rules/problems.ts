// What is wrong with a rule document: every problem with its JSON path, reported at once. The validator (this
// folder) and the engine's compilers (src/engine) both report document problems this way.

export interface Problem {
  /** JSON path into the rule document, e.g. `decisionTable.rows[3].cells[1].scalarCondition.operator`. */
  path: string;
  message: string;
}

/** The rule document is malformed. Lists every problem at once. */
export class ValidationError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; '));
    this.name = 'ValidationError';
    this.problems = problems;
  }
}
