import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { syncAll } from '../../../lambdas/core/shadow/sync-all.js';
import { addCalendar, addConnection, startShadowRuntime } from '../../core/shadow/shadow-fixture.js';
import { type FakeGoogleCalendar, startFakeGoogleCalendar } from '../../support/fake-google-calendar.js';
import { okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import type { TestRuntime } from '../../support/test-runtime.js';

const OWNER = 'ann@example.com';
const BERLIN = 'Europe/Berlin';
const window = { start: '2026-11-09T00:00:00+01:00', end: '2026-11-21T00:00:00+01:00' };

/**
 * Classification of a connected (Google) calendar reads Meridian's shadow once a sync covers the
 * window, and the provider before that: the same answers either way (series expanded to the same
 * occurrence ids, so a pin made on a live read holds on a shadow read), with no events request
 * to the provider on the shadow path.
 */
describe('rules over a connected calendar: the shadow when synced, the provider before', () => {
  let google: FakeGoogleCalendar;
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let agent: Client;
  let calendarId: string;
  let seriesId: string;

  const call = (name: string, args: Record<string, unknown>) =>
    okTool<Record<string, unknown>>(agent, name, args);
  const eventListings = () =>
    google.requests.filter((r) => r.method === 'GET' && /\/events$/.test(r.path)).length;

  beforeAll(async () => {
    google = await startFakeGoogleCalendar({ email: OWNER, timeZone: BERLIN });
    runtime = await startShadowRuntime({
      clock: fixedClock('2026-11-23T12:00:00Z'),
      google,
      defaultTimezone: BERLIN,
    });
    served = await serveRuntime(runtime);
    await addConnection(
      runtime,
      { connection_id: 'g1', provider: 'google', connection_kind: 'oauth', account: OWNER },
      { refresh_token: google.oauth.issueRefreshToken() },
    );
    calendarId = (
      await addCalendar(runtime, {
        provider: 'google',
        connection_id: 'g1',
        native_id: OWNER,
        time_zone: BERLIN,
        primary: true,
      })
    ).calendar_id;
    const key = await served.connect('agent');
    await runtime.access.setGrant(key.keyId, calendarResource(calendarId), 'write');
    agent = key.client;
    const at = (date: string, time: string) => ({ date_time: `${date}T${time}:00`, time_zone: BERLIN });
    seriesId = (
      await runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
        summary: 'Acme standup',
        start: at('2026-11-09', '09:00'),
        end: at('2026-11-09', '09:15'),
        recurrence: ['RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=10'],
        attendees: [{ email: 'kim@acme.com', response_status: 'accepted' }],
      })
    ).id;
    await runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
      summary: 'Acme workshop',
      start: at('2026-11-12', '13:00'),
      end: at('2026-11-12', '16:00'),
      attendees: [{ email: 'lee@acme.com', response_status: 'accepted' }],
    });
  });

  afterAll(async () => {
    await served?.close();
    await google?.close();
  });

  it('answers the same from the shadow as from the provider, and asks the provider nothing once synced', async () => {
    const { project } = (await call('create_project', { name: 'Acme' })) as {
      project: { project_id: string };
    };
    await call('create_rule', { query: 'domain:acme.com', project_id: project.project_id });
    const other = (await call('create_project', { name: 'Internal' })) as { project: { project_id: string } };
    // A pin on one occurrence, by the id a live read gives it.
    await call('classify_event', {
      calendar_id: calendarId,
      event_id: `${seriesId}_20261111T080000Z`,
      project_id: other.project.project_id,
    });
    const ask = () =>
      Promise.all([
        call('preview_rule', { query: 'title:standup', ...window, limit: 500, format: 'json' }),
        call('get_timesheet', { ...window, format: 'json' }),
      ]);

    const before = eventListings();
    const live = await ask();
    const liveListings = eventListings() - before;
    await syncAll(runtime);
    const afterSync = eventListings();
    const shadowed = await ask();

    expect(liveListings).toBeGreaterThan(0);
    expect(eventListings()).toBe(afterSync);
    expect(shadowed).toEqual(live);
    expect(live[0]).toMatchObject({ total_matched: 10, minutes_matched: 150 });
    expect((live[1] as { groups: unknown[] }).groups).toEqual([
      expect.objectContaining({ label: 'Acme', raw_minutes: 9 * 15 + 180, events: 10 }),
      expect.objectContaining({ label: 'Internal', raw_minutes: 15, events: 1 }),
    ]);
  });
});
