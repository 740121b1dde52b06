// Rule tests use cases (issue 13): suites and tests of a rule, runs of a rule version's tests through the service's
// real solve path (references, flows, scripts and deadlines as in any solve; pending versions too), the run
// history, and the publishing gate. Every call is scoped to the caller's space.
import { randomUUID } from 'node:crypto';
import type { Problem } from '../../engine/errors.ts';
import type { CompiledRule, Json } from '../../engine/types.ts';
import type {
  RuleHead, RuleTestRecord, RuleTestResult, RuleTestRunFilter, RuleTestRunPage, RuleTestRunRecord, RuleTestSuiteRecord, RuleTestTrigger, Store,
} from '../../store/ports.ts';
import { InvalidCursorError } from '../../store/ports.ts';
import type { Actor, Principal } from '../keys.ts';
import { COMMAND_LINE_ACTOR } from '../keys.ts';
import type { Clock } from '../clock.ts';
import { isoAt } from '../clock.ts';
import { ServiceError } from '../errors.ts';
import { badRequest, conflict, notFound } from '../management/errors.ts';
import { findRule, findVersion, groupByRule } from '../management/lookup.ts';
import type { RuleVersions } from '../management/lookup.ts';
import type { PublishGate, PublishTarget } from '../management/publish-gate.ts';
import type { RuleCache, LoadedRule } from '../rule-cache.ts';
import { auditSettings } from '../rule-cache.ts';
import type { SolveChannel, SolveService } from '../solve.ts';
import { readSuite, readTest } from './definitions.ts';
import type { TestDefinition } from './definitions.ts';
import { countResults, runTests, TestSolveError } from './runner.ts';
import type { RunnableTest, TestSolver } from './runner.ts';

export interface SuiteView extends RuleTestSuiteRecord {
  tests: RuleTestRecord[];
}

export interface RuleSuites {
  ruleId: string;
  ruleAlias: string;
  suites: SuiteView[];
}

export interface RunSelection {
  suiteIds?: string[];
  testIds?: string[];
}

/** A run request's body: `{"suiteIds"?: [...], "testIds"?: [...]}`, or none (every test). */
export function readSelection(body: unknown): RunSelection {
  if (body === undefined || body === null) return {};
  const problem = 'Request body must be {"suiteIds"?: ["id", ...], "testIds"?: ["id", ...]} or empty';
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(problem);
  const selection: RunSelection = {};
  for (const [key, value] of Object.entries(body)) {
    if ((key !== 'suiteIds' && key !== 'testIds') || !Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw badRequest(problem);
    selection[key] = value as string[];
  }
  return selection;
}

export interface SpaceRun {
  passed: number;
  failed: number;
  errors: number;
  runs: RuleTestRunRecord[];
}

export interface GateView {
  /** The space setting. */
  space: boolean;
  /** Rules whose own setting overrides the space's. */
  rules: Array<{ ruleId: string; enabled: boolean }>;
}

export interface RuleGateView {
  ruleId: string;
  /** Whether publishing this rule is gated: its override, else the space setting. */
  enabled: boolean;
  override: boolean | null;
  space: boolean;
}

export interface RuleTestServiceDeps {
  store: Store;
  cache: RuleCache;
  solver: SolveService;
  clock: Clock;
  compile: (document: Record<string, unknown>) => CompiledRule;
}

const MAX_RUN_PAGE = 200;

/** Test solves in metrics (`channel="test"`): 0 for a solve that answered, 1 for one that failed. */
const TEST_CHANNEL: SolveChannel = { name: 'test', codeOf: (failure) => (failure === undefined ? 0 : 1) };

function invalid(message: string, problems: Problem[]): ServiceError {
  return badRequest(`${message} (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ')}`, problems);
}

function describeResult(result: RuleTestRunRecord['results'][number]): string {
  if (result.status === 'error') return `error: ${result.error ?? ''}`;
  const shown = result.differences.slice(0, 3).map((d) => {
    if (d.kind === 'missing') return `${d.path || '(output)'}: expected ${JSON.stringify(d.expected)}, missing`;
    if (d.kind === 'unexpected') return `${d.path || '(output)'}: not expected, received ${JSON.stringify(d.received)}`;
    return `${d.path || '(output)'}: expected ${JSON.stringify(d.expected)}, received ${JSON.stringify(d.received)}`;
  });
  const more = result.differences.length > shown.length ? `; and ${result.differences.length - shown.length} more` : '';
  return `failed: ${shown.join('; ')}${more}`;
}

export class RuleTestService implements PublishGate {
  readonly #deps: RuleTestServiceDeps;

  constructor(deps: RuleTestServiceDeps) {
    this.#deps = deps;
  }

  get #tests() {
    return this.#deps.store.ruleTests;
  }

  #now(): string {
    return isoAt(this.#deps.clock);
  }

  async #heads(space: string): Promise<RuleHead[]> {
    return this.#deps.store.management.read(space, (tx) => tx.heads());
  }

  async #rule(space: string, idOrAlias: string): Promise<RuleVersions> {
    return findRule(await this.#heads(space), idOrAlias);
  }

  async #suite(space: string, suiteId: string): Promise<RuleTestSuiteRecord> {
    const suite = await this.#tests.suite(space, suiteId);
    if (!suite) throw notFound(`Test suite "${suiteId}" not found`);
    return suite;
  }

  async #view(space: string, suite: RuleTestSuiteRecord): Promise<SuiteView> {
    return { ...suite, tests: await this.#tests.tests(space, { suiteId: suite.id }) };
  }

  async #views(space: string, ruleId: string | undefined): Promise<SuiteView[]> {
    const suites = await this.#tests.suites(space, ruleId);
    const tests = await this.#tests.tests(space, ruleId === undefined ? {} : { ruleId });
    return suites.map((s) => ({ ...s, tests: tests.filter((t) => t.suiteId === s.id).sort((a, b) => a.position - b.position) }));
  }

  // ---- suites and tests ----

  /** Every rule of the space that has suites, with them and their tests. */
  async listAll(space: string): Promise<RuleSuites[]> {
    const byRule = groupByRule(await this.#heads(space));
    const views = await this.#views(space, undefined);
    const out = new Map<string, RuleSuites>();
    for (const view of views) {
      const versions = byRule.get(view.ruleId);
      if (!versions) continue;
      let entry = out.get(view.ruleId);
      if (!entry) out.set(view.ruleId, (entry = { ruleId: view.ruleId, ruleAlias: versions[versions.length - 1]!.alias, suites: [] }));
      entry.suites.push(view);
    }
    return [...out.values()];
  }

  async listForRule(space: string, idOrAlias: string): Promise<RuleSuites> {
    const rule = await this.#rule(space, idOrAlias);
    return { ruleId: rule.ruleId, ruleAlias: rule.alias, suites: await this.#views(space, rule.ruleId) };
  }

  async createSuite(space: string, idOrAlias: string, body: unknown): Promise<SuiteView> {
    const problems: Problem[] = [];
    const definition = readSuite(body, '', problems);
    if (!definition) throw invalid('The test suite is invalid', problems);
    const rule = await this.#rule(space, idOrAlias);
    const existing = await this.#tests.suites(space, rule.ruleId);
    if (existing.some((s) => s.name === definition.name)) throw conflict(`Rule "${rule.alias || rule.ruleId}" already has a test suite named "${definition.name}"`);
    const now = this.#now();
    const suite: RuleTestSuiteRecord = { id: randomUUID(), ruleId: rule.ruleId, name: definition.name, description: definition.description, createdAt: now, updatedAt: now };
    await this.#tests.insertSuite(space, suite, definition.tests.map((test, position) => this.#record(suite.id, test, position, now)));
    return this.#view(space, suite);
  }

  async getSuite(space: string, suiteId: string): Promise<SuiteView> {
    return this.#view(space, await this.#suite(space, suiteId));
  }

  /** Renames or re-describes a suite; `tests`, when given, replaces its tests. */
  async updateSuite(space: string, suiteId: string, body: unknown): Promise<SuiteView> {
    const suite = await this.#suite(space, suiteId);
    const problems: Problem[] = [];
    const merged = body !== null && typeof body === 'object' && !Array.isArray(body) ? { name: suite.name, description: suite.description, ...(body as object) } : body;
    const definition = readSuite(merged, '', problems);
    if (!definition) throw invalid('The test suite is invalid', problems);
    if (definition.name !== suite.name && (await this.#tests.suites(space, suite.ruleId)).some((s) => s.name === definition.name)) {
      throw conflict(`The rule already has a test suite named "${definition.name}"`);
    }
    const now = this.#now();
    const replaced = (body as Record<string, unknown>).tests === undefined ? undefined : definition.tests.map((test, position) => this.#record(suiteId, test, position, now));
    await this.#tests.updateSuite(space, suiteId, { name: definition.name, description: definition.description, updatedAt: now }, replaced);
    return this.getSuite(space, suiteId);
  }

  async deleteSuite(space: string, suiteId: string): Promise<{ deleted: string }> {
    if (!(await this.#tests.deleteSuite(space, suiteId))) throw notFound(`Test suite "${suiteId}" not found`);
    return { deleted: suiteId };
  }

  #record(suiteId: string, test: TestDefinition, position: number, now: string): RuleTestRecord {
    return { ...test, id: randomUUID(), suiteId, position, createdAt: now, updatedAt: now };
  }

  #readTest(body: unknown): TestDefinition {
    const problems: Problem[] = [];
    const test = readTest(body, '', problems);
    if (!test) throw invalid('The test is invalid', problems);
    return test;
  }

  async addTest(space: string, suiteId: string, body: unknown): Promise<RuleTestRecord> {
    const definition = this.#readTest(body);
    await this.#suite(space, suiteId);
    const tests = await this.#tests.tests(space, { suiteId });
    const record = this.#record(suiteId, definition, tests.reduce((max, t) => Math.max(max, t.position + 1), 0), this.#now());
    await this.#tests.insertTest(space, record);
    return record;
  }

  async #test(space: string, suiteId: string, testId: string): Promise<RuleTestRecord> {
    const test = await this.#tests.test(space, testId);
    if (!test || test.suiteId !== suiteId) throw notFound(`Test "${testId}" not found in test suite "${suiteId}"`);
    return test;
  }

  async getTest(space: string, suiteId: string, testId: string): Promise<RuleTestRecord> {
    return this.#test(space, suiteId, testId);
  }

  async updateTest(space: string, suiteId: string, testId: string, body: unknown): Promise<RuleTestRecord> {
    const definition = this.#readTest(body);
    const current = await this.#test(space, suiteId, testId);
    const updated: RuleTestRecord = { ...current, ...definition, updatedAt: this.#now() };
    await this.#tests.updateTest(space, updated);
    return updated;
  }

  async deleteTest(space: string, suiteId: string, testId: string): Promise<{ deleted: string }> {
    await this.#test(space, suiteId, testId);
    await this.#tests.deleteTest(space, testId);
    return { deleted: testId };
  }

  // ---- runs ----

  /** The tests of a rule to run, suites by name and tests in order; a selection narrows them (unknown ids: 404). */
  async #runnable(space: string, ruleId: string, selection: RunSelection): Promise<RunnableTest[]> {
    const views = await this.#views(space, ruleId);
    const suiteIds = selection.suiteIds;
    const testIds = selection.testIds;
    const unknownSuites = (suiteIds ?? []).filter((id) => !views.some((v) => v.id === id));
    if (unknownSuites.length > 0) throw notFound(`Test suite${unknownSuites.length > 1 ? 's' : ''} ${unknownSuites.map((id) => `"${id}"`).join(', ')} not found for rule "${ruleId}"`);
    const all = views.flatMap((v) => v.tests.map((t): RunnableTest => ({ ...t, suiteName: v.name })));
    const unknownTests = (testIds ?? []).filter((id) => !all.some((t) => t.id === id));
    if (unknownTests.length > 0) throw notFound(`Test${unknownTests.length > 1 ? 's' : ''} ${unknownTests.map((id) => `"${id}"`).join(', ')} not found for rule "${ruleId}"`);
    const selected = suiteIds === undefined && testIds === undefined;
    return all.filter((t) => selected || (suiteIds ?? []).includes(t.suiteId) || (testIds ?? []).includes(t.id));
  }

  /** Solves through the service's solve path with the version itself as the root rule, whatever its status. */
  #solver(space: string, candidate: LoadedRule | Error, correlationId: string): TestSolver {
    const principal: Principal = { keyId: 'rule-tests', space, type: 'management', role: 'viewer', actor: { kind: 'cli', id: 'rule-tests', name: 'rule tests' } };
    return async (test) => {
      if (candidate instanceof Error) throw new TestSolveError(candidate.message);
      try {
        const response = await this.#deps.solver.solve(principal, {
          idOrAlias: candidate.head.ruleId,
          version: candidate.head.version,
          data: test.input,
          ...(test.strategy !== null ? { strategy: test.strategy } : {}),
          ...(test.includedConditionCols !== null ? { includedConditionCols: test.includedConditionCols } : {}),
          ...(test.excludedConditionCols !== null ? { excludedConditionCols: test.excludedConditionCols } : {}),
          correlationId,
          channel: TEST_CHANNEL,
          candidate,
        });
        return response.body as Json[];
      } catch (err) {
        if (err instanceof ServiceError) throw new TestSolveError(err.message);
        throw err;
      }
    };
  }

  /** The stored version compiled, or the error that keeps it from compiling (every test then errs with it). */
  async #load(head: RuleHead, document: Record<string, unknown> | undefined): Promise<LoadedRule | Error> {
    try {
      if (document === undefined) return await this.#deps.cache.load(head);
      return { head, compiled: this.#deps.compile(document), audit: auditSettings(document) };
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      return err instanceof Error ? new Error(`the rule does not compile: ${err.message}`) : new Error(String(err));
    }
  }

  async #execute(space: string, head: RuleHead, tests: RunnableTest[], document: Record<string, unknown> | undefined, trigger: RuleTestTrigger, forced: boolean, actor: Actor | undefined): Promise<RuleTestRunRecord> {
    const id = randomUUID();
    const createdAt = this.#now();
    const candidate = await this.#load(head, document);
    const results = await runTests(tests, this.#solver(space, candidate, id));
    const run: RuleTestRunRecord = { id, ruleId: head.ruleId, version: head.version, createdAt, trigger, forced, ...countResults(results), results };
    await this.#tests.insertRun(space, run);
    if (run.failed + run.errors > 0) await this.#recordFailure(space, head, run, actor);
    return run;
  }

  /** A run with failing tests is an event (`test.failed`): the log names the run; webhooks hear of it. */
  async #recordFailure(space: string, head: RuleHead, run: RuleTestRunRecord, actor: Actor | undefined): Promise<void> {
    await this.#deps.store.activity.append(space, [{
      at: this.#now(),
      actor: actor ?? COMMAND_LINE_ACTOR,
      action: 'test.failed',
      rule: { ruleId: head.ruleId, version: head.version, alias: head.alias, name: head.name },
      detail: { runId: run.id, trigger: run.trigger, forced: run.forced, passed: run.passed, failed: run.failed, errors: run.errors },
    }]);
  }

  /**
   * Solves one test against a rule version without storing anything: the received output (and, when the body gives
   * `expected`, the differences). What an editor needs to try an input on a pending version and save it as a test.
   */
  async tryTest(space: string, idOrAlias: string, version: number | undefined, body: unknown): Promise<RuleTestResult> {
    const problems: Problem[] = [];
    const given = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const definition = readTest({ name: 'try', expected: [], ...given }, '', problems);
    if (!definition) throw invalid('The test is invalid', problems);
    const head = findVersion(await this.#rule(space, idOrAlias), version);
    const candidate = await this.#load(head, undefined);
    const [result] = await runTests([{ ...definition, id: '', suiteId: '', suiteName: '' }], this.#solver(space, candidate, randomUUID()));
    return result!;
  }

  /** Runs a rule version's tests (default: its latest version), or the suites and tests selected. */
  async runRule(space: string, idOrAlias: string, version: number | undefined, selection: RunSelection = {}, actor?: Actor): Promise<RuleTestRunRecord> {
    const head = findVersion(await this.#rule(space, idOrAlias), version);
    return this.#execute(space, head, await this.#runnable(space, head.ruleId, selection), undefined, 'run', false, actor);
  }

  async runSuite(space: string, suiteId: string, version: number | undefined, actor?: Actor): Promise<RuleTestRunRecord> {
    const suite = await this.#suite(space, suiteId);
    return this.runRule(space, suite.ruleId, version, { suiteIds: [suiteId] }, actor);
  }

  /** Every rule of the space that has tests, each at its latest version. */
  async runSpace(space: string, actor?: Actor): Promise<SpaceRun> {
    const byRule = groupByRule(await this.#heads(space));
    const ruleIds = [...new Set((await this.#tests.suites(space)).map((s) => s.ruleId))];
    const runs: RuleTestRunRecord[] = [];
    for (const ruleId of ruleIds) {
      const versions = byRule.get(ruleId);
      if (!versions) continue;
      const tests = await this.#runnable(space, ruleId, {});
      if (tests.length === 0) continue;
      runs.push(await this.#execute(space, versions[versions.length - 1]!, tests, undefined, 'run', false, actor));
    }
    const total = { passed: 0, failed: 0, errors: 0 };
    for (const r of runs) {
      total.passed += r.passed;
      total.failed += r.failed;
      total.errors += r.errors;
    }
    return { ...total, runs };
  }

  async runs(space: string, filter: { rule?: string; version?: number; limit?: number; cursor?: string }): Promise<RuleTestRunPage> {
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RUN_PAGE) throw badRequest(`Query parameter limit must be an integer from 1 to ${MAX_RUN_PAGE}`);
    const query: RuleTestRunFilter = { limit };
    if (filter.rule !== undefined) query.ruleId = (await this.#rule(space, filter.rule)).ruleId;
    if (filter.version !== undefined) query.version = filter.version;
    if (filter.cursor !== undefined) query.cursor = filter.cursor;
    try {
      return await this.#tests.runs(space, query);
    } catch (err) {
      if (err instanceof InvalidCursorError) throw badRequest(`Query parameter cursor: ${err.message}`);
      throw err;
    }
  }

  async run(space: string, runId: string): Promise<RuleTestRunRecord> {
    const run = await this.#tests.run(space, runId);
    if (!run) throw notFound(`Test run "${runId}" not found`);
    return run;
  }

  // ---- publishing gate ----

  async gate(space: string): Promise<GateView> {
    return this.#tests.gates(space);
  }

  async setSpaceGate(space: string, enabled: boolean): Promise<GateView> {
    await this.#tests.setGate(space, undefined, enabled);
    return this.gate(space);
  }

  async ruleGate(space: string, idOrAlias: string): Promise<RuleGateView> {
    const rule = await this.#rule(space, idOrAlias);
    const gates = await this.#tests.gates(space);
    const override = gates.rules.find((r) => r.ruleId === rule.ruleId)?.enabled ?? null;
    return { ruleId: rule.ruleId, enabled: override ?? gates.space, override, space: gates.space };
  }

  /** Sets a rule's override; null removes it (the space setting applies again). */
  async setRuleGate(space: string, idOrAlias: string, enabled: boolean | null): Promise<RuleGateView> {
    const rule = await this.#rule(space, idOrAlias);
    await this.#tests.setGate(space, rule.ruleId, enabled);
    return this.ruleGate(space, rule.ruleId);
  }

  async beforePublish(space: string, target: PublishTarget, force: boolean): Promise<void> {
    const { head } = target;
    if (!(await this.ruleGate(space, head.ruleId)).enabled) return;
    const tests = await this.#runnable(space, head.ruleId, {});
    if (tests.length === 0) return;
    const run = await this.#execute(space, head, tests, target.document, 'publish', force, target.actor);
    const failing = run.results.filter((r) => r.status !== 'passed');
    if (failing.length === 0 || force) return;
    throw new ServiceError(
      'tests-failed',
      `Rule "${head.alias || head.ruleId}" version ${head.version} fails ${failing.length} of ${run.results.length} test${run.results.length === 1 ? '' : 's'} (run ${run.id}); the publishing gate refuses to publish it. Fix the rule or its tests, or publish anyway with ?force=true`,
      { problems: failing.map((r) => ({ path: `suites[${JSON.stringify(r.suiteName)}].tests[${JSON.stringify(r.testName)}]`, message: describeResult(r) })) },
    );
  }
}
