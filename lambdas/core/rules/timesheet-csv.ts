import type { TimesheetReport } from './timesheet-report.js';

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A timesheet as CSV for spreadsheets and invoicing: one row per group with raw, rounded and
 * billable minutes, `label` naming projects (ids stay in `key`), and a total row.
 *
 * @example
 * timesheetCsv(report, (id) => names.get(id));
 * // 'key,label,raw_minutes,rounded_minutes,billable_minutes,events\r\nprj_1,Acme,100,120,120,4\r\n…'
 */
export function timesheetCsv(report: TimesheetReport, labelOf: (key: string) => string | undefined): string {
  const rows: (string | number)[][] = [
    ['key', 'label', 'raw_minutes', 'rounded_minutes', 'billable_minutes', 'events'],
    ...report.groups.map((g) => [
      g.key,
      labelOf(g.key) ?? g.key,
      g.raw_minutes,
      g.rounded_minutes,
      g.billable_minutes,
      g.events,
    ]),
    [
      'total',
      'Total',
      report.totals.raw_minutes,
      report.totals.rounded_minutes,
      report.totals.billable_minutes,
      report.totals.events,
    ],
  ];
  return `${rows.map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}
