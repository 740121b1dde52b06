import { mkdtempSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { freePort, runToEnd, start, waitForHttp } from './lib/processes.ts';
import { toVerdictTable } from './lib/to-verdict.ts';
import { smallInputs, smallTable } from './cases/tables.ts';
const dir = mkdtempSync('/tmp/prof/http-');
const env = { DATABASE_URL: `sqlite:${dir}/v.db`, LOG_LEVEL: process.env.LL ?? 'warn' };
const cli = (a: string[]) => runToEnd(process.execPath, ['src/cli/main.ts', ...a], env, process.cwd());
writeFileSync(`${dir}/small.json`, JSON.stringify(toVerdictTable(smallTable(), { ruleAlias: 'bench-small' })));
const key = JSON.parse((await cli(['space', 'create', 'bench', '--json'])).trim().split('\n').pop()!).solverKey;
await cli(['import', `${dir}/small.json`, '--space', 'bench', '--json']);
const body = JSON.stringify({ data: smallInputs().find((i: any) => i.customer.tier === 'gold') });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
const r0 = await (async () => { const port = await freePort(); const s = start(process.execPath, ['src/cli/main.ts', 'serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, process.cwd()); await waitForHttp(`http://127.0.0.1:${port}/health-check`, s); const t = await (await fetch(`http://127.0.0.1:${port}/rule/solve/bench-small`, { method: 'POST', headers, body })).text(); await s.stop(); return t; })();
writeFileSync(`${dir}/resp.json`, r0);
for (const [name, args] of [['verdict', ['src/cli/main.ts', 'serve']], ['fastify', ['bench/servers/fastify-bare.ts']]] as const) {
  const port = await freePort();
  const s = start(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}/${name}`, ...args], { ...env, PORT: String(port), HOST: '127.0.0.1', RESPONSE_FILE: `${dir}/resp.json` }, process.cwd());
  await waitForHttp(`http://127.0.0.1:${port}/health-check`, s);
  const url = `http://127.0.0.1:${port}/rule/solve/bench-small`;
  await autocannon({ url, method: 'POST', headers, body, connections: 32, duration: 3 });
  const r = await autocannon({ url, method: 'POST', headers, body, connections: 32, duration: 8 });
  console.log(name, Math.round(r.requests.total / r.duration), 'req/s', 'total', r.requests.total, 'p99', r.latency.p99, 'non2xx', r.non2xx);
  await s.stop();
}
console.log(dir);
