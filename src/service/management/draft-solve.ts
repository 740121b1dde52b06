// The Studio's test bench: solve a rule document that is not stored. The document is checked exactly as a write
// checks it (every problem with its path), then solved as POST /rule/solve solves a stored rule, with the debug
// trace, storing nothing: no rule, no audit record. See docs/decisions/management-draft-solve.md.
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../engine/errors.ts';
import type { Problem } from '../../engine/errors.ts';
import type { Json } from '../../engine/types.ts';
import { isVersion } from '../../rules/bounds.ts';
import { ruleIdOf } from '../../rules/containers.ts';
import type { RuleHead } from '../../store/ports.ts';
import { isoAt } from '../clock.ts';
import { auditSettings } from '../rule-cache.ts';
import type { LoadedRule } from '../rule-cache.ts';
import type { DocumentSolveRequest } from '../solve.ts';
import type { ManagementContext } from './context.ts';
import { compileChecked, problemsOf, requestedAlias, ruleBody, withIdentity } from './documents.ts';
import type { RuleDocument } from './documents.ts';
import { withDmnModel } from '../dmn-files.ts';
import { prepareDmnWrite } from './dmn.ts';

export interface DraftSolveRequest extends DocumentSolveRequest {
  /** The rule document, as a write would send it. */
  rule: unknown;
}

export interface DraftSolveResult {
  /** Exactly what POST /rule/solve answers for this data. */
  result: Json[] | Json[][];
  /** The debug trace as an audit record made with X-Debug: true holds it (bulk: one entry per input). */
  trace: Json;
  /** Warnings of the compiled rule (none today: writes refuse what would warn). */
  warnings: Problem[];
}

export class DraftSolve {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
    this.#ctx = ctx;
  }

  /** The document a write of `rule` would store (status, tags, lock and times filled in as a write fills them). */
  async #draft(rule: unknown, space?: string): Promise<{ document: RuleDocument; now: string }> {
    const body = ruleBody(rule);
    // A DMN draft is read (and its imports linked) as its save would; without a space, imports stay unlinked.
    const input = space === undefined ? await withDmnModel(body) : await prepareDmnWrite(this.#ctx, space, body, ruleIdOf(body));
    const now = isoAt(this.#ctx.clock);
    const document = withIdentity(
      { ...input, status: input.status ?? 'pending', tags: input.tags ?? [], locked: input.locked ?? false, createdIn: now, lastUpdate: now },
      { ruleId: ruleIdOf(input) ?? 'draft', version: isVersion(input.version) ? input.version : 1, alias: requestedAlias(input) ?? 'draft' },
    );
    return { document, now };
  }

  /**
   * Every problem a write of `rule` would refuse it for, each with its path; none when it can be stored. Nothing
   * is stored. (The space's other rules are not consulted: an alias clash is found by the write itself.)
   */
  async validate(rule: unknown): Promise<{ valid: boolean; problems: Problem[] }> {
    let document: RuleDocument;
    try {
      ({ document } = await this.#draft(rule));
    } catch (error) {
      if (error instanceof ValidationError) return { valid: false, problems: error.problems };
      throw error;
    }
    const problems = problemsOf(document, this.#ctx.compile);
    return { valid: problems.length === 0, problems };
  }

  async solve(space: string, request: DraftSolveRequest): Promise<DraftSolveResult> {
    // The fields a write fills in are filled the same way, so the draft passes or fails exactly as its save would.
    const { document, now } = await this.#draft(request.rule, space);
    const compiled = compileChecked(document, this.#ctx.compile);
    // An id no stored rule has: a reference from the draft to its own stored versions resolves to them, not to the draft.
    const head: RuleHead = {
      space,
      ruleId: `draft-${randomUUID()}`,
      version: document.version as number,
      alias: '',
      name: typeof document.name === 'string' ? document.name : '',
      type: String(document.type),
      status: 'pending',
      locked: false,
      tags: [],
      createdAt: now,
      updatedAt: now,
    };
    const rule: LoadedRule = { head, compiled, audit: auditSettings(document) };
    const solved = await this.#ctx.solver.solveDocument(space, rule, request);
    return { result: solved.body, trace: solved.trace, warnings: [...(compiled.warnings ?? [])] };
  }
}
