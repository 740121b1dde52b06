// (e) An expression-heavy table: function conditions and computed results (arithmetic, rounding, text) in every row.
import type { BenchCase } from '../lib/case.ts';
import { ratio } from '../lib/case.ts';
import { race, tryBuild, verdictTableContender, zenTableContender } from '../lib/contenders.ts';
import { expressionInputs, expressionTable } from './tables.ts';

export const engineExpression: BenchCase = {
  id: 'engine-expression',
  title: '(e) expression-heavy table',
  key: 'engine.expression',
  async run(ctx, result) {
    const spec = expressionTable();
    const inputs = expressionInputs();
    result.notes.push('json-rules-engine cannot state computed conditions or results; not measured');
    const outcome = await race(ctx, result, 'expression', [
      tryBuild(result, 'Verdict', () => verdictTableContender(spec)),
      tryBuild(result, 'zen', () => zenTableContender(spec)),
    ], inputs);
    const { verdict, zen } = outcome.best;
    result.summary = { verdict: verdict ?? null, zen: zen ?? null, ratio: ratio(verdict, zen), rows: spec.rows.length, inputs: inputs.length };
  },
};
