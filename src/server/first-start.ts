// First start on an empty store: create the `default` space with its keys (printed once by `verdict serve`) and,
// unless VERDICT_SEED_EXAMPLES=false, import the example rules so the first curl works.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Services } from '../service/index.ts';
import type { CreatedSpace } from '../service/spaces.ts';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/rules/', import.meta.url));

export interface FirstStart {
  /** Set on the first start on an empty store: the keys to print once. */
  createdDefaultSpace: CreatedSpace | undefined;
  /** Aliases of the seeded example rules. */
  seededExamples: string[];
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
    } catch (err) {
      logger.warn({ err, file }, 'example rule not imported');
    }
  }
  return seeded;
}

export async function bootstrapFirstStart(services: Services, logger: WarnLogger): Promise<FirstStart> {
  const createdDefaultSpace = await services.spaces.createDefaultIfEmpty();
  const seededExamples = createdDefaultSpace && services.config.seedExamples ? await seedExamples(services, createdDefaultSpace.space, logger) : [];
  return { createdDefaultSpace, seededExamples };
}
