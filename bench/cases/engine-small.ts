// (a) A 10-row x 4-condition table: per-solve overhead dominates, the case the 2-million-solves/s target is about.
import type { BenchCase } from '../lib/case.ts';
import { ratio } from '../lib/case.ts';
import { jreTableContender, race, tryBuild, verdictTableContender, zenTableContender } from '../lib/contenders.ts';
import { smallInputs, smallTable } from './tables.ts';

export const engineSmall: BenchCase = {
  id: 'engine-small',
  title: '(a) 10-row x 4-condition table',
  key: 'engine.small',
  async run(ctx, result) {
    const spec = smallTable();
    const inputs = smallInputs();
    const outcome = await race(ctx, result, 'small', [
      tryBuild(result, 'Verdict', () => verdictTableContender(spec)),
      tryBuild(result, 'zen', () => zenTableContender(spec)),
      tryBuild(result, 'json-rules-engine', () => jreTableContender(spec)),
    ], inputs);
    const { verdict, zen, 'json-rules-engine': jre } = outcome.best;
    result.summary = { verdict: verdict ?? null, zen: zen ?? null, ratio: ratio(verdict, zen), jre: jre ?? null, ratioJre: ratio(verdict, jre), rows: spec.rows.length, inputs: inputs.length };
  },
};
