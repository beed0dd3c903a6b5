import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../../support/mcp-client.js';
import { guests, type RulesHttp, startRulesHttp } from '../rules-http.js';

/** Issue 22 S5: preview_rule and explain_classification count what get_timesheet counts. */
describe('rules count what timesheets count', () => {
  let http: RulesHttp;
  let acme: string;
  let cancelledId: string;
  const window = { start: '2026-11-16T00:00:00Z', end: '2026-11-21T00:00:00Z' };

  beforeAll(async () => {
    http = await startRulesHttp();
    const { alice } = http.agents;
    acme = (await alice.ok<{ project: { project_id: string } }>('create_project', { name: 'Acme' })).project
      .project_id;
    await alice.ok('create_rule', { project_id: acme, query: 'domain:acme.com' });
    const acmeGuests = { attendees: guests('ann@acme.com') };
    await http.addEvent('Acme review', '2026-11-16T09:00:00', 60, acmeGuests);
    await http.addEvent('Acme planning', '2026-11-17T09:00:00', 30, acmeGuests);
    cancelledId = await http.addEvent('Acme offsite', '2026-11-18T09:00:00', 90, {
      ...acmeGuests,
      status: 'cancelled',
    });
  });
  afterAll(() => http?.close());

  it('preview_rule leaves out the cancelled event, as get_timesheet does, and says how many it left out', async () => {
    const { alice } = http.agents;
    const preview = await alice.ok<ToolOutput>('preview_rule', {
      query: 'domain:acme.com',
      ...window,
      format: 'json',
    });
    const timesheet = await alice.ok<{ groups: { key: string; raw_minutes: number; events: number }[] }>(
      'get_timesheet',
      { ...window, format: 'json' },
    );

    const acmeRow = timesheet.groups.find((g) => g.key === acme);
    expect(acmeRow).toMatchObject({ raw_minutes: 90, events: 2 });
    expect(preview).toMatchObject({ total_matched: 2, minutes_matched: 90, not_counted: 1 });
    expect(preview.matches.map((m: { summary: string }) => m.summary)).toEqual([
      'Acme review',
      'Acme planning',
    ]);
  });

  it('explain_classification says a cancelled event does not count', async () => {
    const explained = await http.agents.alice.ok('explain_classification', {
      calendar_id: http.calendarId,
      event_id: cancelledId,
    });

    expect(explained).toMatchObject({ counts: false });
    expect(explained.not_counted_because).toMatch(/cancelled/);
  });

  it('explain_classification says a confirmed event counts', async () => {
    const preview = await http.agents.alice.ok<ToolOutput>('preview_rule', {
      query: 'title:review',
      ...window,
      format: 'json',
    });
    const explained = await http.agents.alice.ok('explain_classification', {
      calendar_id: http.calendarId,
      event_id: preview.matches[0].event_id,
    });

    expect(explained).toMatchObject({ counts: true, project_id: acme, decided_by: 'rule' });
    expect(explained.not_counted_because).toBeUndefined();
  });
});
