// SOLVE, LOOKUP_VALUE, LOOKUP_EXISTS and HTTP_* (spec/rule-format.md §4.9.7, §11 Fn4, Fn5) against rules
// provided through a Map-based resolver: real compiled decision and lookup tables, plus doubles for the
// plumbing cases (async targets, call counting, resolver failures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompiledRule, EvaluationContext, HttpClient, HttpRequest, HttpResponse, SolveResult } from '../../src/engine/types.ts';
import { compileRule, solve } from '../../src/engine/index.ts';
import { RuleError, TimeoutError, UnresolvedRuleError } from '../../src/engine/errors.ts';
import { compileExpressionText } from '../../src/engine/expression/index.ts';
import { context, mapResolver, scopeOf } from './helpers.ts';
import { fx, plantItems, table, when } from './rule-docs.ts';

const v1 = compileRule(plantItems(1));
const v2 = compileRule(plantItems(2));
const resolver = mapResolver({ 'plant-items-example': v2, 'plant-items-example@1': v1, 'plant-items-example@2': v2 });
const ctx = (extra: Partial<Parameters<typeof context>[0]> = {}): EvaluationContext => context({ resolver, ...extra });

async function solveOut(text: string, variables: Record<string, unknown> = {}, c = ctx()): Promise<unknown> {
  return compileExpressionText(text, 'test').evaluateOutput(scopeOf(variables), c);
}

test('SOLVE returns the called rule\'s result; version, strategy and path pick what comes back', async () => {
  assert.deepEqual(await solveOut('SOLVE("plant-items-example",{"group":"plant"})'), [{ name: 'Ficus', price: 100, available: true }]);
  assert.equal(await solveOut('SOLVE("plant-items-example",{"group":"plant"},{"version":1,"path":"name"})'), 'Monstera');
  assert.deepEqual(await solveOut('SOLVE("plant-items-example",{"group":"plant"},{"version":1,"strategy":"ARRAY","path":"name"})'), ['Monstera', 'Begonia', 'Maranta']);
  assert.deepEqual(await solveOut('SOLVE("plant-items-example",{"group":"plant"},{"version":"1","strategy":"FIRST_MATCH"})'), [{ name: 'Monstera', price: 460, available: true }]);
  assert.deepEqual(await solveOut('ARRAY_PICK(SOLVE("plant-items-example",{data},{"version":1}),"price")', { data: { group: 'plant' } }), [460, 590, 390]);
  const all = (await solveOut('SOLVE("plant-items-example",{"group":"book"},{"version":1,"strategy":"EVALUATE_ALL"})')) as Record<string, unknown>[];
  assert.deepEqual(all.map((row) => row._match), [false, false, false, true]);
  assert.equal(await solveOut('SOLVE("plant-items-example",{"group":"plant"},{"version":1,"strategy":"nonsense","path":"price"})'), 460);
});

test('SOLVE passes included/excluded condition columns to the called table', async () => {
  const excluded = await solveOut('SOLVE("plant-items-example",{"group":"plant"},{"version":1,"excludedConditionCols":["group"],"strategy":"ARRAY","path":"name"})');
  assert.deepEqual(excluded, ['Monstera', 'Begonia', 'Maranta', 'Plant Lovers']);
});

test('the SOLVE target may be any expression', async () => {
  assert.equal(await solveOut('SOLVE({data},{"group":"plant"},{"version":1,"path":"name"})', { data: 'plant-items-example' }), 'Monstera');
});

test('a missing rule or version gives {} (IS_NULL of it is true); a call that is itself invalid gives null', async () => {
  assert.deepEqual(await solveOut('SOLVE("plant-items-example",{"group":"plant"},{"version":99})'), {});
  assert.deepEqual(await solveOut('SOLVE("plant-items-example",{"group":"plant"},{"version":99,"path":"name"})'), {});
  assert.equal(await solveOut('IS_NULL(SOLVE("plant-items-example",{"group":"plant"},{"version":99}))'), true);
  assert.equal(await solveOut('IS_NULL({})'), true);
  assert.equal(await solveOut('NVL(SOLVE("plant-items-example",{},{"version":99}),"none")'), 'none');
  assert.deepEqual(await solveOut('SOLVE("no-such-rule",{})'), {});
  assert.deepEqual(compileExpressionText('SOLVE("no-such-rule",{})', 'x').evaluateOutput(scopeOf(), ctx()), {});
  assert.equal(await solveOut('SOLVE("plant-items-example",{"group":"plant"})', {}, context()), null); // no rules to call: invalid
  assert.deepEqual(await solveOut('SOLVE(5.5,{})'), {}); // a rule id "5.5" that does not exist
  assert.equal(await solveOut('SOLVE("plant-items-example",{},"not options")'), null);
});

test('SOLVE records literal targets and is asynchronous; the sync methods work while targets are sync', () => {
  const compiled = compileExpressionText('SOLVE("plant-items-example",{"group":"plant"},{"version":1,"path":"name"})', 'x');
  assert.equal(compiled.async, true);
  assert.deepEqual(compiled.ruleRefs, [{ idOrAlias: 'plant-items-example', version: 1 }]);
  assert.equal(compiled.evaluateOutput(scopeOf(), ctx()), 'Monstera');
  assert.deepEqual(compileExpressionText('SOLVE({x},{})', 'x').ruleRefs, []);
  assert.deepEqual(compileExpressionText('LOOKUP_VALUE("banks","A",2,"Name")', 'x').ruleRefs, [{ idOrAlias: 'banks', version: 2 }]);
  assert.deepEqual(compileExpressionText('LOOKUP_EXISTS("banks","A")', 'x').ruleRefs, [{ idOrAlias: 'banks' }]);
  assert.equal(compileExpressionText('SUM(1,2)', 'x').async, false);
});

/** A rule double that counts its evaluations and may answer asynchronously. */
function double(options: { async?: boolean; result?: unknown[] } = {}): CompiledRule & { calls: EvaluationContext[] } {
  const calls: EvaluationContext[] = [];
  return {
    type: 'decision-table',
    ruleId: 'double',
    ruleAlias: 'double',
    version: 1,
    name: 'double',
    async: options.async === true,
    dependencies: [],
    calls,
    evaluate(_input: unknown, c: EvaluationContext): SolveResult | Promise<SolveResult> {
      calls.push(c);
      const result = { result: (options.result ?? [{ ok: true }]) as SolveResult['result'] };
      return options.async ? Promise.resolve(result) : result;
    },
  };
}

test('SOLVE answers with a promise when its target waits, and directly when it does not', async () => {
  const rule = double({ async: true, result: [{ v: 1 }] });
  const c = context({ resolver: mapResolver({ remote: rule }) });
  const compiled = compileExpressionText('SOLVE("remote",{},{"path":"v"})', 'x');
  const pending = compiled.evaluateOutput(scopeOf(), c);
  assert.ok(pending instanceof Promise);
  assert.equal(await pending, 1);
  assert.equal(compiled.evaluateOutput(scopeOf(), context({ resolver: mapResolver({ remote: double({ result: [{ v: 1 }] }) }) })), 1);
});

test('the child solve runs one level deeper with its own strategy', async () => {
  const rule = double();
  await solveOut('SOLVE("d",{},{"strategy":"ARRAY","includedConditionCols":["a"]})', {}, context({ resolver: mapResolver({ d: rule }), strategy: 'FIRST_MATCH' }));
  assert.equal(rule.calls.length, 1);
  assert.equal(rule.calls[0]!.depth, 1);
  assert.equal(rule.calls[0]!.strategy, 'ARRAY');
  assert.deepEqual(rule.calls[0]!.includedConditionCols, ['a']);
});

test('identical SOLVE calls within one solve run once', async () => {
  const rule = double();
  const c = context({ resolver: mapResolver({ d: rule }) });
  assert.deepEqual(await solveOut('[SOLVE("d",{"a":1}), SOLVE("d",{"a":1}), SOLVE("d",{"a":2})]', {}, c), [[{ ok: true }], [{ ok: true }], [{ ok: true }]]);
  assert.equal(rule.calls.length, 2);
  // Other expressions of the same solve (the same context) are answered from the same memo.
  assert.deepEqual(compileExpressionText('SOLVE("d",{"a":1})', 'x').evaluateOutput(scopeOf(), c), [{ ok: true }]);
  assert.deepEqual(compileExpressionText('SOLVE("d",{"a":2})', 'x').evaluateOutput(scopeOf(), c), [{ ok: true }]);
  assert.equal(rule.calls.length, 2);
  await solveOut('SOLVE("d",{"a":1})', {}, context({ resolver: mapResolver({ d: rule }) }));
  assert.equal(rule.calls.length, 3);
});

test('resolver failures propagate instead of becoming null', async () => {
  const ambiguous = context({ resolver: { resolve: () => { throw new RuleError('alias "x" is not unique'); } } });
  await assert.rejects(solveOut('SOLVE("x",{})', {}, ambiguous), { name: 'RuleError', message: 'alias "x" is not unique' });
  const unloaded = context({ resolver: { resolve: (id, version) => { throw new UnresolvedRuleError(id, version); } } });
  await assert.rejects(solveOut('IS_NULL(SOLVE("y",{}))', {}, unloaded), UnresolvedRuleError);
  assert.throws(() => compileExpressionText('LOOKUP_VALUE("y","k")', 'x').evaluateCondition(scopeOf(), unloaded), UnresolvedRuleError);
  const failing: CompiledRule = { ...double(), evaluate: () => { throw new TimeoutError(100); } };
  assert.equal(await solveOut('OR(true, SOLVE("t",{}))', {}, context({ resolver: mapResolver({ t: failing }) })), true);
  await assert.rejects(solveOut('SOLVE("t",{})', {}, context({ resolver: mapResolver({ t: failing }) })), TimeoutError);
});

test('a rule that SOLVEs itself stops at the depth limit with a LimitError naming the chain', async () => {
  const loop = compileRule(
    table({
      name: 'Loop',
      alias: 'loop',
      columns: [
        { id: 'i', kind: 'input', target: 'x' },
        { id: 'o', kind: 'output', target: 'out' },
      ],
      rows: [{ i: when('anything'), o: fx('SOLVE("loop",{})') }],
    }),
  );
  const rules = mapResolver({ loop });
  await assert.rejects(solve(loop, {}, { resolver: rules, now: 0 }), { name: 'LimitError', message: /more than 32 levels deep: "Loop" -> "Loop" -> .* \(does a rule call itself\?\)/ });
});

const banks = compileRule({
  type: 'lookup-table',
  name: 'Banks',
  status: 'published',
  version: 1,
  ruleAlias: 'banks',
  primaryKeyColumn: 'bic',
  columns: [
    { name: 'BIC', alias: 'bic', isPrimaryKey: true },
    { name: 'Bank Name', alias: 'bankname' },
    { name: 'Country', alias: 'country' },
  ],
  data: {
    HBUSGB4B: { bic: 'HBUSGB4B', bankname: 'HSBC UK', country: 'UK', _position: 0 },
    BOFAUS3N: { bic: 'BOFAUS3N', bankname: 'Bank of America', country: 'US', _position: 1 },
  },
  inputSchema: { primaryKey: {}, outputColumn: {} },
  outputSchema: { output: {} },
});

test('LOOKUP_VALUE reads a cell or the whole row of a lookup table; LOOKUP_EXISTS tests a key', () => {
  const c = context({ resolver: mapResolver({ banks, 'banks@1': banks, plants: v1 }) });
  const run = (text: string, vars: Record<string, unknown> = {}): unknown => compileExpressionText(text, 'x').evaluateOutput(scopeOf(vars), c);
  assert.equal(run('LOOKUP_VALUE("banks",{swift},null,"Country")', { swift: 'HBUSGB4B' }), 'UK');
  assert.equal(run('LOOKUP_VALUE("banks","BOFAUS3N","latest","Bank Name")'), 'Bank of America');
  assert.equal(run('LOOKUP_VALUE("banks","BOFAUS3N",1,"bankname")'), 'Bank of America');
  assert.deepEqual(run('LOOKUP_VALUE("banks","BOFAUS3N")'), { bankname: 'Bank of America', country: 'US' });
  assert.equal(run('LOOKUP_VALUE("banks","NOPE",null,"Country")'), null);
  assert.equal(run('LOOKUP_VALUE("banks","BOFAUS3N",null,"Nope")'), null);
  assert.equal(run('LOOKUP_VALUE("missing","BOFAUS3N")'), null);
  assert.equal(run('LOOKUP_VALUE("banks","BOFAUS3N",7)'), null);
  assert.equal(run('LOOKUP_VALUE("plants","x")'), null);
  assert.equal(run('LOOKUP_EXISTS("banks","HBUSGB4B")'), true);
  assert.equal(run('LOOKUP_EXISTS("banks","SKU-055")'), false);
  assert.equal(run('LOOKUP_EXISTS("nope","SKU-055")'), null);
});

/** An HttpClient double that records requests and answers from a table of responses. */
function httpDouble(answer: (req: HttpRequest) => HttpResponse | Promise<HttpResponse>): HttpClient & { requests: HttpRequest[] } {
  const requests: HttpRequest[] = [];
  return {
    requests,
    async request(req) {
      requests.push(req);
      return answer(req);
    },
  };
}

test('HTTP functions are invalid with a clear reason when no HTTP client is configured', async () => {
  const compiled = compileExpressionText('HTTP_GET("https://example.com")', 'x');
  assert.equal(compiled.async, true);
  assert.equal(await compiled.evaluateOutput(scopeOf(), context()), null);
  assert.deepEqual(await compiled.evaluateCondition(scopeOf(), context()), { matched: false, error: 'HTTP functions are disabled' });
  assert.equal(compiled.evaluateOutput(scopeOf(), context()), null);
});

test('HTTP_GET/POST/PUT/PATCH/DELETE call the client and return the parsed body', async () => {
  const http = httpDouble((req) => ({ status: 200, headers: {}, body: { method: req.method, echo: req.body ?? null } }));
  const c = context({ http });
  assert.deepEqual(await solveOut('HTTP_GET("https://api.test/a",{"headers":{"X-DEMO":1}})', {}, c), { method: 'GET', echo: null });
  assert.deepEqual(await solveOut('HTTP_POST("https://api.test/b",{"q":{v}})', { v: 3 }, c), { method: 'POST', echo: { q: 3 } });
  assert.equal(await solveOut('PICK(HTTP_PUT("https://api.test/c",[1]),"method")', {}, c), 'PUT');
  assert.equal(await solveOut('PICK(HTTP_PATCH("https://api.test/d",{}),"method")', {}, c), 'PATCH');
  assert.equal(await solveOut('PICK(HTTP_DELETE("https://api.test/e"),"method")', {}, c), 'DELETE');
  assert.deepEqual(http.requests[0], { method: 'GET', url: 'https://api.test/a', headers: { 'X-DEMO': '1' } });
  assert.deepEqual(http.requests[1], { method: 'POST', url: 'https://api.test/b', body: { q: 3 } });
});

test('HTTP error statuses give null, client failures are invalid, timeouts propagate', async () => {
  const http = httpDouble((req) => {
    if (req.url.endsWith('/missing')) return { status: 404, headers: {}, body: { error: 'not found' } };
    if (req.url.endsWith('/refused')) throw new Error('host api.evil is not allowed');
    if (req.url.endsWith('/slow')) throw new TimeoutError(2000);
    return { status: 200, headers: {}, body: 'plain text' };
  });
  const c = context({ http });
  assert.equal(await solveOut('HTTP_GET("https://api.test/missing")', {}, c), null);
  assert.equal(await solveOut('HTTP_GET("https://api.test/text")', {}, c), 'plain text');
  const refused = await compileExpressionText('HTTP_GET("https://api.evil/refused")', 'x').evaluateCondition(scopeOf(), c);
  assert.deepEqual(refused, { matched: false, error: 'HTTP_GET: host api.evil is not allowed' });
  await assert.rejects(solveOut('HTTP_GET("https://api.test/slow")', {}, c), TimeoutError);
  assert.equal(await solveOut('HTTP_GET(42)', {}, c), null);
});

test('identical HTTP calls within one solve run once; an HTTP call always answers with a promise', async () => {
  const http = httpDouble(() => ({ status: 200, headers: {}, body: { n: 1 } }));
  const c = context({ http });
  assert.deepEqual(await solveOut('[HTTP_GET("https://a.test/x"), HTTP_GET("https://a.test/x"), HTTP_GET("https://a.test/y")]', {}, c), [{ n: 1 }, { n: 1 }, { n: 1 }]);
  assert.equal(http.requests.length, 2);
  assert.ok(compileExpressionText('HTTP_GET("https://a.test/x")', 'x').evaluateOutput(scopeOf(), c) instanceof Promise);
});

test('async evaluation reaches HTTP calls inside lambdas, IF branches and JSON literals', async () => {
  const http = httpDouble((req) => ({ status: 200, headers: {}, body: Number(req.url.slice(-1)) }));
  const c = context({ http });
  assert.deepEqual(await solveOut('ARRAY_MAP([1,2],"i",HTTP_GET(CONCAT("https://a.test/",{i})))', {}, c), [1, 2]);
  assert.equal(await solveOut('IF(true, HTTP_GET("https://a.test/5"), 0)', {}, c), 5);
  assert.deepEqual(await solveOut('{"v": HTTP_GET("https://a.test/7") + 1}', {}, c), { v: 8 });
  assert.equal(await solveOut('ARRAY_REDUCE([1,2,3],"a","b",SUM({a},HTTP_GET("https://a.test/1")))', {}, c), 3);
  assert.deepEqual(await solveOut('ARRAY_FILTER([1,2],"i",EQ(HTTP_GET("https://a.test/2"),{i}))', {}, c), [2]);
  assert.equal(await solveOut('AND(HTTP_GET("https://a.test/1"), true)', {}, c), true);
  assert.equal(await solveOut('NVL(HTTP_GET("https://a.test/0"), 1, 2)', {}, c), 2);
  assert.equal(await solveOut('RAW_VALUE(CONCAT("0", HTTP_GET("https://a.test/9")))', {}, c), '09');
});
