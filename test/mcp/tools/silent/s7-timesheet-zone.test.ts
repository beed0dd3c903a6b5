import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../../support/mcp-client.js';
import { NEW_YORK, type SilentWorld, startSilentWorld } from './silent-world.js';

/** Issue 22 S7: get_timesheet groups days and weeks by a zone the caller names. */
describe('get_timesheet grouped by day or week', () => {
  let world: SilentWorld;
  // No configured zone: the default is UTC, and the answer says so.
  beforeAll(async () => {
    world = await startSilentWorld('2027-03-20T12:00:00Z');
    const add = (summary: string, start: string, end: string) =>
      world.ok('create_event', {
        calendar_id: world.calendars.ny,
        summary,
        start: { date_time: start, time_zone: NEW_YORK },
        end: { date_time: end, time_zone: NEW_YORK },
      });
    // The DST week: New York springs forward on Sunday 14 March 2027.
    await add('Saturday evening release', '2027-03-13T20:00:00', '2027-03-13T21:00:00'); // 01:00Z on the 14th
    await add('Sunday late call', '2027-03-14T23:00:00', '2027-03-14T23:30:00'); // 03:00Z on the 15th
    await add('Monday standup', '2027-03-15T09:00:00', '2027-03-15T09:15:00');
  });
  afterAll(() => world?.close());

  const timesheet = (args: Record<string, unknown>) =>
    world.ok('get_timesheet', {
      start: '2027-03-08T00:00:00-05:00',
      end: '2027-03-16T00:00:00-04:00',
      calendar_ids: [world.calendars.ny],
      format: 'json',
      ...args,
    });
  const rows = (report: ToolOutput) =>
    (report.groups as { key: string; raw_minutes: number }[]).map((g) => [g.key, g.raw_minutes]);

  it('groups days by the timezone given: 13 March has its row, the Sunday 23:00 call is on the 14th', async () => {
    const report = await timesheet({ group_by: 'day', timezone: NEW_YORK });

    expect(report.time_zone).toBe(NEW_YORK);
    expect(rows(report)).toEqual([
      ['2027-03-13', 60],
      ['2027-03-14', 30],
      ['2027-03-15', 15],
    ]);
  });

  it('groups weeks by it too: the Sunday call is in the DST week (W10), not the next', async () => {
    const report = await timesheet({ group_by: 'week', timezone: NEW_YORK });

    expect(rows(report)).toEqual([
      ['2027-W10', 90],
      ['2027-W11', 15],
    ]);
  });

  it('without timezone uses the default (UTC here) and names it', async () => {
    const report = await timesheet({ group_by: 'day' });

    expect(report.time_zone).toBe('UTC');
    expect(rows(report)).toEqual([
      ['2027-03-14', 60],
      ['2027-03-15', 45],
    ]);
  });
});
