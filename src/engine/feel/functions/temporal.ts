// Temporal functions (DMN 1.5, 10.3.4.7): now, today, day of year, day of week, month of year, week of year.
// now() and today() read the evaluation's instant from the scope (the engine has no clock of its own).
import { bad, fn, type Builtin } from '../builtin.ts';
import { DAY_NAMES, MONTH_NAMES, dateOf, dateTimeAt, dayOfYear, isoWeek, isoWeekday } from '../temporal.ts';
import { FeelDate, FeelDateTime, FeelNumber, type FeelValue } from '../values.ts';

function dateArgument(v: FeelValue | undefined): FeelDate | FeelDateTime | null {
  return v instanceof FeelDate || v instanceof FeelDateTime ? v : null;
}

function onDate(name: string, body: (d: FeelDate | FeelDateTime) => FeelValue): Builtin {
  return fn(name, [['date']], ([d], env) => {
    const date = dateArgument(d);
    return date ? body(date) : bad(env, name, 'expects a date');
  });
}

export const TEMPORAL: Builtin[] = [
  fn('now', [[]], (_args, env) => (env.scope.now === undefined ? bad(env, 'now', 'the evaluation has no clock') : dateTimeAt(env.scope.now, env.scope.timeZone ?? 'UTC'))),
  fn('today', [[]], (_args, env) => (env.scope.now === undefined ? bad(env, 'today', 'the evaluation has no clock') : dateOf(dateTimeAt(env.scope.now, env.scope.timeZone ?? 'UTC')))),
  onDate('day of year', (d) => new FeelNumber(dayOfYear(d))),
  onDate('day of week', (d) => DAY_NAMES[isoWeekday(d) - 1]!),
  onDate('month of year', (d) => MONTH_NAMES[d.month - 1]!),
  onDate('week of year', (d) => new FeelNumber(isoWeek(d))),
];
