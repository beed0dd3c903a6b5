import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { callTool, errorOf, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

type Json = Record<string, unknown>;

/** find_free_slots, check_availability and get_availability over HTTP on native calendars. */
describe('availability tools', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let agent: Client;
  let work: string;
  let home: string;
  const ny = 'America/New_York';
  const at = (local: string) => ({ date_time: local, time_zone: ny });

  beforeAll(async () => {
    // Sunday 1 March 2026; the week of 2 March is in EST (-05:00).
    runtime = await startTestRuntime({ clock: fixedClock('2026-03-01T12:00:00Z'), defaultTimezone: ny });
    served = await serveRuntime(runtime);
    work = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Work', time_zone: ny })).id;
    home = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Home', time_zone: ny })).id;
    const key = await served.connect('agent');
    for (const id of [work, home]) await runtime.access.setGrant(key.keyId, calendarResource(id), 'write');
    const add = (calendar: string, summary: string, start: string, end: string, extra: Json = {}) =>
      runtime.calendars.createEvent(LOCAL_OWNER, calendar, {
        summary,
        start: at(start),
        end: at(end),
        ...extra,
      });
    await add(work, 'Standup', '2026-03-02T09:00:00-05:00', '2026-03-02T09:30:00-05:00');
    await add(work, 'Review', '2026-03-02T13:00:00-05:00', '2026-03-02T14:00:00-05:00');
    await add(work, 'Focus (free)', '2026-03-02T15:00:00-05:00', '2026-03-02T16:00:00-05:00', {
      transparency: 'transparent',
    });
    await add(home, 'Dentist', '2026-03-02T13:30:00-05:00', '2026-03-02T14:30:00-05:00');
    agent = key.client;
  });

  afterAll(() => served?.close());

  const call = (name: string, args: Json) => {
    // Only list-shaped results take format (a tool refuses fields it does not know).
    const format = name === 'check_availability' || name === 'book_slot' ? {} : { format: 'json' };
    return okTool<Json>(agent, name, { ...format, ...args });
  };
  const day = { start: '2026-03-02T00:00:00-05:00', end: '2026-03-03T00:00:00-05:00' };

  it('find_free_slots keeps to working hours, honours buffers, and ignores free events', async () => {
    const result = await call('find_free_slots', {
      calendar_id: work,
      ...day,
      working_hours: '09:00-17:00',
      buffer_minutes: 15,
      min_duration_minutes: 60,
    });

    expect(result.slots).toEqual([
      {
        start: '2026-03-02T14:45:00.000Z',
        end: '2026-03-02T17:45:00.000Z',
        start_local: '2026-03-02T09:45:00-05:00',
        end_local: '2026-03-02T12:45:00-05:00',
        weekday: 'Monday',
        duration_minutes: 180,
      },
      {
        start: '2026-03-02T19:15:00.000Z',
        end: '2026-03-02T22:00:00.000Z',
        start_local: '2026-03-02T14:15:00-05:00',
        end_local: '2026-03-02T17:00:00-05:00',
        weekday: 'Monday',
        duration_minutes: 165,
      },
    ]);
    expect(result.timezone).toBe(ny);
    expect(result.freshness).toMatchObject({ calendar_id: work });
  });

  it('find_free_slots with slot_minutes returns bookable slots of exactly that length, on quarter hours', async () => {
    const result = await call('find_free_slots', {
      calendar_id: work,
      ...day,
      working_hours: '09:00-17:00',
      slot_minutes: 45,
      buffer_after_minutes: 10,
      max_results: 4,
    });

    // Standup ends 09:30, plus 10 minutes after it: the first quarter hour free is 09:45.
    expect(
      (result.slots as Json[]).map((s) => `${s.start_local} ${s.end_local} ${s.duration_minutes}`),
    ).toEqual([
      '2026-03-02T09:45:00-05:00 2026-03-02T10:30:00-05:00 45',
      '2026-03-02T10:30:00-05:00 2026-03-02T11:15:00-05:00 45',
      '2026-03-02T11:15:00-05:00 2026-03-02T12:00:00-05:00 45',
      '2026-03-02T12:00:00-05:00 2026-03-02T12:45:00-05:00 45',
    ]);
    expect(result).toMatchObject({ count: 4, more: true });
  });

  it('find_free_slots keeps the buffer before events apart from the buffer after them', async () => {
    const gaps = async (buffers: Json) =>
      (
        (
          await call('find_free_slots', {
            calendar_id: work,
            ...day,
            working_hours: '09:00-17:00',
            ...buffers,
          })
        ).slots as { start_local: string; end_local: string }[]
      ).map((s) => `${s.start_local.slice(11, 16)}-${s.end_local.slice(11, 16)}`);

    expect(await gaps({ buffer_after_minutes: 10 })).toEqual(['09:40-13:00', '14:10-17:00']);
    expect(await gaps({ buffer_before_minutes: 10 })).toEqual(['09:30-12:50', '14:00-17:00']);
    expect(await gaps({ buffer_minutes: 10, buffer_before_minutes: 0 })).toEqual([
      '09:40-13:00',
      '14:10-17:00',
    ]);
    // Review at 13:00 lies after this window, yet its before-buffer reaches back into it.
    const beforeReview = await call('find_free_slots', {
      calendar_id: work,
      start: '2026-03-02T10:00:00-05:00',
      end: '2026-03-02T12:55:00-05:00',
      buffer_before_minutes: 15,
    });
    expect(beforeReview.slots).toMatchObject([{ end_local: '2026-03-02T12:45:00-05:00' }]);
  });

  it('find_free_slots gives local times and the weekday in the asked zone', async () => {
    const result = await call('find_free_slots', {
      calendar_id: work,
      start: '2026-03-02T10:00:00-05:00',
      end: '2026-03-02T12:00:00-05:00',
      slot_minutes: 60,
      timezone: 'Asia/Tokyo',
    });

    // 10:00 on Monday in New York is midnight starting Tuesday in Tokyo.
    expect(result).toMatchObject({
      timezone: 'Asia/Tokyo',
      slots: [
        { start: '2026-03-02T15:00:00.000Z', start_local: '2026-03-03T00:00:00+09:00', weekday: 'Tuesday' },
        { start: '2026-03-02T16:00:00.000Z', start_local: '2026-03-03T01:00:00+09:00', weekday: 'Tuesday' },
      ],
    });
  });

  it('find_free_slots names the field to fix for a bad zone or slot length', async () => {
    const badZone = await callTool(agent, 'find_free_slots', {
      calendar_id: work,
      ...day,
      timezone: 'Asia/Tokio',
    });
    const badLength = await callTool(agent, 'find_free_slots', {
      calendar_id: work,
      ...day,
      slot_minutes: 2,
    });

    expect(errorOf(badZone)).toMatchObject({
      code: 'INVALID_TIMEZONE',
      field: 'timezone',
      suggestions: expect.arrayContaining(['Asia/Tokyo']),
    });
    expect(errorOf(badLength)).toMatchObject({
      code: 'INVALID_INPUT',
      problems: [{ field: 'slot_minutes' }],
    });
  });

  it('check_availability is false when an event covers part of the slot, true when it only touches', async () => {
    const overlapping = await call('check_availability', {
      calendar_id: work,
      start: '2026-03-02T09:15:00-05:00',
      end: '2026-03-02T10:00:00-05:00',
    });
    const touching = await call('check_availability', {
      calendar_id: work,
      start: '2026-03-02T09:30:00-05:00',
      end: '2026-03-02T10:00:00-05:00',
    });

    expect(overlapping).toMatchObject({
      available: false,
      conflicts: [
        {
          kind: 'event',
          start: '2026-03-02T14:00:00.000Z',
          start_local: '2026-03-02T09:00:00-05:00',
          weekday: 'Monday',
        },
      ],
      timezone: ny,
    });
    expect(touching).toMatchObject({ available: true, conflicts: [] });
  });

  it('check_availability is false while a booking holds the slot', async () => {
    const slot = { start: '2026-03-02T11:00:00-05:00', end: '2026-03-02T11:30:00-05:00' };
    expect((await call('check_availability', { calendar_id: work, ...slot })).available).toBe(true);

    await call('book_slot', { calendar_id: work, ...slot, summary: 'Interview' });

    const after = await call('check_availability', { calendar_id: work, ...slot });
    expect(after.available).toBe(false);
    expect((after.conflicts as Json[]).map((c) => c.kind).sort()).toEqual(['booking_hold', 'event']);
  });

  it('get_availability merges calendars; opaque hides source counts, full shows them', async () => {
    const window = {
      start: '2026-03-02T12:00:00-05:00',
      end: '2026-03-02T15:00:00-05:00',
      calendar_ids: [work, home],
    };

    const opaque = await call('get_availability', window);
    const full = await call('get_availability', { ...window, privacy: 'full' });

    const block = {
      start: '2026-03-02T18:00:00.000Z',
      end: '2026-03-02T19:30:00.000Z',
      start_local: '2026-03-02T13:00:00-05:00',
      end_local: '2026-03-02T14:30:00-05:00',
      weekday: 'Monday',
    };
    expect(full.busy).toEqual([{ ...block, source_count: 2 }]);
    expect(opaque.busy).toEqual([block]);
    expect(full.free).toMatchObject([
      { start: '2026-03-02T17:00:00.000Z', end: '2026-03-02T18:00:00.000Z', duration_minutes: 60 },
      { start: '2026-03-02T19:30:00.000Z', end: '2026-03-02T20:00:00.000Z', duration_minutes: 30 },
    ]);
    expect(full).toMatchObject({ calendars_merged: 2, privacy: 'full' });
  });

  it('refuses a window whose end is before its start', async () => {
    const result = await callTool(agent, 'find_free_slots', {
      calendar_id: work,
      start: day.end,
      end: day.start,
    });

    expect(errorOf(result).code).toBe('INVALID_INPUT');
  });
});
