import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarEvent, EventTime } from '../../../lambdas/core/calendar/event.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { ShadowStore } from '../../../lambdas/core/shadow/shadow-store.js';
import { applyChanges, type ShadowChanges } from '../../../lambdas/core/shadow/shadow-writes.js';
import { crashingStore } from '../../support/crashing-store.js';
import type { TestRuntime } from '../../support/test-runtime.js';
import {
  addCalendar,
  busy,
  connectedRecordUnderNativeId,
  nativeEventUnderAlias,
  shadowItems,
  startShadowRuntime,
} from './shadow-fixture.js';

const NOW = '2026-06-01T12:00:00Z';
const TOKYO = 'Asia/Tokyo';

function event(
  id: string,
  start: EventTime,
  end: EventTime,
  extra: Partial<CalendarEvent> = {},
): CalendarEvent {
  return {
    id,
    calendar_id: 'ignored',
    summary: id,
    start,
    end,
    status: 'confirmed',
    transparency: 'opaque',
    visibility: 'default',
    attendees: [],
    etag: `"${id}"`,
    ...extra,
  };
}
const utc = (text: string): EventTime => ({ date_time: `${text}+00:00` });

describe('TableShadowCalendar', () => {
  let runtime: TestRuntime;
  const calendarId = 'caldav/c1/work';

  beforeAll(async () => {
    runtime = await startShadowRuntime({ clock: fixedClock(NOW) });
    await addCalendar(runtime, {
      provider: 'caldav',
      connection_id: 'c1',
      native_id: 'work',
      time_zone: TOKYO,
    });
    await addCalendar(runtime, {
      provider: 'caldav',
      connection_id: 'c1',
      native_id: 'other',
      time_zone: TOKYO,
    });
    await new ShadowStore(runtime.store).writeState(calendarId, {
      provider: 'caldav',
      window_from: '2026-05-01T00:00:00.000Z',
      window_to: '2026-12-01T00:00:00.000Z',
      synced_at: '2026-06-01T11:58:30.000Z',
      last_attempt_at: '2026-06-01T11:58:30.000Z',
    });
    const daily = event('daily', utc('2026-06-08T09:00:00'), utc('2026-06-08T09:30:00'), {
      recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
    });
    await applyChanges(runtime.store, calendarId, {
      upserts: [
        event('before', utc('2026-06-10T08:00:00'), utc('2026-06-10T09:00:00')),
        event('touching-start', utc('2026-06-10T09:30:00'), utc('2026-06-10T10:00:00')),
        event('inside', utc('2026-06-10T10:15:00'), utc('2026-06-10T10:45:00')),
        event('touching-end', utc('2026-06-10T11:00:00'), utc('2026-06-10T12:00:00')),
        event('free', utc('2026-06-10T10:00:00'), utc('2026-06-10T11:00:00'), {
          transparency: 'transparent',
        }),
        event('cancelled', utc('2026-06-10T10:00:00'), utc('2026-06-10T11:00:00'), { status: 'cancelled' }),
        event('reminder', utc('2026-06-10T10:30:00'), utc('2026-06-10T10:30:00')),
        event('conference', utc('2026-06-07T00:00:00'), utc('2026-06-12T00:00:00')),
        event('holiday', { date: '2026-06-20' }, { date: '2026-06-21' }),
        daily,
        // Occurrence 2 moved out of the window, occurrence 3 cancelled (a tombstone).
        event('daily_20260609T090000Z', utc('2026-06-30T09:00:00'), utc('2026-06-30T09:30:00'), {
          recurring_event_id: 'daily',
          original_start: utc('2026-06-09T09:00:00'),
        }),
        event('daily_20260610T090000Z', utc('2026-06-10T09:00:00'), utc('2026-06-10T09:00:00'), {
          recurring_event_id: 'daily',
          original_start: utc('2026-06-10T09:00:00'),
          status: 'cancelled',
        }),
        // An invitation to one occurrence of a series this calendar does not hold.
        event('theirs_20260611T100000Z', utc('2026-06-11T10:00:00'), utc('2026-06-11T11:00:00'), {
          recurring_event_id: 'theirs',
          original_start: utc('2026-06-11T10:00:00'),
        }),
      ],
      removals: [],
    });
  });

  afterAll(async () => {
    await runtime.close();
  });

  describe('busyIntervals', () => {
    it('returns the events that overlap the window, not those that only touch it', async () => {
      const answer = await busy(runtime, calendarId, '2026-06-10T10:00:00Z', '2026-06-10T11:00:00Z');

      expect(answer).toEqual({
        synced_at: '2026-06-01T11:58:30.000Z',
        intervals: [
          ['2026-06-07T00:00:00.000Z', '2026-06-12T00:00:00.000Z', 'conference'],
          ['2026-06-10T10:15:00.000Z', '2026-06-10T10:45:00.000Z', 'inside'],
        ],
      });
    });

    it('expands series with their moved and cancelled occurrences, and counts an orphan occurrence', async () => {
      const answer = await busy(runtime, calendarId, '2026-06-08T00:00:00Z', '2026-07-01T00:00:00Z');

      expect(answer.intervals.filter(([, , id]) => id.includes('_'))).toEqual([
        ['2026-06-08T09:00:00.000Z', '2026-06-08T09:30:00.000Z', 'daily_20260608T090000Z'],
        ['2026-06-11T09:00:00.000Z', '2026-06-11T09:30:00.000Z', 'daily_20260611T090000Z'],
        ['2026-06-11T10:00:00.000Z', '2026-06-11T11:00:00.000Z', 'theirs_20260611T100000Z'],
        ['2026-06-12T09:00:00.000Z', '2026-06-12T09:30:00.000Z', 'daily_20260612T090000Z'],
        ['2026-06-30T09:00:00.000Z', '2026-06-30T09:30:00.000Z', 'daily_20260609T090000Z'],
      ]);
    });

    it('places an all-day event in the calendar’s zone, even for a window its UTC date misses', async () => {
      // Tokyo's 20 June is 19 June 15:00 to 20 June 15:00 UTC.
      const answer = await busy(runtime, calendarId, '2026-06-19T16:00:00Z', '2026-06-19T17:00:00Z');

      expect(answer.intervals).toEqual([['2026-06-19T15:00:00.000Z', '2026-06-20T15:00:00.000Z', 'holiday']]);
      expect(
        (await busy(runtime, calendarId, '2026-06-20T15:00:00Z', '2026-06-20T16:00:00Z')).intervals,
      ).toEqual([]);
    });

    it('gives synced_at only when the synced window covers the asked range', async () => {
      const beyond = await busy(runtime, calendarId, '2026-11-30T00:00:00Z', '2026-12-02T00:00:00Z');
      const neverSynced = await busy(
        runtime,
        'caldav/c1/other',
        '2026-06-10T00:00:00Z',
        '2026-06-11T00:00:00Z',
      );

      expect(beyond).toEqual({ intervals: [] });
      expect(neverSynced).toEqual({ intervals: [] });
    });

    it('reads a native calendar directly and calls it current', async () => {
      const native = await addCalendar(runtime, {
        provider: 'native',
        connection_id: 'native',
        native_id: 'n1',
      });
      const { provider, ref } = await runtime.calendars.providerFor(native);
      const created = await provider.createEvent(ref, {
        summary: 'Native',
        start: { date_time: '2026-06-10T10:00:00+00:00' },
        end: { date_time: '2026-06-10T11:00:00+00:00' },
      });

      await runtime.shadow.recordBooking(native.calendar_id, created);
      const answer = await busy(runtime, native.calendar_id, '2026-06-10T00:00:00Z', '2026-06-11T00:00:00Z');

      expect(answer).toEqual({
        synced_at: '2026-06-01T12:00:00.000Z',
        intervals: [['2026-06-10T10:00:00.000Z', '2026-06-10T11:00:00.000Z', created.id]],
      });
      expect(await shadowItems(runtime, native.calendar_id)).toEqual([]);
      expect(await runtime.shadow.freshness(native.calendar_id)).toEqual({
        synced_at: '2026-06-01T12:00:00.000Z',
        age_seconds: 0,
      });
    });

    it("asked by a native id, reads the events of the calendar its record names, never the id's guess", async () => {
      const { aliasId, event: created } = await nativeEventUnderAlias(runtime, 'n3', {
        start: '2026-06-11T10:00:00+00:00',
        end: '2026-06-11T11:00:00+00:00',
      });

      const answer = await busy(runtime, aliasId, '2026-06-11T00:00:00Z', '2026-06-12T00:00:00Z');

      expect(answer.intervals).toEqual([
        ['2026-06-11T10:00:00.000Z', '2026-06-11T11:00:00.000Z', created.id],
      ]);
    });

    it('reads a record under a native-looking id as the connected calendar it says it is', async () => {
      const calendarId = await connectedRecordUnderNativeId(runtime);

      const answer = await runtime.shadow.busyIntervals(calendarId, 0, 1);

      expect(answer).toMatchObject({ intervals: [], calendar: { provider: 'caldav' } });
      expect(answer.synced_at).toBeUndefined();
    });

    it('refuses a calendar Meridian does not know', async () => {
      await expect(runtime.shadow.busyIntervals('caldav/c1/nope', 0, 1)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(runtime.shadow.busyIntervals('native/nope', 0, 1)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });

  describe('freshness', () => {
    it('says when the calendar was synced and how long ago, in whole seconds', async () => {
      expect(await runtime.shadow.freshness(calendarId)).toEqual({
        synced_at: '2026-06-01T11:58:30.000Z',
        age_seconds: 90,
      });
      expect(await runtime.shadow.freshness('caldav/c1/other')).toEqual({});
    });
  });

  describe('applyChanges', () => {
    const base = () => [
      event('a', utc('2026-06-10T08:00:00'), utc('2026-06-10T09:00:00')),
      event('b', utc('2026-06-11T08:00:00'), utc('2026-06-11T09:00:00')),
      event('s', utc('2026-06-08T09:00:00'), utc('2026-06-08T10:00:00'), {
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      }),
      event('s_20260609T090000Z', utc('2026-06-09T11:00:00'), utc('2026-06-09T12:00:00'), {
        recurring_event_id: 's',
        original_start: utc('2026-06-09T09:00:00'),
      }),
    ];
    const changes = (): ShadowChanges => ({
      upserts: [
        event('a', utc('2026-06-12T08:00:00'), utc('2026-06-15T09:00:00')),
        event('c', utc('2026-06-13T08:00:00'), utc('2026-06-13T09:00:00')),
      ],
      removals: ['b', 's', 'never-seen'],
    });
    const withoutPartition = (items: Awaited<ReturnType<typeof shadowItems>>) =>
      items.map(({ pk: _pk, ...rest }) => rest);

    it('moves, adds and removes events, a removed series with its occurrences, and is idempotent', async () => {
      const id = 'caldav/c1/apply';
      await addCalendar(runtime, { provider: 'caldav', connection_id: 'c1', native_id: 'apply' });
      await applyChanges(runtime.store, id, { upserts: base(), removals: [] });

      const first = await applyChanges(runtime.store, id, changes());
      const once = await shadowItems(runtime, id);
      const second = await applyChanges(runtime.store, id, changes());

      expect(first).toEqual({ upserted: 2, deleted: 3 });
      expect(second).toEqual({ upserted: 2, deleted: 0 });
      expect(await shadowItems(runtime, id)).toEqual(once);
      expect(once.map((i) => i.sk)).toEqual([
        'EVT#2026-06-13T08:00:00.000Z#c',
        'IDX#a',
        'IDX#c',
        // 'a' now lasts three days: a long event.
        'LONG#a',
      ]);
    });

    const unrecur = (): ShadowChanges => ({
      upserts: [event('s', utc('2026-06-08T09:00:00'), utc('2026-06-08T10:00:00'))],
      removals: ['a'],
    });

    it.each([
      ['moves, adds and removes a series', changes],
      ['stops a series recurring', unrecur],
    ])('converges whatever write a crash interrupts, once re-applied (%s)', async (name, changeSet) => {
      const reference = `caldav/c1/reference-${name.length}`;
      await applyChanges(runtime.store, reference, { upserts: base(), removals: [] });
      await applyChanges(runtime.store, reference, changeSet());
      const expected = withoutPartition(await shadowItems(runtime, reference));

      for (let budget = 0; budget < 12; budget += 1) {
        const id = `caldav/c1/crash-${name.length}-${budget}`;
        await applyChanges(runtime.store, id, { upserts: base(), removals: [] });
        await applyChanges(crashingStore(runtime.store, budget), id, changeSet()).catch(() => undefined);

        await applyChanges(runtime.store, id, changeSet());

        expect(withoutPartition(await shadowItems(runtime, id)), `crash after ${budget} writes`).toEqual(
          expected,
        );
      }
    });

    it('drops the occurrences of a master that stops recurring', async () => {
      const id = 'caldav/c1/unrecur';
      await applyChanges(runtime.store, id, { upserts: base(), removals: [] });

      await applyChanges(runtime.store, id, {
        upserts: [event('s', utc('2026-06-08T09:00:00'), utc('2026-06-08T10:00:00'))],
        removals: [],
      });

      expect((await shadowItems(runtime, id)).map((i) => i.sk)).toEqual([
        'EVT#2026-06-08T09:00:00.000Z#s',
        'EVT#2026-06-10T08:00:00.000Z#a',
        'EVT#2026-06-11T08:00:00.000Z#b',
        'IDX#a',
        'IDX#b',
        'IDX#s',
      ]);
    });
  });
});
