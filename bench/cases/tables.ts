// The generated benchmark tables and their inputs, written once in the neutral form (lib/table-spec.ts).
// Everything is seeded, so every run and every engine sees exactly the same rules and inputs.
import type { Condition, Expr, TableRow, TableSpec } from '../lib/table-spec.ts';
import { any, assertTableSpec, call, intBetween, lit, pick, ref, seededRandom } from '../lib/table-spec.ts';

// ---------------------------------------------------------------------------------------------------------------
// (a) 10 rows x 4 condition columns: the typical discount table.

const TIERS = ['gold', 'silver', 'bronze'] as const;
const BANDS: [number, number][] = [[0, 99], [100, 499], [500, 1_000_000]];

export function smallTable(): TableSpec {
  const rows: TableRow[] = [];
  TIERS.forEach((tier, t) => {
    BANDS.forEach(([lo, hi], b) => {
      rows.push({
        when: [
          { op: 'eq', value: tier },
          { op: 'between', lo, hi },
          b === 2 ? any() : { op: 'in', values: t === 0 ? ['GB', 'IE', 'DE'] : ['GB', 'IE'] },
          { op: 'ge', value: b + 1 },
        ],
        then: [lit(5 * (3 - t) + 2 * b), lit(`${tier}-band-${b}`)],
      });
    });
  });
  rows.push({ when: [{ op: 'eq', value: 'staff' }, any(), any(), any()], then: [lit(30), lit('staff')] });
  const spec: TableSpec = {
    name: 'Bench small discount',
    hitPolicy: 'collect',
    inputs: [{ field: 'customer.tier' }, { field: 'order.total' }, { field: 'order.country' }, { field: 'order.items' }],
    outputs: [{ field: 'discount' }, { field: 'label' }],
    rows,
  };
  assertTableSpec(spec);
  return spec;
}

export function smallInputs(count = 32): Record<string, unknown>[] {
  const random = seededRandom(11);
  return Array.from({ length: count }, () => ({
    customer: { tier: pick(random, ['gold', 'silver', 'bronze', 'staff', 'guest']) },
    order: {
      total: intBetween(random, 0, 1200),
      country: pick(random, ['GB', 'IE', 'DE', 'US', 'FR']),
      items: intBetween(random, 0, 6),
    },
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// (b) 500 rows x 10 columns (8 conditions, 2 results): the shape DecisionRules uses in its own load tests.
// (d) reuses the generator at 40,000 rows.

const REGIONS = ['north', 'south', 'east', 'west', 'central', 'islands', 'coast', 'highlands', 'metro', 'rural', 'border', 'valley'];
const SEGMENTS = ['retail', 'premier', 'private', 'business', 'corporate', 'student'];
const PURPOSES = ['car', 'home', 'travel', 'education', 'medical', 'wedding', 'business', 'other'];
const CHANNELS = ['web', 'branch', 'mobile', 'partner'];
const TERMS = [12, 24, 36, 48, 60];

function subset<T>(random: () => number, items: readonly T[], min: number, max: number): T[] {
  const size = intBetween(random, min, max);
  const pool = [...items];
  const out: T[] = [];
  while (out.length < size) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return out;
}

function loanRow(random: () => number): TableRow {
  const age = intBetween(random, 18, 70);
  const amount = intBetween(random, 1, 90) * 1000;
  const when: Condition[] = [
    { op: 'between', lo: age, hi: age + intBetween(random, 5, 30) },
    random() < 0.35 ? any() : { op: 'eq', value: pick(random, REGIONS) },
    random() < 0.3 ? any() : { op: 'in', values: subset(random, SEGMENTS, 2, 4) },
    { op: 'ge', value: intBetween(random, 300, 800) },
    { op: 'between', lo: amount, hi: amount + intBetween(random, 5, 60) * 1000 },
    random() < 0.4 ? any() : { op: 'in', values: subset(random, TERMS, 2, 4) },
    random() < 0.5 ? any() : { op: 'eq', value: pick(random, PURPOSES) },
    random() < 0.6 ? any() : { op: 'eq', value: pick(random, CHANNELS) },
  ];
  return { when, then: [lit(intBetween(random, 20, 150) / 10), lit(pick(random, ['approve', 'refer', 'decline']))] };
}

export function loanTable(rowCount: number, seed = 500): TableSpec {
  const random = seededRandom(seed);
  const spec: TableSpec = {
    name: `Bench loan pricing ${rowCount}`,
    hitPolicy: 'collect',
    inputs: [
      { field: 'applicant.age' }, { field: 'applicant.region' }, { field: 'applicant.segment' }, { field: 'applicant.score' },
      { field: 'loan.amount' }, { field: 'loan.term' }, { field: 'loan.purpose' }, { field: 'channel' },
    ],
    outputs: [{ field: 'pricing.rate' }, { field: 'pricing.decision' }],
    rows: Array.from({ length: rowCount }, () => loanRow(random)),
  };
  assertTableSpec(spec);
  return spec;
}

export function loanInputs(count: number, seed = 501): Record<string, unknown>[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => ({
    applicant: {
      age: intBetween(random, 18, 90),
      region: pick(random, REGIONS),
      segment: pick(random, SEGMENTS),
      score: intBetween(random, 300, 850),
    },
    loan: { amount: intBetween(random, 1, 150) * 1000, term: pick(random, TERMS), purpose: pick(random, PURPOSES) },
    channel: pick(random, CHANNELS),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// (d) 40,000 rows (DecisionRules' row limit): a price list keyed by SKU, the shape such a table has in practice.

export function priceListTable(rowCount: number, seed = 40): TableSpec {
  const random = seededRandom(seed);
  const skus = Math.max(1, Math.floor(rowCount / 4));
  const rows: TableRow[] = Array.from({ length: rowCount }, (_, i) => {
    const from = intBetween(random, 1, 50);
    return {
      when: [
        { op: 'eq', value: `SKU-${String(i % skus).padStart(6, '0')}` },
        random() < 0.5 ? any() : { op: 'in', values: subset(random, REGIONS, 1, 3) },
        { op: 'between', lo: from, hi: from + intBetween(random, 0, 100) },
        random() < 0.7 ? any() : { op: 'eq', value: pick(random, CHANNELS) },
      ],
      then: [lit(intBetween(random, 100, 99_999) / 100), lit(pick(random, ['list', 'promo', 'clearance', 'contract']))],
    };
  });
  const spec: TableSpec = {
    name: `Bench price list ${rowCount}`,
    hitPolicy: 'collect',
    inputs: [{ field: 'item.sku' }, { field: 'item.region' }, { field: 'order.quantity' }, { field: 'channel' }],
    outputs: [{ field: 'price' }, { field: 'priceType' }],
    rows,
  };
  assertTableSpec(spec);
  return spec;
}

export function priceListInputs(rowCount: number, count: number, seed = 41): Record<string, unknown>[] {
  const random = seededRandom(seed);
  const skus = Math.max(1, Math.floor(rowCount / 4));
  return Array.from({ length: count }, (_, i) => ({
    // Every eighth input asks for a SKU that is not in the list.
    item: { sku: `SKU-${String(i % 8 === 7 ? skus + i : intBetween(random, 0, skus - 1)).padStart(6, '0')}`, region: pick(random, REGIONS) },
    order: { quantity: intBetween(random, 1, 150) },
    channel: pick(random, CHANNELS),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// (e) An expression-heavy table: function conditions and computed results in every row.

export function expressionTable(): TableSpec {
  const random = seededRandom(77);
  const gross = call('mul', ref('order.unitPrice'), ref('order.quantity'));
  const rows: TableRow[] = [];
  for (let i = 0; i < 24; i++) {
    const threshold = intBetween(random, 1, 40) * 50;
    const pct = intBetween(random, 0, 30);
    const when: Condition[] = [
      { op: 'expr', expr: call('ge', gross, lit(threshold)) },
      { op: 'expr', expr: call('or', call('eq', ref('customer.tier'), lit(pick(random, ['gold', 'silver', 'bronze']))), call('gt', ref('customer.years'), lit(intBetween(random, 2, 12)))) },
      i % 3 === 0 ? { op: 'endsWith', value: pick(random, ['.com', '.org', '.co.uk']) } : any(),
    ];
    const net: Expr = call('round2', call('mul', gross, call('sub', lit(1), call('div', lit(pct), lit(100)))));
    const then: Expr[] = [
      net,
      call('max', call('sub', lit(intBetween(random, 5, 25)), call('floor', call('div', gross, lit(200)))), lit(0)),
      call('upper', call('concat', ref('customer.tier'), lit('-'), ref('order.country'))),
      call('if', call('gt', gross, lit(threshold * 2)), lit('priority'), lit('standard')),
    ];
    rows.push({ when, then });
  }
  const spec: TableSpec = {
    name: 'Bench expression-heavy pricing',
    hitPolicy: 'collect',
    inputs: [{ field: 'order.unitPrice' }, { field: 'customer.tier' }, { field: 'customer.email' }],
    outputs: [{ field: 'quote.net' }, { field: 'quote.shipping' }, { field: 'quote.code' }, { field: 'quote.lane' }],
    rows,
  };
  assertTableSpec(spec);
  return spec;
}

export function expressionInputs(count = 32): Record<string, unknown>[] {
  const random = seededRandom(78);
  return Array.from({ length: count }, (_, i) => ({
    // Whole-unit prices with whole percentages give nets with at most two decimals, so ROUND(x, 2) never meets a
    // .xx5 tie, where ZEN's decimal arithmetic and JavaScript doubles legitimately round differently.
    order: { unitPrice: intBetween(random, 1, 400), quantity: intBetween(random, 1, 12), country: pick(random, ['GB', 'US', 'DE']) },
    customer: {
      tier: pick(random, ['gold', 'silver', 'bronze']),
      years: intBetween(random, 0, 15),
      email: `buyer${i}@example${pick(random, ['.com', '.org', '.co.uk', '.net'])}`,
    },
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// (f) Three tables chained by a flow: segment -> discount -> shipping. Each ends in a catch-all row, so every
// table answers for every input and the flows' "no match" conventions (which differ by product) never matter.

export function flowTables(): { segment: TableSpec; discount: TableSpec; shipping: TableSpec } {
  const segment: TableSpec = {
    name: 'Bench flow segment',
    hitPolicy: 'first',
    inputs: [{ field: 'customer.age' }, { field: 'customer.country' }],
    outputs: [{ field: 'segment' }],
    rows: [
      { when: [{ op: 'between', lo: 18, hi: 25 }, { op: 'in', values: ['GB', 'IE'] }], then: [lit('young-uk')] },
      { when: [{ op: 'between', lo: 18, hi: 25 }, any()], then: [lit('young')] },
      { when: [{ op: 'between', lo: 26, hi: 60 }, { op: 'in', values: ['GB', 'IE', 'DE', 'FR'] }], then: [lit('core-eu')] },
      { when: [{ op: 'between', lo: 26, hi: 60 }, any()], then: [lit('core')] },
      { when: [{ op: 'gt', value: 60 }, any()], then: [lit('senior')] },
      { when: [any(), any()], then: [lit('unknown')] },
    ],
  };
  const discount: TableSpec = {
    name: 'Bench flow discount',
    hitPolicy: 'first',
    inputs: [{ field: 'segment' }, { field: 'order.total' }],
    outputs: [{ field: 'discount' }],
    rows: [
      { when: [{ op: 'in', values: ['young-uk', 'young'] }, { op: 'ge', value: 100 }], then: [lit(10)] },
      { when: [{ op: 'eq', value: 'core-eu' }, { op: 'ge', value: 500 }], then: [lit(7)] },
      { when: [{ op: 'eq', value: 'senior' }, any()], then: [lit(12)] },
      { when: [any(), { op: 'ge', value: 1000 }], then: [lit(5)] },
      { when: [any(), any()], then: [lit(0)] },
    ],
  };
  const shipping: TableSpec = {
    name: 'Bench flow shipping',
    hitPolicy: 'first',
    inputs: [{ field: 'customer.country' }, { field: 'order.total' }, { field: 'discount' }],
    outputs: [{ field: 'shipping.cost' }, { field: 'shipping.carrier' }],
    rows: [
      { when: [{ op: 'in', values: ['GB', 'IE'] }, { op: 'ge', value: 50 }, any()], then: [lit(0), lit('royal-mail')] },
      { when: [{ op: 'in', values: ['GB', 'IE'] }, any(), any()], then: [lit(4.5), lit('royal-mail')] },
      { when: [{ op: 'in', values: ['DE', 'FR'] }, any(), { op: 'ge', value: 7 }], then: [lit(3), lit('dhl')] },
      { when: [{ op: 'in', values: ['DE', 'FR'] }, any(), any()], then: [lit(8), lit('dhl')] },
      { when: [any(), any(), any()], then: [lit(25), lit('fedex')] },
    ],
  };
  for (const t of [segment, discount, shipping]) assertTableSpec(t);
  return { segment, discount, shipping };
}

export function flowInputs(count = 32): Record<string, unknown>[] {
  const random = seededRandom(90);
  return Array.from({ length: count }, () => ({
    customer: { age: intBetween(random, 16, 80), country: pick(random, ['GB', 'IE', 'DE', 'FR', 'US', 'JP']) },
    order: { total: intBetween(random, 5, 1500) },
  }));
}
