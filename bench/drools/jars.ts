// Drools DMN's jars (org.kie:kie-dmn-core and what it needs) from Maven Central through bench/drools/pom.xml, into
// a cache outside the checkout ($VERDICT_DROOLS_CACHE, default ~/.cache/verdict-drools/<version>/lib) reused by
// every later run. A fresh machine resolves them in about 35 s (26 MB of jars); .ci/run starts this early, in the
// background, so that the quick bench finds them ready.
//   node bench/drools/jars.ts fetch
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWhenMain } from '../../scripts/dev-process.ts';
import { hasTool } from '../../scripts/kafka/broker.ts';

const here = dirname(fileURLToPath(import.meta.url));

export const DROOLS_VERSION = process.env.DROOLS_VERSION ?? '10.2.0';

function cacheDir(): string {
  const base = process.env.VERDICT_DROOLS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'verdict-drools');
  return join(base, DROOLS_VERSION);
}

/** The folder of Drools DMN's jars, resolved once per version; `log` hears of a resolve. */
export function ensureDroolsJars(log: (line: string) => void = () => {}): string {
  const lib = join(cacheDir(), 'lib');
  const marker = join(cacheDir(), '.complete');
  if (existsSync(marker)) return lib;
  if (!hasTool('mvn', '-v')) throw new Error('Maven (mvn) is not on PATH: it is needed once to fetch the Drools DMN jars (scripts/ci-prereqs.sh installs it)');
  log(`resolving org.kie:kie-dmn-core:${DROOLS_VERSION} from Maven Central into ${lib}`);
  const started = Date.now();
  rmSync(lib, { recursive: true, force: true });
  const args = ['-q', '-B', '-f', join(here, 'pom.xml'), `-Ddrools.version=${DROOLS_VERSION}`, `-Ddrools.lib=${lib}`, 'dependency:copy-dependencies'];
  const result = spawnSync('mvn', args, { encoding: 'utf8' });
  if (result.error) throw new Error(`resolving the Drools DMN jars: cannot run mvn: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`resolving the Drools DMN jars failed (mvn exit ${result.status}):\n${(result.stdout + result.stderr).trim().slice(-4000)}`);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  log(`jars resolved in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return lib;
}

function log(line: string): void {
  process.stderr.write(`drools: ${line}\n`);
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] !== 'fetch') {
    process.stderr.write('usage: node bench/drools/jars.ts fetch\n');
    return 2;
  }
  log(`jars in ${ensureDroolsJars(log)}`);
  return 0;
}

runWhenMain(import.meta.url, main, log);
