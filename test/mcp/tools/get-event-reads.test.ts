import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { callTool, errorOf, okTool } from '../../support/mcp-client.js';
import { serveNativeCalendarBehindTableLog } from '../../support/served-behind-table-log.js';

/**
 * get_event on a native calendar asked by id, its table requests seen from outside the server
 * with each answer held back (serveBehindTableLog), so that requests sent in turn fall in
 * separate rounds.
 */
describe('get_event on a native calendar', () => {
  let slow: Awaited<ReturnType<typeof serveNativeCalendarBehindTableLog>>;
  let agent: Client;
  let calendarId: string;
  let eventId: string;
  let seriesId: string;
  let keyId: string;

  beforeAll(async () => {
    slow = await serveNativeCalendarBehindTableLog('Europe/Paris');
    ({ agent, calendarId, keyId } = slow);
    eventId = (
      await slow.runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
        summary: 'Review',
        start: { date_time: '2031-01-07T14:00:00+01:00' },
        end: { date_time: '2031-01-07T15:00:00+01:00' },
      })
    ).id;
    seriesId = (
      await slow.runtime.calendars.createEvent(LOCAL_OWNER, calendarId, {
        summary: 'Standup',
        start: { date_time: '2031-01-06T09:00:00+01:00' },
        end: { date_time: '2031-01-06T09:15:00+01:00' },
        recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
      })
    ).id;
  });

  afterAll(async () => {
    await slow?.close();
  });

  const get = async (id: string) =>
    (
      await okTool<{ event: { id: string; summary: string; start: { date_time?: string } } }>(
        agent,
        'get_event',
        { calendar_id: calendarId, event_id: id },
      )
    ).event;

  it("reads the calendar's record and the event in one round trip", async () => {
    await get(eventId); // the key's budget and everything else a first call reads once
    slow.tableLog.rounds();

    const event = await get(eventId);

    expect(event).toMatchObject({
      id: eventId,
      summary: 'Review',
      start: { date_time: '2031-01-07T14:00:00+01:00' },
    });
    const nativeId = calendarId.replace('native/', '');
    const ofCalendar = slow.tableLog.rounds(nativeId);
    // Before: the record in one round trip, the event's (and its possible series') items in the next.
    expect(ofCalendar).toHaveLength(1);
    expect(ofCalendar[0]).toContain(`GetItem CAL#${calendarId}`);
    expect(ofCalendar[0]!.filter((request) => request.startsWith(`GetItem NCAL#${nativeId}`))).toHaveLength(
      2,
    );
  });

  it('refuses a key without the grant before reading anything of the calendar or the event', async () => {
    const stranger = await slow.served.connect('stranger');
    await okTool(stranger.client, 'list_calendars', {}); // the key's first-call reads, apart
    slow.tableLog.rounds();

    const refused = await callTool(stranger.client, 'get_event', {
      calendar_id: calendarId,
      event_id: eventId,
    });

    expect(errorOf(refused)).toMatchObject({ code: 'FORBIDDEN' });
    // The key's own reads, then the grant's consistent read, refused: no CAL# or NCAL# read.
    expect(slow.tableLog.rounds()).toEqual([
      [expect.stringMatching(/^Query KEY#/)],
      [expect.stringMatching(/^GetItem KEY#/)],
    ]);
  });

  it("finds one occurrence of a series in the calendar's zone", async () => {
    const occurrence = (
      await okTool<{ events: { id: string; start: { date_time?: string } }[] }>(agent, 'list_events', {
        calendar_id: calendarId,
        start: '2031-01-08T00:00:00+01:00',
        end: '2031-01-09T00:00:00+01:00',
      })
    ).events.find((e) => e.id.startsWith(seriesId) && e.id !== seriesId);
    expect(occurrence).toBeDefined();

    const read = await get(occurrence!.id);

    expect(read).toMatchObject({ summary: 'Standup', start: { date_time: '2031-01-08T09:00:00+01:00' } });
  });

  it('names the calendar when the event is not in it, and the calendar when it does not exist', async () => {
    const missingEvent = errorOf(
      await callTool(agent, 'get_event', { calendar_id: calendarId, event_id: 'nope' }),
    );
    expect(missingEvent).toMatchObject({ code: 'NOT_FOUND' });
    expect(missingEvent.message).toContain(calendarId);

    const gone = 'native/00000000-0000-0000-0000-000000000000';
    await slow.runtime.access.setGrant(keyId, calendarResource(gone), 'read');
    const missingCalendar = errorOf(
      await callTool(agent, 'get_event', { calendar_id: gone, event_id: eventId }),
    );
    expect(missingCalendar).toMatchObject({ code: 'NOT_FOUND' });
    expect(missingCalendar.message).toContain(gone);
  });
});
