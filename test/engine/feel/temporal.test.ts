// FEEL temporal values: literals, zones, arithmetic, comparison, properties and the clock of now() and today().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileFeel, feelText } from '../../../src/engine/feel/index.ts';
import { show } from './helpers.ts';

test('literals and constructors read ISO 8601 text, with offsets and IANA zones', () => {
  assert.equal(show('@"2020-01-01"'), '2020-01-01');
  assert.equal(show('@"2020-01-01T10:00:00@Europe/Paris"'), '2020-01-01T10:00:00@Europe/Paris');
  assert.equal(show('time("10:30:00.5+02:00")'), '10:30:00.5+02:00');
  assert.equal(show('date(2020, 2, 29)'), '2020-02-29');
  assert.equal(show('date(2021, 2, 29)'), 'null');
  assert.equal(show('date("2020-13-01")'), 'null');
  assert.equal(show('date and time(date("2020-01-01"), time("23:00:00Z"))'), '2020-01-01T23:00:00Z');
  assert.equal(show('date and time("2021-01-01T24:00:00")'), '2021-01-02T00:00:00', '24:00 ends the day');
  assert.equal(show('date("999999999-12-31")'), '999999999-12-31');
  assert.equal(show('time(13, 20, 0, duration("PT1H"))'), '13:20:00+01:00');
});

test('durations normalise and print as FEEL prints them', () => {
  assert.equal(show('duration("P2DT25H")'), 'P3DT1H');
  assert.equal(show('duration("P14M")'), 'P1Y2M');
  assert.equal(show('duration("PT0S")'), 'PT0S');
  assert.equal(show('duration("-PT90M")'), '-PT1H30M');
  assert.equal(show('duration("P1Y2D")'), 'null', 'years with days is neither duration type');
  assert.equal(show('years and months duration(date("2011-12-22"), date("2013-08-24"))'), 'P1Y8M');
});

test('arithmetic between dates, times and durations', () => {
  assert.equal(show('date("2020-01-31") + duration("P1M")'), '2020-02-29');
  assert.equal(show('date("2020-03-01") - date("2020-02-01")'), 'P29D');
  assert.equal(show('@"2020-01-01T10:00:00Z" - @"2020-01-01T09:30:00+01:00"'), 'PT1H30M');
  assert.equal(show('@"2020-01-01T10:00:00" - @"2020-01-01T09:00:00Z"'), 'null', 'a local and a zoned date and time do not subtract');
  assert.equal(show('time("23:00:00") + duration("PT2H")'), '01:00:00');
  assert.equal(show('duration("PT1H") * 26'), 'P1DT2H');
  assert.equal(show('duration("P1D") / duration("PT1H")'), '24');
  assert.equal(show('duration("P1Y") + duration("P2M")'), 'P1Y2M');
});

test('comparisons use the instant of zoned values and keep local ones apart', () => {
  assert.equal(show('@"2020-01-01T10:00:00+01:00" = @"2020-01-01T09:00:00Z"'), 'true');
  assert.equal(show('@"2020-06-01T10:00:00@Europe/Paris" = @"2020-06-01T08:00:00Z"'), 'true', 'summer time in Paris is UTC+2');
  assert.equal(show('@"2020-01-01T10:00:00" < @"2020-01-01T11:00:00Z"'), 'null');
  assert.equal(show('date("2020-01-01") < date("2020-01-02")'), 'true');
  assert.equal(show('duration("PT1H") < duration("PT2H")'), 'true');
  assert.equal(show('date("2020-01-01") = @"2020-01-01T00:00:00"'), 'null');
});

test('properties and calendar functions', () => {
  assert.equal(show('date("2020-03-04").weekday'), '3');
  assert.equal(show('@"2020-01-01T10:00:00@Europe/Paris".timezone'), '"Europe/Paris"');
  assert.equal(show('day of year(date("2020-12-31"))'), '366');
  assert.equal(show('week of year(date("2021-01-03"))'), '53');
  assert.equal(show('month of year(date("2020-07-01"))'), '"July"');
  assert.equal(show('duration("P1DT2H3M4S").hours'), '2');
});

test('now() and today() read the evaluation clock, in its zone', () => {
  const now = compileFeel('now()');
  const today = compileFeel('today()');
  const instant = Date.UTC(2026, 0, 15, 23, 30, 0);
  assert.equal(feelText(now({ now: instant })), '2026-01-15T23:30:00Z');
  assert.equal(feelText(today({ now: instant })), '2026-01-15');
  assert.equal(feelText(today({ now: instant, timeZone: 'Europe/Paris' })), '2026-01-16', 'already the 16th in Paris');
  assert.equal(feelText(now({ now: instant, timeZone: 'Europe/Paris' })), '2026-01-16T00:30:00@Europe/Paris');
  const warnings: string[] = [];
  assert.equal(now({ warnings }), null);
  assert.deepEqual(warnings, ['now(): the evaluation has no clock']);
});

test('a duration added in an IANA zone is elapsed time across a daylight-saving change', () => {
  assert.equal(show('@"2021-03-27T12:00:00@Europe/Paris" + @"PT24H"'), '2021-03-28T13:00:00@Europe/Paris', 'the clocks went forward that night');
  assert.equal(show('@"2021-03-27T12:00:00@Europe/Paris" + @"P1M"'), '2021-04-27T12:00:00@Europe/Paris', 'months move the calendar');
  assert.equal(show('@"2021-03-27T12:00:00+01:00" + @"PT24H"'), '2021-03-28T12:00:00+01:00');
});
