// The script editor's completions, signature help and member check (studio/src/script/completions.ts), the
// scripting rule model (blank rule, problems, console lines, stop explanations), and the
// one list they come from (src/engine/script/api.ts) against the globals a real isolate context has after the
// sandbox's own bootstrap ran: a global added to or removed from the sandbox fails here until the list says so.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import ivm from 'isolated-vm';
import { SCRIPT_API } from '../../src/engine/script/api.ts';
import type { ScriptApiEntry } from '../../src/engine/script/api.ts';
import { BOOTSTRAP_SOURCE } from '../../src/engine/script/bootstrap.ts';
import { scriptCompletions, signatureAt, unknownMembers } from '../../studio/src/script/completions.ts';
import type { ScriptScope } from '../../studio/src/script/completions.ts';
import { blankScript, consoleLines, explainScriptError, scriptProblems } from '../../studio/src/script/model.ts';

/** Shape of a value as the test compares it: typeof, and for objects the shapes of their own members. */
type Shape = { kind: string; members?: Record<string, Shape> };

/** Source run in the isolate: a value's shape, three levels deep. */
const SHAPE = `function shape(value, depth) {
  const kind = typeof value;
  if (kind !== 'object' || value === null || depth === 0) return { kind };
  const members = {};
  for (const key of Object.getOwnPropertyNames(value)) members[key] = shape(value[key], depth - 1);
  return { kind, members };
}`;
/** Every global of a bare context, name to shape text. */
const BARE = `(function () {
  ${SHAPE}
  const out = {};
  for (const name of Object.getOwnPropertyNames(globalThis)) out[name] = JSON.stringify(shape(globalThis[name], 3));
  return JSON.stringify(out);
})()`;
/** Every global whose shape differs from the bare context's (given as BARE's text). */
const DESCRIBE = `(function (bareJson) {
  ${SHAPE}
  const bare = JSON.parse(bareJson);
  const out = {};
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (name === 'globalThis') continue; // it lists the new globals themselves
    const described = JSON.stringify(shape(globalThis[name], 3));
    if (bare[name] !== described) out[name] = JSON.parse(described);
  }
  return JSON.stringify(out);
})`;

async function sandboxGlobals(): Promise<Record<string, Shape>> {
  const isolate = new ivm.Isolate({ memoryLimit: 16 });
  try {
    const bare = (await (await isolate.createContext()).eval(BARE)) as string;
    const context = await isolate.createContext();
    const bootstrap = (await (await isolate.compileScript(BOOTSTRAP_SOURCE)).run(context, { reference: true })) as ivm.Reference;
    const stub = new ivm.Reference(() => undefined);
    await bootstrap.apply(undefined, ['{}', '{}', stub, stub, false, JSON.stringify({ maxLogLines: 10, maxLogLineChars: 100 })], { result: { reference: true } });
    const describe = (await context.eval(DESCRIBE, { reference: true })) as ivm.Reference;
    return JSON.parse((await describe.apply(undefined, [bare])) as string) as Record<string, Shape>;
  } finally {
    isolate.dispose();
  }
}

/** The list's claim in the same shape; members that come from the rule (input fields…) are the request's. */
function declared(entry: ScriptApiEntry): Shape {
  if (entry.membersFrom) return { kind: entry.kind, members: {} };
  if (!entry.members) return { kind: entry.kind };
  return { kind: entry.kind, members: Object.fromEntries(entry.members.map((member) => [member.name, declared(member)])) };
}

const SCOPE: ScriptScope = {
  inputSchema: { customer: { age: {}, 'home-country': {} }, amount: {} },
  outputSchema: { decision: {} },
  userVariables: [{ name: 'threshold', value: 100 }, { value: 'nameless' }],
  rules: [{ alias: 'risk-table', name: 'Risk table', type: 'decision-table' }],
};

function labels(text: string, where: 'code' | 'string' | 'comment' = 'code', explicit = false): string[] | undefined {
  return scriptCompletions(text, text.length, SCOPE, where, explicit)?.options.map((o) => o.label);
}

describe('script API', () => {
  test('the list names exactly the globals, members and kinds the sandbox bootstrap installs', async () => {
    const actual = await sandboxGlobals();
    const expected = Object.fromEntries(SCRIPT_API.map((entry) => [entry.name, declared(entry)]));
    // input is parsed from '{}' and output starts empty: no members in either, as declared.
    assert.deepEqual(actual, expected);
  });

  test('every function has a signature that starts with its own path, and a doc line', () => {
    const walk = (entries: readonly ScriptApiEntry[], path: string[]) => {
      for (const entry of entries) {
        const here = [...path, entry.name];
        assert.ok(entry.doc.length > 10, `${here.join('.')} has a doc line`);
        if (entry.kind === 'function') assert.ok(entry.signature?.startsWith(`${here.join('.')}(`), `${here.join('.')}: ${entry.signature}`);
        if (entry.members) walk(entry.members, here);
      }
    };
    walk(SCRIPT_API, []);
  });
});

describe('script completions', () => {
  test('a word offers the sandbox globals with signatures; nothing unasked on empty text', () => {
    assert.deepEqual(labels('const x = D'), ['input', 'output', 'ruleVariables', 'log', 'console', 'DR', 'SolverStrategy']);
    assert.equal(labels(''), undefined);
    assert.ok(labels('', 'code', true)?.includes('DR'), 'Ctrl+Space on nothing offers them');
    const log = scriptCompletions('lo', 2, SCOPE, 'code')!.options.find((o) => o.label === 'log')!;
    assert.equal(log.detail, 'log(...values)');
    assert.equal(log.apply, 'log(');
    assert.equal(scriptCompletions('const value = lo', 16, SCOPE, 'code')!.from, 14);
  });

  test('members of DR, DR.http, SolverStrategy and console, with signatures', () => {
    assert.deepEqual(labels('await DR.'), ['solve', 'http']);
    const solve = scriptCompletions('DR.so', 5, SCOPE, 'code')!;
    assert.equal(solve.from, 3);
    assert.equal(solve.options[0]!.detail, 'DR.solve(ruleIdOrAlias, data, version?, strategy?)');
    assert.deepEqual(labels('DR . http.'), ['get', 'delete', 'post', 'put', 'patch']);
    assert.equal(scriptCompletions('DR.http.po', 10, SCOPE, 'code')!.options.find((o) => o.label === 'post')!.detail, 'DR.http.post(url, body, options?)');
    assert.deepEqual(labels('x = SolverStrategy.'), ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL']);
    assert.deepEqual(labels('console.'), ['log', 'info', 'debug', 'warn', 'error']);
  });

  test('input and output offer the fields of their models, nested; ruleVariables the named variables', () => {
    assert.deepEqual(labels('if (input.'), ['customer', 'amount']);
    assert.deepEqual(labels('input?.customer.'), ['age', 'home-country']);
    const dashed = scriptCompletions('input.customer.ho', 17, SCOPE, 'code')!.options.find((o) => o.label === 'home-country')!;
    assert.equal(dashed.apply, '["home-country"]');
    assert.equal(dashed.applyFrom, 'input.customer'.length, 'the bracket replaces the dot');
    assert.equal(scriptCompletions('input.customer?.', 16, SCOPE, 'code')!.options[1]!.applyFrom, 16, 'after ?. the bracket follows it');
    assert.deepEqual(labels('output.'), ['decision']);
    assert.deepEqual(labels('ruleVariables.'), ['threshold']);
    assert.equal(scriptCompletions('ruleVariables.', 14, SCOPE, 'code')!.options[0]!.detail, 'rule variable = 100');
  });

  test('nothing for objects the sandbox does not define, for members of members, or in comments', () => {
    assert.equal(labels('myObject.'), undefined);
    assert.equal(labels('foo.DR.'), undefined);
    assert.equal(labels('DR.solve.'), undefined);
    assert.equal(labels('// DR.', 'comment'), undefined);
    assert.equal(labels('"DR.', 'string'), undefined);
  });

  test("DR.solve's first argument offers the space's rule aliases", () => {
    const text = "const r = await DR.solve('ri";
    const result = scriptCompletions(text, text.length, SCOPE, 'string')!;
    assert.equal(result.from, text.length - 2);
    assert.deepEqual(result.options.map((o) => [o.label, o.detail]), [['risk-table', 'Risk table · decision-table']]);
  });
});

describe('script signature help and member check', () => {
  test('the signature of the API call the cursor is in, through nested brackets and strings', () => {
    const text = "const r = await DR.solve('risk', { amount: input.amount, note: ')' }, ";
    assert.equal(signatureAt(text, text.length)?.signature, 'DR.solve(ruleIdOrAlias, data, version?, strategy?)');
    assert.equal(signatureAt('log(input.a, ', 13)?.signature, 'log(...values)');
    assert.equal(signatureAt('Math.max(1, ', 12), undefined);
    assert.equal(signatureAt('log(1);\nconst a = 1', 19), undefined);
    assert.equal(signatureAt('console.warn(', 13)?.signature, 'console.warn(...values)');
  });

  test('members the sandbox lacks are named with what it has; strings, comments and models are not checked', () => {
    const text = "const r = DR.solv('x', {});\n// DR.nothing\nconst s = 'DR.fake';\nconst t = SolverStrategy.FIRST;\ninput.anything.goes;\nDR.http.get(u);";
    const problems = unknownMembers(text);
    assert.deepEqual(problems.map((p) => text.slice(p.from, p.to)), ['solv', 'FIRST']);
    assert.match(problems[0]!.message, /^DR has no member "solv" in Verdict's sandbox \(it has solve, http\)$/);
    assert.match(problems[1]!.message, /SolverStrategy has no member "FIRST".*FIRST_MATCH/);
  });
});

describe('scripting rule model', () => {
  test('the blank rule is a complex-rule with models and a script that logs and returns output', () => {
    const rule = blankScript('Fresh');
    assert.equal(rule.type, 'complex-rule');
    assert.equal(rule.name, 'Fresh');
    assert.deepEqual(Object.keys(rule.inputSchema), ['amount']);
    assert.match(rule.script, /log\(/);
    assert.match(rule.script, /return output;\n$/);
    assert.deepEqual(unknownMembers(rule.script), []);
  });

  test("the server's script problems keep the line they name; other paths are not the script's", () => {
    assert.deepEqual(scriptProblems([
      { path: 'script', message: 'line 3: Unexpected token )' },
      { path: 'script', message: 'must be the JavaScript source of the rule, as a string' },
      { path: 'inputSchema', message: 'is required' },
    ]), [{ line: 3, message: 'line 3: Unexpected token )' }, { message: 'must be the JavaScript source of the rule, as a string' }]);
  });

  test('console lines of one input, of a bulk run per input, and of nothing', () => {
    assert.deepEqual(consoleLines(['a 1', '[warn] b']), [{ input: null, lines: ['a 1', '[warn] b'] }]);
    assert.deepEqual(consoleLines([['x'], []]), [{ input: 0, lines: ['x'] }, { input: 1, lines: [] }]);
    assert.deepEqual(consoleLines([]), [{ input: null, lines: [] }]);
    assert.deepEqual(consoleLines(undefined), []);
  });

  test('a stopped script is explained: time limit, memory limit; other errors speak for themselves', () => {
    assert.match(explainScriptError('Rule evaluation exceeded the time limit of 2500 ms')!, /stopped after 2500 ms.*RULE_TIMEOUT_MS.*loop that never ends/);
    assert.match(explainScriptError('script: the script exceeded its memory limit (64 MB per script, 512 MB per solve)')!, /more memory.*SCRIPT_MEMORY_MB/);
    assert.equal(explainScriptError('script line 2: TypeError: x is not a function'), undefined);
  });
});
