import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { callTool, errorOf } from '../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/**
 * Every calendar tool, called by keys with no grant, read only, and revoked: nothing of a
 * calendar leaks to a key without read, nothing changes for a key without write.
 */
describe('calendar tools and per-calendar grants', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let calendarId: string;
  let eventId: string;
  const clients: Record<'none' | 'read' | 'write', Client> = {} as never;
  let revokedToken: string;

  const event = {
    summary: 'Board meeting',
    start: { date_time: '2026-05-04T09:00:00-04:00', time_zone: 'America/New_York' },
    end: { date_time: '2026-05-04T10:00:00-04:00', time_zone: 'America/New_York' },
  };
  const window = { start: '2026-05-01T00:00:00Z', end: '2026-06-01T00:00:00Z' };

  beforeAll(async () => {
    runtime = await startTestRuntime({ defaultTimezone: 'America/New_York' });
    served = await serveRuntime(runtime);
    const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, {
      name: 'Board',
      time_zone: 'America/New_York',
    });
    calendarId = calendar.id;
    eventId = (await runtime.calendars.createEvent(LOCAL_OWNER, calendarId, event)).id;
    for (const grant of ['none', 'read', 'write'] as const) {
      const { client, keyId } = await served.connect(grant);
      if (grant !== 'none') await runtime.access.setGrant(keyId, calendarResource(calendarId), grant);
      clients[grant] = client;
    }
    const revoked = await runtime.newKey('revoked');
    await runtime.access.setGrant(revoked.keyId, calendarResource(calendarId), 'write');
    await runtime.access.revokeKey(revoked.keyId);
    revokedToken = revoked.token;
  });

  afterAll(() => served?.close());

  const call = (who: keyof typeof clients, name: string, args: Record<string, unknown>) =>
    callTool(clients[who], name, args);

  const readCalls = (): [string, Record<string, unknown>][] => [
    ['list_events', { calendar_id: calendarId, ...window, format: 'json' }],
    ['get_event', { calendar_id: calendarId, event_id: eventId }],
  ];
  const writeCalls = (): [string, Record<string, unknown>][] => [
    ['create_event', { calendar_id: calendarId, ...event }],
    ['update_event', { calendar_id: calendarId, event_id: eventId, summary: 'Hijacked' }],
    [
      'batch_update_events',
      { calendar_id: calendarId, updates: [{ event_id: eventId, summary: 'Hijacked' }] },
    ],
    ['delete_event', { calendar_id: calendarId, event_id: eventId }],
    ['quick_add_event', { calendar_id: calendarId, text: 'Coffee tomorrow at 3pm' }],
    [
      'manage_attendees',
      { calendar_id: calendarId, event_id: eventId, add_attendees: ['mallory@example.com'] },
    ],
    ['respond_to_event', { calendar_id: calendarId, event_id: eventId, response: 'declined' }],
    ['create_calendar', { summary: 'Sibling', calendar_id: calendarId }],
  ];

  describe('a key without a grant', () => {
    it('does not see the calendar in list_calendars', async () => {
      const result = await call('none', 'list_calendars', { format: 'json' });

      expect(result.structuredContent?.calendars).toEqual([]);
    });

    it('is told that no calendar was read, rather than shown an empty list, by every all-calendars listing', async () => {
      for (const name of ['list_events', 'find_free_time', 'get_availability']) {
        const args = name === 'list_events' ? { ...window, format: 'json' } : window;
        const error = errorOf(await call('none', name, args));

        expect(error, name).toMatchObject({ code: 'FORBIDDEN', missing_right: 'read' });
        expect(error.message, name).toMatch(/no calendar.*grants set/);
      }
    });

    it('gets FORBIDDEN (read) from every read tool', async () => {
      for (const [name, args] of readCalls()) {
        const error = errorOf(await call('none', name, args));
        expect(error, name).toMatchObject({
          code: 'FORBIDDEN',
          calendar_id: calendarId,
          missing_right: 'read',
        });
      }
    });

    it('gets the calendar reported as FORBIDDEN by find_free_time', async () => {
      const result = await call('none', 'find_free_time', { calendar_ids: [calendarId], ...window });

      const calendars = (result.structuredContent?.calendars ?? []) as { error?: { code: string } }[];
      expect(calendars[0]?.error?.code).toBe('FORBIDDEN');
    });

    it('gets FORBIDDEN (write) from every write tool', async () => {
      for (const [name, args] of writeCalls()) {
        expect(errorOf(await call('none', name, args)).code, name).toBe('FORBIDDEN');
      }
    });
  });

  describe('a key with read only', () => {
    it('reads the calendar and its event', async () => {
      const listed = await call('read', 'list_calendars', { format: 'json' });
      const fetched = await call('read', 'get_event', { calendar_id: calendarId, event_id: eventId });

      expect(listed.structuredContent?.calendars).toMatchObject([
        { id: calendarId, can_read: true, can_write: false },
      ]);
      expect(fetched.structuredContent).toMatchObject({ event: { summary: 'Board meeting' } });
    });

    it('gets FORBIDDEN naming the missing write right from every write tool, and nothing changes', async () => {
      for (const [name, args] of writeCalls()) {
        const error = errorOf(await call('read', name, args));
        expect(error, name).toMatchObject({
          code: 'FORBIDDEN',
          calendar_id: calendarId,
          missing_right: 'write',
        });
      }
      const after = await runtime.calendars.getEvent(LOCAL_OWNER, calendarId, eventId);
      expect(after.summary).toBe('Board meeting');
      expect(after.attendees).toEqual([]);
      const listed = await runtime.calendars.listCalendars(LOCAL_OWNER);
      expect(listed.map((c) => c.name)).toEqual(['Board']);
    });
  });

  describe('a key with read and write', () => {
    it('can change the event', async () => {
      const result = await call('write', 'update_event', {
        calendar_id: calendarId,
        event_id: eventId,
        location: 'Room 4',
        return_event: true,
      });

      expect(result.structuredContent).toMatchObject({
        changed: ['location'],
        event: { location: 'Room 4' },
      });
    });
  });

  describe('a revoked key', () => {
    it('is refused before any tool runs', async () => {
      await expect(served.connectToken(revokedToken)).rejects.toThrow(/401|unknown or revoked/);
    });
  });
});
