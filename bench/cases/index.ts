// Every case, in the order the harness runs them.
import type { BenchCase } from '../lib/case.ts';
import { engineAnalysis } from './engine-analysis.ts';
import { engineBulk } from './engine-bulk.ts';
import { engineDmn } from './engine-dmn.ts';
import { engineExpression } from './engine-expression.ts';
import { engineFlow } from './engine-flow.ts';
import { engineJdm } from './engine-jdm.ts';
import { engineRows40k } from './engine-rows40k.ts';
import { engineSmall } from './engine-small.ts';
import { engineTable500 } from './engine-table500.ts';
import { engineZen8k } from './engine-zen8k.ts';
import { httpCase } from './http.ts';
import { jobsCase } from './jobs.ts';
import { kafkaCase } from './kafka.ts';
import { studioCase } from './studio.ts';

export const CASES: readonly BenchCase[] = [
  engineSmall, engineTable500, engineZen8k, engineRows40k, engineExpression, engineFlow, engineJdm, engineDmn, engineBulk, engineAnalysis, httpCase, jobsCase, kafkaCase, studioCase,
];

export function findCase(id: string): BenchCase {
  const found = CASES.find((c) => c.id === id);
  if (!found) throw new Error(`unknown case "${id}"; cases: ${CASES.map((c) => c.id).join(', ')}`);
  return found;
}
