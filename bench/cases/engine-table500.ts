// (b) A 500-row x 10-column table, the shape DecisionRules uses in its own load tests.
import type { BenchCase } from '../lib/case.ts';
import { ratio } from '../lib/case.ts';
import { jreTableContender, race, tryBuild, verdictTableContender, zenTableContender } from '../lib/contenders.ts';
import { loanInputs, loanTable } from './tables.ts';

export const engineTable500: BenchCase = {
  id: 'engine-table500',
  title: '(b) 500-row x 10-column table',
  key: 'engine.table500',
  async run(ctx, result) {
    const spec = loanTable(500);
    const inputs = loanInputs(64);
    const outcome = await race(ctx, result, 'table500', [
      tryBuild(result, 'Verdict', () => verdictTableContender(spec)),
      tryBuild(result, 'zen', () => zenTableContender(spec)),
      tryBuild(result, 'json-rules-engine', () => jreTableContender(spec)),
    ], inputs);
    const { verdict, zen, 'json-rules-engine': jre } = outcome.best;
    result.summary = { verdict: verdict ?? null, zen: zen ?? null, ratio: ratio(verdict, zen), jre: jre ?? null, ratioJre: ratio(verdict, jre), rows: spec.rows.length, inputs: inputs.length };
  },
};
