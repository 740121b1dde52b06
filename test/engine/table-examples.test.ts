// The worked examples of spec/rule-format.md §2.13 (E1–E5) and §3.6, on the project's own fixtures modelled on
// the DecisionRules exports, solved through the public engine entry with the real expression language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileRule, solveSync } from '../../src/index.ts';
import type { CompiledRule, SolveOptions } from '../../src/engine/types.ts';
import { FIXED_NOW } from './table-helpers.ts';

function load(name: string): CompiledRule {
  return compileRule(JSON.parse(readFileSync(new URL(`../fixtures/tables/${name}`, import.meta.url), 'utf8')));
}

function solve(rule: CompiledRule, input: unknown, options: SolveOptions = {}): string {
  return JSON.stringify(solveSync(rule, input, { now: FIXED_NOW, ...options }).result);
}

test('E1: legacy ASTs, rule variables in cells and sets, an output reused to its right, schema key order', () => {
  const pricing = load('subscription-pricing.json');
  assert.equal(
    solve(pricing, { productType: 'basic', period: 'month', promoCode: 'SUMMER SALE' }),
    '[{"prices":{"finalPrice":5.6,"crudePrice":8},"message":"30% discount"}]',
  );
  assert.equal(
    solve(pricing, { productType: 'basic', period: 'month', promoCode: 'X' }),
    '[{"prices":{"finalPrice":8,"crudePrice":8},"message":"no matching promo code"}]',
  );
  assert.equal(
    solve(pricing, { productType: 'medium', period: 'year', promoCode: 'BUSINESS SALE' }),
    '[{"prices":{"finalPrice":100.8,"crudePrice":144},"message":"30% discount"}]',
  );
  assert.equal(solve(pricing, { productType: 'premium', period: 'month', promoCode: 'X' }), '[]');
});

test('E2 and §3.6: bare-text function cells, the ELSE row, EVALUATE_ALL and ARRAY', () => {
  const segment = load('market-segment.json');
  assert.equal(solve(segment, { segmentCode: 'LA' }), '[{"segmentName":"Latin America"}]');
  assert.equal(solve(segment, { segmentCode: 'XX' }), '[{"segmentName":"Other"}]');
  assert.equal(solve(segment, {}), '[{"segmentName":"Other"}]');
  assert.equal(
    solve(segment, { segmentCode: 'LA' }, { strategy: 'EVALUATE_ALL' }),
    '[{"segmentName":"Western Europe","_match":false},{"segmentName":"Latin America","_match":true},' +
      '{"segmentName":"Asia Pacific","_match":false},{"segmentName":"Other","_match":false}]',
  );
  assert.equal(
    solve(segment, { segmentCode: 'XX' }, { strategy: 'EVALUATE_ALL' }),
    '[{"segmentName":"Western Europe","_match":false},{"segmentName":"Latin America","_match":false},' +
      '{"segmentName":"Asia Pacific","_match":false},{"segmentName":"Other","_match":true}]',
  );
  assert.equal(solve(segment, { segmentCode: 'LA' }, { strategy: 'ARRAY' }), '[{"segmentName":["Latin America"]}]');
  assert.equal(solve(segment, { segmentCode: 'LA' }, { excludedConditionCols: ['col-green-otter'] }), '[{"segmentName":"Western Europe"},{"segmentName":"Latin America"},{"segmentName":"Asia Pacific"},{"segmentName":"Other"}]');
});

test('E3: a calc column feeding an expression and an interpolated message; betweenLeftOpen; ELSE', () => {
  const loyalty = load('loyalty-discount.json');
  assert.equal(solve(loyalty, { basicPrice: 100, customer: { loyaltyClass: 'REGULAR', credit: 10 } }), '[{"finalPrice":85,"message":"You get 15% discount!"}]');
  assert.equal(solve(loyalty, { basicPrice: 18.5, customer: { loyaltyClass: 'LOYALTY1', credit: 32 } }), '[{"finalPrice":13.875,"message":"You get 25% discount!"}]');
  assert.equal(solve(loyalty, { basicPrice: 500, customer: { loyaltyClass: 'REGULAR', credit: 0 } }), '[{"finalPrice":500,"message":"Thank you for your order!"}]');
  assert.equal(solve(loyalty, { basicPrice: 100, customer: { loyaltyClass: 'REGULAR', credit: 0 } }), '[{"finalPrice":90,"message":"Thank you for your order!"}]');
});

test('E4: function conditions and calc columns evaluated per row', () => {
  const functions = load('function-conditions.json');
  assert.equal(
    solve(functions, {}),
    '[{"output":"1 equals \'1\', and absolute value of -2 is 2"},{"output":"2 is less than 6, and average of 10, 16, 80 and 5 is 27.75"}]',
  );
  const trace = solveSync(functions, {}, { now: FIXED_NOW, trace: true }).trace as { rowNumber: number; conditions: { operator: string; value: unknown; evaluationResult: boolean }[] }[];
  assert.deepEqual(
    trace.map((row) => [row.rowNumber, row.conditions[0]!.operator, row.conditions[0]!.value, row.conditions[0]!.evaluationResult]),
    [
      [1, 'function', 'EQ(1, "1")', true],
      [2, 'function', 'LT(2, 6)', true],
      [3, 'function', 'GT(1, 6)', false],
    ],
  );
});

test('E5: IN over branches, function cells cast to boolean and number, an ELSE row of empty expressions', () => {
  const catalogue = load('product-catalogue.json');
  assert.equal(solve(catalogue, { productId: 'P_0009', branch: 'SHOP_B' }), '[{"product":{"name":"Notebook Special Edition","available":false,"basicPrice":6}}]');
  assert.equal(solve(catalogue, { productId: 'P_0011', branch: 'SHOP_A' }), '[{"product":{"name":"Notebook Blue A4","available":true,"basicPrice":4.2}}]');
  assert.equal(solve(catalogue, { productId: 'P_9999', branch: 'SHOP_B' }), '[{"product":{"name":"N/A","available":"","basicPrice":""}}]');
  assert.equal(solve(catalogue, { productId: 'P_0011', branch: 'SHOP_C' }), '[{"product":{"name":"N/A","available":"","basicPrice":""}}]');
});
