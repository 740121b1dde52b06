// First start on an empty store: create the `default` space with its keys and the user `admin` (admin of it, with a
// generated password), all printed once by `verdict serve`, and, unless VERDICT_SEED_EXAMPLES=false, import the
// example rules so the first curl works.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Services } from '../service/index.ts';
import type { CreatedSpace } from '../service/spaces.ts';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/rules/', import.meta.url));
/** `examples/tests/NAME.tests.json` holds the suites of `examples/rules/NAME.json` (the `verdict test` file format). */
export const EXAMPLE_TESTS_DIR = fileURLToPath(new URL('../../examples/tests/', import.meta.url));

export interface FirstStart {
  /** Set on the first start on an empty store: the keys to print once. */
  createdDefaultSpace: CreatedSpace | undefined;
  /** Aliases of the seeded example rules. */
  seededExamples: string[];
  /** Set on the first start: the admin user of the default space and its password, to print once. */
  adminUser: { username: string; password: string } | undefined;
}

interface WarnLogger {
  warn(obj: object, msg: string): void;
}

async function seedExamples(services: Services, space: string, logger: WarnLogger): Promise<string[]> {
  let files: string[];
  try {
    files = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const seeded: string[] = [];
  for (const file of files) {
    try {
      const { imported } = await services.rulesIO.importContainer(space, JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')));
      seeded.push(...imported.map((r) => r.ruleAlias));
      // The example teaches the loop: its tests are stored with it, so the Studio's Tests tab and
      // `verdict test --space default` show them passing on a fresh start.
      const rule = imported[0];
      if (imported.length === 1 && rule !== undefined) await seedExampleTests(services, space, rule.ruleAlias, file, logger);
    } catch (err) {
      logger.warn({ err, file }, 'example rule not imported');
    }
  }
  return seeded;
}

async function seedExampleTests(services: Services, space: string, rule: string, ruleFile: string, logger: WarnLogger): Promise<void> {
  const testsFile = join(EXAMPLE_TESTS_DIR, ruleFile.replace(/\.json$/, '.tests.json'));
  if (!existsSync(testsFile)) return;
  try {
    const { suites } = JSON.parse(readFileSync(testsFile, 'utf8')) as { suites?: unknown[] };
    for (const suite of suites ?? []) await services.ruleTests.createSuite(space, rule, suite);
  } catch (err) {
    logger.warn({ err, file: testsFile }, 'example tests not stored');
  }
}

export async function bootstrapFirstStart(services: Services, logger: WarnLogger): Promise<FirstStart> {
  const createdDefaultSpace = await services.spaces.createDefaultIfEmpty();
  const seededExamples = createdDefaultSpace && services.config.seedExamples ? await seedExamples(services, createdDefaultSpace.space, logger) : [];
  const adminUser = createdDefaultSpace ? await services.users.createFirstAdmin(createdDefaultSpace.space) : undefined;
  return { createdDefaultSpace, seededExamples, adminUser };
}
