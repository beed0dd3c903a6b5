import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { OWNER, type RulesHttp, startRulesHttp } from './rules-http.js';

interface Report {
  groups: { key: string; label: string; raw_minutes: number; rounded_minutes: number; events: number }[];
  totals: { raw_minutes: number; rounded_minutes: number; billable_minutes: number; events: number };
}

/**
 * get_timesheet over HTTP on a Berlin calendar: no minute counts twice, days that are 23 and 25
 * hours long, each project's rounding, and the events that never count.
 */
describe('get_timesheet over HTTP', () => {
  let http: RulesHttp;
  let rounded: string;
  let nearest: string;

  const timesheet = (args: Record<string, unknown>) =>
    http.agents.alice.ok<Report>('get_timesheet', { format: 'json', ...args });
  const week = { start: '2026-11-16T00:00:00+01:00', end: '2026-11-23T00:00:00+01:00' };

  beforeAll(async () => {
    http = await startRulesHttp();
    const project = async (name: string, rounding: object) =>
      (
        await http.agents.alice.ok<{ project: { project_id: string } }>('create_project', {
          name,
          billable: true,
          rounding,
        })
      ).project.project_id;
    rounded = await project('Rounded', { minutes: 15, mode: 'up' });
    nearest = await project('Nearest', { minutes: 30, mode: 'nearest' });
    await http.agents.alice.ok('create_rule', {
      query: 'title:planning OR title:call OR title:interrupt',
      project_id: rounded,
    });
    await http.agents.alice.ok('create_rule', { query: 'title:review', project_id: nearest });
    // Three overlapping events: 09:00–10:00, 09:30–10:30 and 09:40–09:50 cover 90 minutes.
    await http.addEvent('Planning', '2026-11-16T09:00:00', 60);
    await http.addEvent('Call', '2026-11-16T09:30:00', 60);
    await http.addEvent('Interrupt', '2026-11-16T09:40:00', 10);
    await http.addEvent('Review A', '2026-11-17T10:00:00', 44);
    await http.addEvent('Review B', '2026-11-18T10:00:00', 46);
    // Never counted: free, declined by the calendar's owner, and (unless asked) all-day.
    await http.addEvent('Focus', '2026-11-19T09:00:00', 120, { transparency: 'transparent' });
    await http.addEvent('Declined', '2026-11-19T14:00:00', 60, {
      attendees: [{ email: OWNER, response_status: 'declined' }],
    });
    await http.runtime.calendars.createEvent(LOCAL_OWNER, http.calendarId, {
      summary: 'Holiday',
      start: { date: '2026-11-20' },
      end: { date: '2026-11-21' },
    });
    // A day from local midnight to local midnight across each clock change.
    await http.addEvent('Spring offsite', '2026-03-29T00:00:00', 24 * 60);
    await http.addEvent('Autumn offsite', '2026-10-25T00:00:00', 24 * 60);
  });

  afterAll(async () => {
    await http?.close();
  });

  it('never counts an overlapping minute twice: the union of the three meetings is 90 minutes', async () => {
    const report = await timesheet({
      start: '2026-11-16T00:00:00+01:00',
      end: '2026-11-17T00:00:00+01:00',
      group_by: 'day',
    });

    expect(report.groups).toMatchObject([{ key: '2026-11-16', raw_minutes: 90, events: 3 }]);
    expect(report.totals.raw_minutes).toBe(90);
  });

  it('rounds each event’s attributed minutes by its project: up to 15, to the nearest 30', async () => {
    const report = await timesheet(week);

    // Planning keeps 30 min, Call 50 (→ 60), Interrupt 10 (→ 15); Review A 44 (→ 30), B 46 (→ 60).
    expect(report.groups.map((g) => [g.label, g.raw_minutes, g.rounded_minutes, g.events])).toEqual([
      ['Rounded', 90, 105, 3],
      ['Nearest', 90, 90, 2],
    ]);
    expect(report.totals).toEqual({
      raw_minutes: 180,
      rounded_minutes: 195,
      billable_minutes: 195,
      events: 5,
    });
  });

  it('leaves out free and declined events, and counts all-day ones only when asked', async () => {
    const friday = { start: '2026-11-19T00:00:00+01:00', end: '2026-11-21T00:00:00+01:00' };

    expect((await timesheet(friday)).totals.raw_minutes).toBe(0);
    expect((await timesheet({ ...friday, include_all_day: true, group_by: 'day' })).groups).toMatchObject([
      { key: '2026-11-20', raw_minutes: 1440, events: 1 },
    ]);
  });

  it.each([
    ['spring forward', '2026-03-28T00:00:00+01:00', '2026-03-31T00:00:00+02:00', '2026-03-29', 23 * 60],
    ['fall back', '2026-10-24T00:00:00+02:00', '2026-10-27T00:00:00+01:00', '2026-10-25', 25 * 60],
  ])('counts the %s day by its real length', async (_name, start, end, day, minutes) => {
    const report = await timesheet({ start, end, group_by: 'day' });

    expect(report.groups).toMatchObject([{ key: day, raw_minutes: minutes, events: 1 }]);
  });
});
