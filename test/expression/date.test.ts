// Date and time functions, spec/rule-format.md §4.9.4 (examples assume Europe/Prague), §11 D4–D5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, out, raw } from './helpers.ts';

const UTC = context({ timeZone: 'UTC' });

test('NOW, CURDATE and CURTIME read ctx.now, in UTC or at an offset', () => {
  assert.equal(out('NOW()'), '2021-06-01T11:01');
  assert.equal(out('NOW("+08:00")'), '2021-06-01T19:01');
  assert.equal(out('CURDATE()'), '2021-06-01');
  assert.equal(out('CURDATE("+14:00")'), '2021-06-02');
  assert.equal(out('CURTIME()'), '11:01');
  assert.equal(out('CURTIME("-02:00")'), '09:01');
  assert.equal(out('NOW(1)'), null);
  assert.equal(out('NOW("abc")'), null);
  assert.equal(out('NOW()', {}, context({ now: Date.UTC(2030, 0, 2, 3, 4) })), '2030-01-02T03:04');
});

test('DATE parses in the context zone unless the text names one', () => {
  assert.equal(out('DATE("2021-12-25T23:00")'), '2021-12-25T22:00');
  assert.equal(out('DATE("12/25/2021")'), '2021-12-24T23:00');
  assert.equal(out('DATE("12/25/2021 Z")'), '2021-12-25T00:00');
  assert.equal(out('DATE("2.20.2022 15:00 GMT+3")'), '2022-02-20T12:00');
  assert.equal(out('DATE("2024-09-24T09:27:00+02:00")'), '2024-09-24T07:27');
  assert.equal(out('DATE("2021-07-01")'), '2021-06-30T22:00');
  assert.equal(out('DATE("12/25/2021")', {}, UTC), '2021-12-25T00:00');
});

test('DATE with a Day.js format, epoch milliseconds and a precision', () => {
  assert.equal(out('DATE("18.06.2022 08:15 +03:00","DD.MM.YYYY HH:mm Z")'), '2022-06-18T05:15');
  assert.equal(out('DATE("18/06/2022T08:15:44","DD/MM/YYYYTHH:mm:ss","h")'), '2022-06-18T06:00');
  assert.equal(out('DATE("18/06/2022T08:15:44","DD/MM/YYYYTHH:mm:ss","s")'), '2022-06-18T06:15:44');
  assert.equal(out('DATE("1710510160000","x")'), '2024-03-15T13:42');
  assert.equal(out('DATE("1710510160","X")'), '2024-03-15T13:42');
  assert.equal(out('DATE("18.06.2022","DD.MM.YYYY","d")'), null);
  assert.equal(out('DATE("nonsense","DD.MM.YYYY HH:mm Z")'), null);
});

test('DATE rolls over out-of-range days and months and keeps historic zone offsets', () => {
  assert.equal(out('DATE("02/30/2022")'), '2022-03-01T23:00');
  assert.equal(out('DATE("2023-13-30T22:00")'), '2024-01-30T21:00');
  assert.equal(out("DATE('2 Jan 999')"), '0999-01-01T23:02');
});

test('DATE accepts the legacy date object and rejects what is no date', () => {
  assert.equal(out('DATE({d})', { d: { date: '2024-09-23', time: '13:27', timezone: '+02:00' } }), '2024-09-23T11:27');
  assert.equal(out('DATE()'), null);
  assert.equal(out('DATE("not a date")'), null);
  assert.equal(out('DATE(true)'), null);
  assert.equal(out('DATE("2021-01-01")', {}, context({ timeZone: 'Mars/Olympus' })), null);
});

test('DATE_MAX and DATE_MIN return the input string as given', () => {
  const max = 'DATE_MAX(DATE("2002-11-25T12:45:30","YYYY-MM-DDTHH:mm:ss","s"), DATE("2002-11-29T12:45:30","YYYY-MM-DDTHH:mm:ss","s"))';
  assert.equal(out(max), '2002-11-29T11:45:30');
  assert.equal(out(max.replace('DATE_MAX', 'DATE_MIN')), '2002-11-25T11:45:30');
  assert.equal(out('DATE_MAX(["2020-01-01","2021-01-01T00:00"])'), '2021-01-01T00:00');
  assert.equal(out('DATE_MIN("2020-01-01","x")'), null);
});

test('DATEDIFF gives whole units of a - b, calendar-aware for months and years', () => {
  assert.equal(out('DATEDIFF(DATE("01/31/2020"),DATE("01/31/2021"),"D")'), -366);
  assert.equal(out('DATEDIFF(DATE("01/31/2021"),DATE("01/31/2020"),"M")'), 12);
  assert.equal(out('DATEDIFF(DATE("01/31/2021"),DATE("01/31/2020"),"Y")'), 1);
  assert.equal(out('DATEDIFF(DATE("01/02/2016"),DATE("12/30/2015"),"D")'), 3);
  assert.equal(out('DATEDIFF("2021-01-01T01:30","2021-01-01T00:00","H")'), 1);
  assert.equal(out('DATEDIFF("2021-01-01T01:30","2021-01-01T00:00","m")'), 90);
  assert.equal(out('DATEDIFF("2021-01-15","2021-01-01","W")'), 2);
  assert.equal(out('DATEDIFF("2021-01-01","2021-01-01T00:00:30","s")'), -30);
  assert.equal(out('DATEDIFF("2021-01-01","2020-01-01","q")'), null);
  assert.equal(out('DATEDIFF("x","2020-01-01","D")'), null);
});

test('DATE_COMPUTE adds days to the date in the context zone', () => {
  assert.equal(out('DATE_COMPUTE(DATE("12/01/2021"),"+20")'), '2021-12-21');
  assert.equal(out('DATE_COMPUTE(DATE("12/30/2021"),"-20")'), '2021-12-10');
  assert.deepEqual(out('ARRAY_MAP([0,1,7],"delta",DATE_COMPUTE(DATE("2022-07-19"),{delta}))'), ['2022-07-19', '2022-07-20', '2022-07-26']);
  assert.equal(out('DATE_COMPUTE(DATE("12/01/2021"))'), null);
  assert.equal(out('DATE_COMPUTE(DATE("12/01/2021"),"x")'), null);
});

test('DATETIME_COMPUTE adds units to the UTC instant', () => {
  assert.equal(out('DATETIME_COMPUTE(DATE("12/01/2021 14:44 GMT+02:00","DD/MM/YYYY HH:mm Z"),"+24","h")'), '2021-01-13T12:44:00');
  assert.equal(out('DATETIME_COMPUTE(DATE("12/30/2021","MM/DD/YYYY"),"-24","h")'), '2021-12-28T23:00:00');
  assert.equal(out('DATETIME_COMPUTE("2021-01-31T10:00",1,"M")'), '2021-02-28T10:00:00');
  assert.equal(out('DATETIME_COMPUTE("2021-01-31T10:00",2,"d")'), '2021-02-02T10:00:00');
  assert.equal(out('DATETIME_COMPUTE("2021-01-31T10:00",90,"s")'), '2021-01-31T10:01:30');
  assert.equal(out('DATETIME_COMPUTE("2021-01-31T10:00",1,"y")'), '2022-01-31T10:00:00');
  assert.equal(out('DATETIME_COMPUTE("2021-01-31T10:00",1,"fortnight")'), null);
});

test('DATE_FORMAT prints the UTC wall clock of a date string', () => {
  assert.equal(out('DATE_FORMAT(DATE("04/16/2024"),"DD.MM.YYYY")'), '15.04.2024');
  assert.equal(out('DATE_FORMAT(DATE("04/16/2024Z"),"DD.MM.YYYY")'), '16.04.2024');
  assert.equal(out('DATE_FORMAT(DATE("04/16/2024 15:30 GMT+5"),"dddd, MMMM D, YYYY h:mm A")'), 'Tuesday, April 16, 2024 10:30 AM');
  assert.equal(out('DATE_FORMAT(CURDATE(),"YYYY")'), 2021);
  assert.equal(out('DATE_FORMAT("04/16/2024","DD.MM.YYYY")'), null);
  assert.equal(out('DATE_FORMAT(5,"DD")'), null);
});

test('DAY, MONTH, YEAR and WEEKDAY answer in the context zone', () => {
  assert.equal(out('DAY(DATE("12-31-2025 GMT"))'), 31);
  assert.equal(out('MONTH(DATE("12/01/2021"))'), 12);
  assert.equal(out('YEAR(DATE("12/31/2015"))'), 2015);
  assert.equal(out('WEEKDAY(DATE("09/05/2022"))'), 1);
  assert.equal(out('WEEKDAY(DATE("12/01/2021"))'), 3);
  assert.equal(out('DAY("2021-06-30T23:30")'), 1);
  assert.equal(out('DAY("2021-06-30T23:30")', {}, UTC), 30);
  assert.equal(out('MONTH("nope")'), null);
});

test('results do not depend on the process time zone', () => {
  const original = process.env.TZ;
  try {
    process.env.TZ = 'America/Los_Angeles';
    assert.equal(out('DATE("12/25/2021")'), '2021-12-24T23:00');
    assert.equal(out("DATE('2 Jan 999')"), '0999-01-01T23:02');
    assert.equal(out('WEEKDAY(DATE("09/05/2022"))'), 1);
  } finally {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  }
});

test('a zone designator right after a reference inside DATE reads as the text "{input}Z"', () => {
  const vars = { input: '04/16/2024' };
  assert.equal(out('DATE({input}Z)', vars), '2024-04-16T00:00');
  assert.equal(out('DATE_FORMAT(DATE({input}Z), "DD-MM-YYYY")', vars), '16-04-2024');
  assert.equal(out('DATE({input} Z)', vars), '2024-04-16T00:00');
  assert.equal(out('DATE({input})', vars), '2024-04-15T22:00');
  assert.equal(out('CONCAT({n}px, "!")', { n: 5 }), '5px!');
  assert.equal(out('{a}-{b}x{c}', { a: 10, b: 'q', c: 'r' }), null); // 10 - "qxr": arithmetic on text is invalid
});

test('DATE of a number (unquoted 12/25/2021 is arithmetic) is invalid; epoch milliseconds need the "x" format', () => {
  assert.equal(out('DATE(12/25/2021)'), null);
  assert.equal(out('DATE(0)'), null);
  assert.equal(out('DATE({ts})', { ts: 1710510160000 }), null);
  assert.throws(() => raw('DATE(12/25/2021)'), { name: 'ExpressionError', message: /^DATE: the number .* is not a date text \(for epoch milliseconds use DATE\(value, "x"\)\)/ });
  assert.equal(out('DATE({ts},"x")', { ts: 1710510160000 }), '2024-03-15T13:42');
  assert.equal(out('DATE("12/25/2021")'), '2021-12-24T23:00');
});
