// (c) GoRules zen's own 8k-row test decision (../shared/bench-data/zen-8k.json, MIT), converted to Verdict's format
// here at run time. Its 7,989 identical 'GB' rows end in a catch-all row, so: "early" inputs match row 1, "late"
// inputs fall through to the catch-all (row 7,990), "never" inputs run against the same table without it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchCase, BenchContext, CaseResult } from '../lib/case.ts';
import { ratio } from '../lib/case.ts';
import type { Contender } from '../lib/contenders.ts';
import { jreTableContender, race, tryBuild, verdictTableContender, zen, zenContender } from '../lib/contenders.ts';
import { fromJdmTable } from '../lib/from-jdm.ts';
import type { TableSpec } from '../lib/table-spec.ts';
import { intBetween, pick, seededRandom } from '../lib/table-spec.ts';

export function zen8kPath(ctx: Pick<BenchContext, 'sharedDir'>): string {
  return path.join(ctx.sharedDir, 'bench-data', 'zen-8k.json');
}

type Jdm = { nodes: { type: string; content?: { rules: unknown[] } }[] };

/** The same decision with its rule list cut to `keep` rows (optionally plus the final catch-all row). */
export function truncateJdm(jdm: Jdm, keep: number, withCatchAll: boolean): Jdm {
  const copy = structuredClone(jdm);
  const table = copy.nodes.find((n) => n.type === 'decisionTableNode');
  if (!table?.content) throw new Error('no decision table node');
  const rules = table.content.rules;
  const last = rules[rules.length - 1];
  table.content.rules = rules.slice(0, Math.min(keep, rules.length - 1));
  if (withCatchAll) table.content.rules.push(last);
  return copy;
}

export function rowCount(jdm: Jdm): number {
  return jdm.nodes.find((n) => n.type === 'decisionTableNode')?.content?.rules.length ?? 0;
}

/** Inputs that match the first row: GB, spend < 100, a gmail address, GBP, price < 100. */
export function earlyInputs(count = 16): Record<string, unknown>[] {
  const random = seededRandom(8001);
  return Array.from({ length: count }, (_, i) => ({
    customer: { country: 'GB', totalSpend: intBetween(random, 0, 99), email: `user${i}@gmail.com` },
    product: { category: pick(random, ['books', 'toys', 'garden']), currency: 'GBP', price: intBetween(random, 1, 99) },
  }));
}

/**
 * Inputs that fail every 'GB' row, in three ways that stress a table differently: another country (the first
 * column rejects), a non-gmail address (the function cell of the third column rejects), a spend of 100 or more.
 */
export function lateInputs(count = 18): Record<string, unknown>[] {
  const random = seededRandom(8002);
  return Array.from({ length: count }, (_, i) => {
    const kind = i % 3;
    return {
      customer: {
        country: kind === 0 ? pick(random, ['US', 'DE', 'FR', 'IE']) : 'GB',
        totalSpend: kind === 2 ? intBetween(random, 100, 5000) : intBetween(random, 0, 99),
        email: kind === 1 ? `user${i}@example.com` : `user${i}@gmail.com`,
      },
      product: { category: pick(random, ['books', 'toys', 'garden']), currency: pick(random, ['GBP', 'USD', 'EUR']), price: intBetween(random, 1, 99) },
    };
  });
}

function geomean(values: (number | null)[]): number | null {
  let logSum = 0;
  for (const v of values) {
    if (!v) return null;
    logSum += Math.log(v);
  }
  return Math.exp(logSum / values.length);
}

async function scenario(ctx: BenchContext, result: CaseResult, name: string, spec: TableSpec, jdm: Jdm, inputs: Record<string, unknown>[]) {
  const slowPeer = ctx.quick && name !== 'early';
  if (slowPeer) result.notes.push(`${name}: json-rules-engine not run in --quick (about a second per solve)`);
  const contenders: (Contender | undefined)[] = [
    tryBuild(result, `Verdict (${name})`, () => verdictTableContender(spec)),
    tryBuild(result, `zen (${name})`, () => zenContender(zen().createDecision(jdm), 'first')),
    // json-rules-engine needs about a second per solve that scans the table: its answers are compared on the
    // first 3 inputs only, and it is timed in full runs only.
    slowPeer ? undefined : tryBuild(result, `json-rules-engine (${name})`, () => jreTableContender(spec)),
  ];
  const jreContender = contenders[2];
  if (jreContender && name !== 'early') jreContender.checkLimit = 3;
  const outcome = await race(ctx, result, name, contenders, inputs);
  const { verdict, zen: z, 'json-rules-engine': jre } = outcome.best;
  return { verdict: verdict ?? null, zen: z ?? null, ratio: ratio(verdict, z), jre: jre ?? null, ratioJre: ratio(verdict, jre), rows: spec.rows.length };
}

export const engineZen8k: BenchCase = {
  id: 'engine-zen8k',
  title: "(c) zen's 8k-row table (first hit)",
  key: 'engine.zen8k',
  async run(ctx, result) {
    const file = zen8kPath(ctx);
    if (!existsSync(file)) {
      result.status = 'skipped';
      result.notes.push(`${file} not found: zen's 8k table is not part of this repository; case skipped`);
      console.warn(`NOTICE: ${file} not found, skipping the zen 8k case`);
      return;
    }
    const jdm = JSON.parse(readFileSync(file, 'utf8')) as Jdm;
    const full = fromJdmTable(jdm, 'zen 8k');
    const withoutCatchAll: TableSpec = { ...full, rows: full.rows.slice(0, -1) };
    const early = await scenario(ctx, result, 'early', full, jdm, earlyInputs());
    const late = await scenario(ctx, result, 'late', full, jdm, lateInputs());
    const never = await scenario(ctx, result, 'never', withoutCatchAll, truncateJdm(jdm, full.rows.length, false), lateInputs());

    // Which way of failing the 'GB' rows costs what (Verdict only: a diagnostic for the late figure).
    const lateKinds: Record<string, number | null> = {};
    for (const [kind, label] of [[0, 'country'], [1, 'email'], [2, 'spend']] as const) {
      const kindInputs = lateInputs().filter((_, i) => i % 3 === kind);
      const outcome = await race(ctx, result, `late, rejected by ${label}`, [tryBuild(result, 'Verdict (late kinds)', () => verdictTableContender(full))], kindInputs);
      lateKinds[label] = outcome.best.verdict ?? null;
    }

    // Cost per solve on an indexed column should not grow with the table: time the country-rejected late inputs
    // (column 1 is an equality, which a hash index answers) on the table cut to 100, 1,000 and all rows.
    const countryLate = lateInputs().filter((_, i) => i % 3 === 0);
    const scaling: Record<string, number | null> = {};
    for (const keep of [100, 1000, full.rows.length - 1]) {
      const spec: TableSpec = { ...full, rows: [...full.rows.slice(0, keep), full.rows[full.rows.length - 1]] };
      const outcome = await race(ctx, result, `scaling ${spec.rows.length} rows`, [tryBuild(result, 'Verdict (scaling)', () => verdictTableContender(spec))], countryLate);
      scaling[`rows${spec.rows.length}`] = outcome.best.verdict ?? null;
    }
    const scalingValues = Object.values(scaling);
    const first = scalingValues[0];
    const last = scalingValues[scalingValues.length - 1];

    const verdict = geomean([early.verdict, late.verdict, never.verdict]);
    const zenBest = geomean([early.zen, late.zen, never.zen]);
    result.notes.push('engine.zen8k.{verdict,zen,ratio} are geometric means over the early, late and never scenarios');
    result.summary = {
      verdict, zen: zenBest, ratio: ratio(verdict, zenBest),
      early, late: { ...late, verdictByRejection: lateKinds }, never,
      scaling: { ...scaling, largestOverSmallest: first && last ? Math.round((last / first) * 100) / 100 : null },
      rows: rowCount(jdm),
    };
  },
};
