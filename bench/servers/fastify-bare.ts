// The HTTP baseline: a bare Fastify route at Verdict's solve path that parses the same request body and answers
// with the same JSON, without auth, rule lookup or solving. Started by the http case as its own process.
// Env: PORT, RESPONSE_FILE (the JSON body to answer with).
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const port = Number(process.env.PORT);
const responseFile = process.env.RESPONSE_FILE;
if (!port || !responseFile) {
  console.error('fastify-bare: PORT and RESPONSE_FILE are required');
  process.exit(2);
}
const body = JSON.parse(readFileSync(responseFile, 'utf8')) as unknown;

const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
app.post('/rule/solve/:rule', async () => body);
app.get('/health-check', async () => ({ status: 'ok' }));

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
