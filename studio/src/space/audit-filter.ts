// The Audit log's filter form as the user types it, checked and turned into the query the server takes: a status
// is an HTTP status (or the Kafka code the record holds), times are the browser's local date-times sent as
// ISO-8601 instants, and a "from" after the "to" is said so rather than answered with an empty page.
import type { AuditFilter } from './api.ts';

export interface AuditForm {
  ruleId: string;
  correlationId: string;
  status: string;
  /** `<input type="datetime-local">` values (local time), or ''. */
  from: string;
  to: string;
}

export const EMPTY_AUDIT_FORM: AuditForm = { ruleId: '', correlationId: '', status: '', from: '', to: '' };

function instant(value: string, label: string): { iso?: string; error?: string } {
  if (value.trim() === '') return {};
  const ms = new Date(value).getTime();
  if (Number.isNaN(ms)) return { error: `${label} is not a date and time: "${value}"` };
  return { iso: new Date(ms).toISOString() };
}

/** A time range typed in two datetime-local fields, as ISO-8601 instants (the Audit and Activity filters). */
export function timeRange(fromText: string, toText: string): { from?: string; to?: string; error?: string } {
  const from = instant(fromText, 'From');
  if (from.error) return { error: from.error };
  const to = instant(toText, 'To');
  if (to.error) return { error: to.error };
  if (from.iso && to.iso && from.iso > to.iso) return { error: 'From is after To: nothing can match' };
  return { from: from.iso, to: to.iso };
}

export function auditFilterOf(form: AuditForm): { filter: AuditFilter; error?: undefined } | { error: string; filter?: undefined } {
  const status = form.status.trim();
  if (status !== '' && !/^[1-5][0-9]{2}$/.test(status)) return { error: `Status must be a status code such as 200, 400 or 500, not "${status}"` };
  const range = timeRange(form.from, form.to);
  if (range.error !== undefined) return { error: range.error };
  const filter: AuditFilter = {};
  if (form.ruleId.trim()) filter.ruleId = form.ruleId.trim();
  if (form.correlationId.trim()) filter.correlationId = form.correlationId.trim();
  if (status) filter.status = status;
  if (range.from) filter.from = range.from;
  if (range.to) filter.to = range.to;
  return { filter };
}
