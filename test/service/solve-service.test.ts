// The solve use case without HTTP: resolution errors, the synchronous resolver with preloaded static
// dependencies, the load-and-retry path for references found only at run time, and cache reuse.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ValidationError } from '../../src/engine/errors.ts';
import type { CompiledRule, EvaluationContext } from '../../src/engine/types.ts';
import { Services } from '../../src/service/index.ts';
import type { Principal } from '../../src/service/keys.ts';
import { ServiceError } from '../../src/service/errors.ts';
import { statusOf } from '../../src/http/errors.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/ports.ts';

const evaluations = new Map<string, number>();

/** A stand-in compiler: `calls` names a rule resolved at run time; `deps` are the static dependencies. */
function fakeCompile(doc: Record<string, unknown>): CompiledRule {
  if (doc.broken === true) throw new ValidationError([{ path: 'decisionTable.rows[0]', message: 'is broken' }]);
  const name = String(doc.name);
  const calls = typeof doc.calls === 'string' ? doc.calls : undefined;
  return {
    type: 'decision-table',
    ruleId: String(doc.ruleId),
    ruleAlias: String(doc.ruleAlias),
    version: Number(doc.version),
    name,
    async: false,
    dependencies: ((doc.deps as string[] | undefined) ?? []).map((idOrAlias) => ({ idOrAlias })),
    evaluate(input: unknown, ctx: EvaluationContext) {
      evaluations.set(name, (evaluations.get(name) ?? 0) + 1);
      if (calls === undefined) return { result: [{ from: name }] };
      const target = ctx.resolver!.resolve(calls, undefined);
      const inner = target ? (target.evaluate(input, ctx) as { result: unknown[] }).result : null;
      return { result: [{ from: name, inner }] } as never;
    },
  };
}

function rule(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ruleId: id, version: 1, name: id, ruleAlias: id, type: 'decision-table', status: 'published', ...extra };
}

describe('SolveService', () => {
  let store: Store;
  let services: Services;
  let principal: Principal;

  before(async () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
    store = await openStore(config.databaseUrl);
    services = new Services({ config, store, log: { error() {}, warn() {}, info() {} }, compile: fakeCompile, sandbox: null, defaultMetrics: false });
    const created = await services.spaces.create('s');
    principal = { keyId: created.solverKeyId, space: 's', type: 'solver', role: 'solver' as const, actor: { kind: 'key' as const, id: 'k', name: 'k' } };
    await store.rules.put('s', [
      rule('a', { deps: ['b'], calls: 'b' }),
      rule('b'),
      rule('dyn', { calls: 'c' }),
      rule('c'),
      rule('to-missing', { calls: 'nothing' }),
      rule('to-pending', { calls: 'pend' }),
      rule('pend', { status: 'pending' }),
      rule('to-dup', { calls: 'dup' }),
      rule('d1', { ruleAlias: 'dup' }),
      rule('d2', { ruleAlias: 'dup' }),
      rule('broken', { broken: true }),
      rule('e', { deps: ['f'], calls: 'f' }),
      rule('f'),
      rule('late', { calls: 'late-target' }),
      rule('late-target'),
    ]);
  });
  after(async () => {
    await services.stop();
    await store.close();
  });

  const solve = (idOrAlias: string, version?: number) =>
    services.solver.solve(principal, { idOrAlias, version, data: {}, correlationId: 'c' });

  test('static dependencies are preloaded: one evaluation, no retry', async () => {
    evaluations.clear();
    assert.deepEqual((await solve('a')).body, [{ from: 'a', inner: [{ from: 'b' }] }]);
    assert.equal(evaluations.get('a'), 1);
  });

  test('a reference found only at run time is loaded and the input solved again', async () => {
    evaluations.clear();
    assert.deepEqual((await solve('dyn')).body, [{ from: 'dyn', inner: [{ from: 'c' }] }]);
    assert.equal(evaluations.get('dyn'), 2, 'first attempt hit UnresolvedRuleError');
    evaluations.clear();
    await solve('dyn');
    assert.equal(evaluations.get('dyn'), 1, 'now cached: no retry');
  });

  test('a missing or pending target resolves to nothing (SOLVE then yields null)', async () => {
    assert.deepEqual((await solve('to-missing')).body, [{ from: 'to-missing', inner: null }]);
    assert.deepEqual((await solve('to-pending')).body, [{ from: 'to-pending', inner: null }]);
  });

  test('an ambiguous alias inside a rule is a rule error (400)', async () => {
    await assert.rejects(solve('to-dup'), (err: unknown) => err instanceof ServiceError && statusOf(err) === 400 && /alias "dup" is ambiguous/.test(err.message));
  });

  test('resolution failures carry their kinds and exact messages', async () => {
    const failure = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (err) {
        assert.ok(err instanceof ServiceError);
        return [err.code, err.message];
      }
      assert.fail('expected a failure');
    };
    assert.deepEqual(await failure(solve('zzz')), ['unknown-rule', 'Unknown rule or rule version']);
    assert.deepEqual(await failure(solve('b', 2)), ['unknown-rule', 'Unknown rule or rule version']);
    assert.deepEqual(await failure(solve('pend')), ['not-published', 'Rule state is not published']);
    assert.equal((await failure(solve('dup')))[0], 'ambiguous-alias');
    assert.deepEqual(await failure(services.solver.solve(principal, { idOrAlias: 'a', version: undefined, data: {}, correlationId: 'c', ruleFlowsOnly: true })), [
      'unknown-rule',
      'Unknown ruleFlow or version',
    ]);
  });

  test('a stored rule that does not compile is a 400 naming the problem, and is not cached', async () => {
    await assert.rejects(solve('broken'), (err: unknown) => err instanceof ServiceError && statusOf(err) === 400 && /rows\[0\]: is broken/.test(err.message));
    assert.equal(services.cache.peek('s', 'broken', 1), undefined);
  });

  test('a warm rule with its dependencies in memory answers synchronously, as the asynchronous path would', async () => {
    const request = (data: unknown) => ({ idOrAlias: 'e', version: undefined, data, correlationId: 'c' });
    const cold = services.solver.solveNow(principal, request({}));
    assert.ok(cold instanceof Promise, 'nothing compiled yet: asynchronous');
    assert.deepEqual((await cold).body, [{ from: 'e', inner: [{ from: 'f' }] }]);
    const warm = services.solver.solveNow(principal, request({}));
    assert.ok(!(warm instanceof Promise), 'compiled with its dependency: synchronous');
    assert.deepEqual(warm.body, [{ from: 'e', inner: [{ from: 'f' }] }]);

    const slice = services.solver.solveNow(principal, request(Array.from({ length: 64 }, () => ({}))));
    assert.ok(!(slice instanceof Promise), 'a bulk of one slice stays synchronous');
    assert.equal(slice.body.length, 64);
    const longer = services.solver.solveNow(principal, request(Array.from({ length: 65 }, () => ({}))));
    assert.ok(longer instanceof Promise, 'a longer bulk yields to the event loop between slices');
    assert.deepEqual((await longer).body, Array.from({ length: 65 }, () => [{ from: 'e', inner: [{ from: 'f' }] }]));

    await store.rules.put('s', [rule('f', { name: 'f2' })]);
    const afterWrite = services.solver.solveNow(principal, request({}));
    assert.ok(afterWrite instanceof Promise, 'the write dropped the catalog and the dependency');
    assert.deepEqual((await afterWrite).body, [{ from: 'e', inner: [{ from: 'f2' }] }]);
  });

  test('a synchronous solve that meets a rule not in memory loads it and solves that input again, asynchronously', async () => {
    const catalog = await services.cache.catalog('s');
    const head = catalog.resolve('late', undefined);
    assert.ok(head.ok);
    await services.cache.load(head.head);
    evaluations.clear();
    const answer = services.solver.solveNow(principal, { idOrAlias: 'late', version: undefined, data: {}, correlationId: 'c' });
    assert.ok(answer instanceof Promise);
    assert.deepEqual((await answer).body, [{ from: 'late', inner: [{ from: 'late-target' }] }]);
    assert.equal(evaluations.get('late'), 2, 'synchronous attempt, retry after the load');
    evaluations.clear();
    const warm = services.solver.solveNow(principal, { idOrAlias: 'late', version: undefined, data: {}, correlationId: 'c' });
    assert.ok(!(warm instanceof Promise));
    assert.equal(evaluations.get('late'), 1);
  });

  test('compiled rules are reused until a write to that rule', async () => {
    await solve('b');
    const before = services.cache.stats.compiles;
    await solve('b');
    assert.equal(services.cache.stats.compiles, before);
    await store.rules.put('s', [rule('b', { name: 'b2' })]);
    assert.deepEqual((await solve('b')).body, [{ from: 'b2' }]);
    assert.equal(services.cache.stats.compiles, before + 1);
  });
});
